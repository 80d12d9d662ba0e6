/**
 * The HTTP status a reconcile's error text shows, for the statuses the analysis counts. A
 * controller that logs no write lines (the unpatched Go sample-controller) still says in its
 * "Error syncing" line which API answer failed its pass, in apimachinery's fixed wording:
 *
 *   Conflict       Operation cannot be fulfilled on foos.samplecontroller.k8s.io "x": the object has been modified; …
 *   AlreadyExists  deployments.apps "x" already exists
 *
 * The wording is the API server's (apimachinery's errors.NewConflict / NewAlreadyExists), so it
 * is the same in every sample-controller version, whichever of its error lines carries it. The
 * controller's own `Resource "x" already exists and is not managed by Foo` is not an API answer
 * (a capitalised word, not a resource, before the name) and shows no status.
 */

const CONFLICT = "Operation cannot be fulfilled on ";
/** `<resource>[.<group>] "<name>" already exists`, the resource lower-case as the API names it. */
const ALREADY_EXISTS = /(?:^|[\s:(])[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)* "[^"]*" already exists/;

/** 409 when `error` is a Conflict or AlreadyExists answer of the API, else undefined. */
export function statusInError(error: string): 409 | undefined {
  if (error.includes(CONFLICT)) return 409;
  if (error.includes(" already exists") && ALREADY_EXISTS.test(error)) return 409;
  return undefined;
}
