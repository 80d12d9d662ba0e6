/**
 * What `loopscope up` says on stderr when the Foo API goes away under the controller (its CRD
 * deleted) and when it is back: one line per change, however many retries lie between; and what
 * `loopscope run` says as it ends for it.
 */
import type { FooApiPresence } from "@loopscope/protocol";
import { FOO_GROUP, FOO_PLURAL } from "@loopscope/controller";

const API = `the Foo API (${FOO_PLURAL}.${FOO_GROUP})`;
const GONE = `${API} is gone from the cluster — was the CRD deleted?`;

/** Why a scenario (`loopscope run`) ended when the Foo API went mid-run: it makes Foos. */
export const FOO_API_GONE_MID_RUN = `${GONE} The scenario cannot go on without it`;

export function fooApiLine(now: FooApiPresence): string {
  if (!now.served) {
    return `${GONE} loopscope keeps retrying; kubectl apply -f public/manifests/crd.yaml brings it back`;
  }
  return `${API} is back: the controller lists and watches Foos again`;
}
