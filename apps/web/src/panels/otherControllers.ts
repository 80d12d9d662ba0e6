/**
 * The other controllers the trace says are reconciling the same Foos (its other-controller
 * findings, from the controller's note): their writes reach this controller as anyone else's, so
 * a pass they cause reads as external, and their own passes are not in the trace.
 */
import { otherControllerIn, type Finding } from "@loopscope/trace";

export function otherControllerNames(findings: readonly Finding[]): string[] {
  const names = new Set<string>();
  for (const f of findings) {
    if (f.kind !== "other-controller") continue;
    names.add(otherControllerIn(f.detail) ?? "another controller");
  }
  return [...names];
}
