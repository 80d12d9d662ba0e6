/**
 * What `loopscope up` says on stderr when the Foo API goes away under the controller (its CRD
 * deleted) and when it is back: one line per change, however many retries lie between.
 */
import type { FooApiPresence } from "@loopscope/protocol";
import { FOO_GROUP, FOO_PLURAL } from "@loopscope/controller";

const API = `the Foo API (${FOO_PLURAL}.${FOO_GROUP})`;

export function fooApiLine(now: FooApiPresence): string {
  if (!now.served) {
    return `${API} is gone from the cluster — was the CRD deleted? loopscope keeps retrying; kubectl apply -f public/manifests/crd.yaml brings it back`;
  }
  return `${API} is back: the controller lists and watches Foos again`;
}
