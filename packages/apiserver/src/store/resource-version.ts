/**
 * A request's `resourceVersion` as the storage layer parses it (APIObjectVersioner's
 * ParseResourceVersion) on list, get and watch alike: "" and "0" mean any, anything else must be
 * a uint64. A value that is none is a storage InvalidError no REST layer converts, so a cluster
 * answers it with a 500 Status without a reason (kubernetes/kubernetes#113939), in
 * strconv.ParseUint's words.
 */
import { ApiError } from "../errors.ts";

const MAX_UINT64 = 2n ** 64n - 1n;

/** Throws the cluster's 500 for a resourceVersion that is no uint64. */
export function checkResourceVersion(rv: string | null | undefined): void {
  if (rv === null || rv === undefined || rv === "" || rv === "0") return;
  let why: string | undefined;
  if (!/^[0-9]+$/.test(rv)) why = "invalid syntax";
  else if (BigInt(rv) > MAX_UINT64) why = "value out of range";
  if (why === undefined) return;
  const quoted = JSON.stringify(rv);
  const err = new ApiError(
    500,
    "",
    `resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${why}`,
  );
  // metav1.StatusReasonUnknown is "", which Go's omitempty leaves out.
  delete err.status.reason;
  throw err;
}
