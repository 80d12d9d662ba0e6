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
    // A body that is no Status (a proxy's page, a removed resource's `404 page not found`) is
    // read by its code, as client-go's NewGenericServerResponse does.
    if (status?.reason === undefined) {
      const [reason, message] = generic(e.code, typeof e.body === "string" ? e.body.trim() : "");
      return { ok: false, code: e.code, reason, error: new Error(status?.message ?? message) };
    }
    return {
      ok: false,
      code: e.code,
      reason: status.reason,
      error: new Error(status.message ?? `HTTP ${e.code}`),
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

/**
 * client-go's reason and message for a failure whose body (`text`) is no Status, by HTTP code.
 * Where client-go says StatusReasonUnknown (""), `HTTP<code>`: the trace keeps a reason.
 */
function generic(code: number, text: string): [reason: string, message: string] {
  switch (code) {
    case 400:
      return ["BadRequest", "the server rejected our request for an unknown reason"];
    case 401:
      return ["Unauthorized", "the server has asked for the client to provide credentials"];
    case 403:
      return ["Forbidden", text || `HTTP ${code}`];
    case 404:
      return ["NotFound", "the server could not find the requested resource"];
    case 405:
      return [
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
      ];
    case 409:
      return ["Conflict", "the server reported a conflict"];
    case 422:
      return ["Invalid", "the server rejected our request due to an error in our request"];
    case 429:
      return [
        "TooManyRequests",
        "the server has received too many requests and has asked us to try again later",
      ];
    case 504:
      return [
        "Timeout",
        "the server was unable to return a response in the time allotted, but may still be processing the request",
      ];
  }
  if (code >= 500)
    return [
      "InternalError",
      `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`,
    ];
  return [
    `HTTP${code}`,
    `the server responded with the status code ${code} but did not return more information`,
  ];
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
