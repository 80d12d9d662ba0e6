/**
 * Shared pieces of the dashboard e2e specs: a static file server for the built dashboard
 * (apps/web/dist, as any static host would serve it — replay needs no loopscope server), and
 * trace files written to a temp dir.
 */
import { createServer, type Server } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
export const DIST = join(REPO, "apps", "web", "dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".log": "text/plain; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
};

export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

export async function serveDist(): Promise<StaticSite> {
  await stat(join(DIST, "index.html")).catch(() => {
    throw new Error("apps/web/dist is missing: run `pnpm build` (pnpm e2e does)");
  });
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const rel = normalize(path === "/" ? "/index.html" : path).replace(/^(\.\.[/\\])+/, "");
    try {
      const body = await readFile(join(DIST, rel));
      res.writeHead(200, { "content-type": TYPES[extname(rel)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
