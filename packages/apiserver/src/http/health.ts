/**
 * `/healthz`, `/livez` and `/readyz`, in the format of apiserver's healthz package: `ok` alone;
 * with `?verbose`, one `[+]<check> ok` line per check and then `<endpoint> check passed`
 * (`[-]<check> failed: reason withheld` and a 500 `<endpoint> check failed` when one fails);
 * `?exclude=<check>` skips one; `/<endpoint>/<check>` runs one alone.
 *
 * Only checks that mean something in an in-process server are listed (no etcd, no log
 * flusher, no post-start hooks): `ping` (the HTTP server answers) and `store` (the object store
 * answers a read of the `default` namespace, seeded at start).
 */
import type { ServerResponse } from "node:http";
import { pathNotFound } from "../errors.ts";

export interface HealthCheck {
  name: string;
  /** Throws (or returns an Error) when unhealthy. */
  check(): Error | undefined;
}

export const HEALTH_ENDPOINTS = ["healthz", "livez", "readyz"];

function send(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache, private",
  });
  res.end(text);
}

function run(c: HealthCheck): Error | undefined {
  try {
    return c.check();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/**
 * Answers a health request if `path` is one (`/livez`, `/livez/ping`, …); false otherwise.
 * Every endpoint runs the same checks here: the server is live and ready as soon as it listens.
 */
export function serveHealth(
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  checks: readonly HealthCheck[],
): boolean {
  const [endpoint, single, ...rest] = path.split("/").filter(Boolean);
  if (!HEALTH_ENDPOINTS.includes(endpoint) || rest.length > 0) return false;
  if (single !== undefined) {
    const c = checks.find((x) => x.name === single);
    if (!c) throw pathNotFound();
    const err = run(c);
    if (err) send(res, 500, `internal server error: ${err.message}\n`);
    else send(res, 200, "ok");
    return true;
  }
  const excluded = new Set(query.getAll("exclude").flatMap((v) => v.split(",")));
  let lines = "";
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if (run(c)) {
      failed = true;
      lines += `[-]${c.name} failed: reason withheld\n`;
    } else lines += `[+]${c.name} ok\n`;
  }
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n));
    lines += `warn: some health checks cannot be excluded: no matches for ${names.join(",")}\n`;
  }
  if (failed) {
    send(res, 500, `${lines}${endpoint} check failed\n`);
    return true;
  }
  if (!query.has("verbose")) send(res, 200, "ok");
  else send(res, 200, `${lines}${endpoint} check passed\n`);
  return true;
}
