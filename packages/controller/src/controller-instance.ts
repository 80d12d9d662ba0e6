/**
 * The name this controller gives itself in its Events (`reportingInstance`, and `source.host`
 * as client-go's recorder writes both from one EventSource), so that its Events can be told from
 * another controller's: the Go sample-controller writes the same component ("sample-controller")
 * and no instance, and a second loopscope writes the same component with its own instance.
 * `kubectl describe foo` still says "From: sample-controller" (the component); `kubectl get events
 * -o yaml` shows the instance.
 *
 * `loopscope-<pid>@<host>`; a later controller in the same process (tests start several) adds
 * its ordinal, `loopscope-<pid>-2@<host>`: two instances must never share a name.
 */
import { hostname } from "node:os";

/** The API server's limit on reportingInstance (core/v1 validation, ReportingInstanceLengthLimit). */
const MAX_LENGTH = 128;
let made = 0;

export function newControllerInstance(): string {
  made++;
  const who = made === 1 ? `loopscope-${process.pid}` : `loopscope-${process.pid}-${made}`;
  return `${who}@${hostname()}`.slice(0, MAX_LENGTH);
}
