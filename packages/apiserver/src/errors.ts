/**
 * Kubernetes `Status` failures, shaped like apimachinery's api/errors/errors.go so clients that
 * branch on `reason`/`code` (client-go's IsConflict, kubectl's messages) behave as on a cluster.
 */

export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** Thrown by the registry; the HTTP layer writes `status` with `status.code`. */
export class ApiError extends Error {
  readonly status: Status;
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    };
  }
}

/** What the messages call a resource: "foos.samplecontroller.k8s.io", "deployments.apps", "namespaces". */
export interface QualifiedResource {
  group: string;
  plural: string;
}

export function qualified(r: QualifiedResource): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

export function notFound(r: QualifiedResource, name: string): ApiError {
  return new ApiError(404, "NotFound", `${qualified(r)} "${name}" not found`, {
    name,
    group: r.group,
    kind: r.plural,
  });
}

export function pathNotFound(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource", {});
}

export function alreadyExists(r: QualifiedResource, name: string): ApiError {
  return new ApiError(409, "AlreadyExists", `${qualified(r)} "${name}" already exists`, {
    name,
    group: r.group,
    kind: r.plural,
  });
}

export function conflict(r: QualifiedResource, name: string, why?: string): ApiError {
  const reason =
    why ??
    "the object has been modified; please apply your changes to the latest version and try again";
  return new ApiError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(r)} "${name}": ${reason}`,
    {
      name,
      group: r.group,
      kind: r.plural,
    },
  );
}

export interface FieldError {
  /** "FieldValueInvalid", "FieldValueRequired", "FieldValueNotSupported", … */
  reason: string;
  field: string;
  /** Text after "<field>: ", e.g. "Invalid value: 11: spec.replicas in body should be …". */
  detail: string;
}

/** 422 Invalid. `kindName` is "Foo.samplecontroller.k8s.io"-style (Kind.group) as the real server prints. */
export function invalid(
  kindName: string,
  name: string,
  group: string,
  kind: string,
  errs: FieldError[],
): ApiError {
  const list = errs.map((e) => `${e.field}: ${e.detail}`);
  const summary = list.length === 1 ? list[0] : `[${list.join(", ")}]`;
  return new ApiError(422, "Invalid", `${kindName} "${name}" is invalid: ${summary}`, {
    name,
    group,
    kind,
    causes: errs.map((e) => ({ reason: e.reason, message: e.detail, field: e.field })),
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, "BadRequest", message);
}

export function expired(requested: number, oldest: number): ApiError {
  return new ApiError(410, "Expired", `too old resource version: ${requested} (${oldest})`);
}

export function unsupportedMediaType(accepted: string[]): ApiError {
  return new ApiError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

export function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    "MethodNotAllowed",
    "the server does not allow this method on the requested resource",
  );
}

export function forbidden(r: QualifiedResource, name: string, why: string): ApiError {
  return new ApiError(403, "Forbidden", `${qualified(r)} "${name}" is forbidden: ${why}`, {
    name,
    group: r.group,
    kind: r.plural,
  });
}

/** The failure an injected fault returns, with the reason a real server uses for that code. */
export function injected(code: number): ApiError {
  const reasons: Record<number, [string, string]> = {
    // kube-apiserver's own words for credentials it refuses (a revoked or expired token).
    401: ["Unauthorized", "Unauthorized"],
    429: [
      "TooManyRequests",
      "the server has received too many requests and has asked us to try again later",
    ],
    500: ["InternalError", "Internal error occurred: injected fault"],
    503: ["ServiceUnavailable", "the server is currently unable to handle the request"],
    504: ["Timeout", "the server was unable to return a response in the time allotted"],
  };
  const [reason, message] = reasons[code] ?? ["InternalError", `injected fault (HTTP ${code})`];
  return new ApiError(code, reason, message, code === 429 ? { retryAfterSeconds: 1 } : undefined);
}

/**
 * A read that asks for a resourceVersion the server has not reached (storage's
 * NewTooLargeResourceVersionError): a 504 Timeout whose cause says why, so client-go's
 * IsTooLargeResourceVersion can tell it from a slow server, with the retry delay the watch
 * cache asks for.
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError(
    504,
    "Timeout",
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      retryAfterSeconds: 1,
    },
  );
}
