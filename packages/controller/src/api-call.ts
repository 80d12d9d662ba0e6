/**
 * One API call, reduced to what the write stage records: HTTP status, the Kubernetes Status
 * reason on failure (or the transport error code), the returned object, and an Error whose
 * message is the server's (what client-go's error would print).
 */
import type { HttpInfo } from "@kubernetes/client-node";

export type ApiResult<T> =
  | { ok: true; code: number; data: T }
  | { ok: false; code: number | undefined; reason: string; error: Error };

interface StatusBody {
  message?: string;
  reason?: string;
}

export async function callApi<T>(fn: () => Promise<HttpInfo<T>>): Promise<ApiResult<T>> {
  try {
    const res = await fn();
    return { ok: true, code: res.httpStatusCode, data: res.data };
  } catch (err) {
    return failure(err);
  }
}

export function failure(err: unknown): {
  ok: false;
  code: number | undefined;
  reason: string;
  error: Error;
} {
  const e = err as { code?: unknown; body?: unknown; message?: string; errno?: unknown };
  if (typeof e?.code === "number") {
    const status = parseStatus(e.body);
    const message = status?.message ?? `HTTP ${e.code}`;
    return {
      ok: false,
      code: e.code,
      reason: status?.reason ?? `HTTP${e.code}`,
      error: new Error(message),
    };
  }
  // Transport failures (node-fetch FetchError): code is a string like ECONNREFUSED.
  const reason = typeof e?.code === "string" ? e.code : "TransportError";
  return {
    ok: false,
    code: undefined,
    reason,
    error: err instanceof Error ? err : new Error(String(err)),
  };
}

function parseStatus(body: unknown): StatusBody | undefined {
  if (body && typeof body === "object") return body as StatusBody;
  if (typeof body !== "string") return undefined;
  try {
    return JSON.parse(body) as StatusBody;
  } catch {
    return undefined;
  }
}
