/** Writing JSON responses and reading request bodies. Every JSON response names its Content-Type
 * (client-node refuses to parse a body without one). */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, badRequest } from "../errors.ts";
import { deeperThan, MAX_DEPTH, TOO_DEEP } from "../resources/decode.ts";
import { parse as parseYamlText } from "yaml";

/** The real server's request body limit. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  contentType = "application/json",
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-cache, private",
  });
  res.end(text);
}

/**
 * Go's http.NotFound, as kube-apiserver's last handler (NotFoundHandler) answers a path nothing
 * before it serves: plain text, not a Status. Clients read it as NotFound by its code (client-go:
 * "the server could not find the requested resource").
 */
export function sendPageNotFound(res: ServerResponse): void {
  const text = "404 page not found\n";
  res.writeHead(404, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-cache, private",
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const apiErr =
    err instanceof ApiError
      ? err
      : new ApiError(
          500,
          "InternalError",
          `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
        );
  if (apiErr.status.details?.retryAfterSeconds)
    res.setHeader("Retry-After", String(apiErr.status.details.retryAfterSeconds));
  sendJson(res, apiErr.status.code, apiErr.status);
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new ApiError(
        413,
        "RequestEntityTooLarge",
        "Request entity too large: limit is 3145728",
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Parses a JSON body; an empty body reads as `undefined` (DELETE from client-node sends none).
 * Nesting past MAX_DEPTH is refused here, before any code recurses into the value.
 */
export function parseJson(body: Buffer): unknown {
  return parseBody(body, "json", (text) => JSON.parse(text) as unknown);
}

/**
 * A YAML body (`Content-Type: application/yaml`, as curl users post a manifest): one document,
 * read as its JSON, with the JSON body's limits. The yaml library refuses an alias bomb itself.
 */
export function parseYaml(body: Buffer): unknown {
  return parseBody(body, "yaml", (text) => parseYamlText(text) as unknown);
}

function parseBody(body: Buffer, format: string, parse: (text: string) => unknown): unknown {
  // Untrimmed: a YAML document's first line may be indented like the rest.
  const text = body.toString("utf8");
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw badRequest(`couldn't get version/kind; ${format} parse error: ${why}`);
  }
  if (deeperThan(value, MAX_DEPTH))
    throw badRequest(`couldn't get version/kind; ${format} parse error: ${TOO_DEEP}`);
  return value;
}
