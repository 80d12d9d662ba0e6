/**
 * Serves the built dashboard (apps/web/dist). Only files inside `root` are ever read: the
 * decoded path is resolved and must stay under root (no `..`, no NUL, no symlink escape checked
 * by realpath). Unknown paths without an extension are sent to "/" (the app's one page).
 *
 * index.html is the one file that carries a token: `tokenFor` picks it per request (owner,
 * share, or none), and the page is never cached so a token never outlives its run.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { TOKEN_META } from "@loopscope/protocol";
import type { RequestContext } from "./router.ts";
import { sendError } from "./respond.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".yaml": "text/yaml; charset=utf-8",
};

export function createStaticHandler(
  root: string,
  tokenFor: (ctx: RequestContext) => string | undefined,
): (ctx: RequestContext) => Promise<void> {
  const base = resolve(root);
  return async (ctx) => {
    let rel: string;
    try {
      rel = decodeURIComponent(ctx.url.pathname);
    } catch {
      return sendError(ctx.res, 400, "bad path");
    }
    if (rel.includes("\0")) return sendError(ctx.res, 400, "bad path");
    let file = resolve(join(base, rel));
    if (file !== base && !file.startsWith(base + sep)) return sendError(ctx.res, 403, "outside");
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      if (extname(rel) && rel !== "/") return sendError(ctx.res, 404, "not found");
      if (rel !== "/") {
        // The app has one page (its state is in the query): any other path goes to it. Served
        // there as is, its relative asset URLs would resolve under that path and miss.
        ctx.res.writeHead(302, { location: `/${ctx.url.search}` });
        ctx.res.end();
        return;
      }
      file = join(base, "index.html");
      info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) {
        return sendError(ctx.res, 404, "dashboard not built (run: pnpm build)");
      }
    }
    const real = await realpath(file);
    const realBase = await realpath(base);
    if (!real.startsWith(realBase + sep)) return sendError(ctx.res, 403, "outside");
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    if (file === join(base, "index.html")) {
      const html = withToken(await readFile(file, "utf8"), tokenFor(ctx));
      ctx.res.writeHead(200, {
        "content-type": type,
        "cache-control": "no-store",
        "x-frame-options": "DENY",
      });
      ctx.res.end(ctx.req.method === "HEAD" ? undefined : html);
      return;
    }
    const body = await readFile(file);
    ctx.res.writeHead(200, {
      "content-type": type,
      "content-length": body.length,
      "cache-control": rel.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache",
    });
    ctx.res.end(ctx.req.method === "HEAD" ? undefined : body);
  };
}

/** Inserts the token meta tag as the first child of <head> (or before everything). */
export function withToken(html: string, token: string | undefined): string {
  if (!token) return html;
  const tag = `<meta name="${TOKEN_META}" content="${token}">`;
  const at = html.search(/<head[^>]*>/i);
  if (at < 0) return tag + html;
  const end = html.indexOf(">", at) + 1;
  return html.slice(0, end) + tag + html.slice(end);
}
