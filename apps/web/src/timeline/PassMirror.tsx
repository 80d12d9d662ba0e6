/**
 * The text mirror of the passes the canvas shows, for screen readers and tests: one item per
 * pass of the Foos shown. Rendered again only when the Foos or the session change, not on every
 * pan and zoom frame: a hot loop's thousands of items re-rendered per frame cost more than the
 * canvas did.
 */
import { memo } from "react";
import type { TraceSession } from "../store/session.ts";
import { passLabel } from "./layout.ts";

export interface PassMirrorProps {
  session: TraceSession;
  keys: readonly string[];
  /** The session's version: a new one may have new passes. */
  version: number;
}

export const PassMirror = memo(function PassMirror({ session, keys }: PassMirrorProps) {
  const passes = keys.flatMap((k) => session.passesOf(k));
  return (
    <ul className="sr-only" data-testid="timeline-passes">
      {passes.map((p) => (
        <li
          key={`${p.key}#${p.index}`}
          data-testid="timeline-pass"
          data-key={p.key}
          data-cause={p.cause}
          data-open={p.end === undefined ? "true" : "false"}
        >
          {p.key} {passLabel(p)}
        </li>
      ))}
    </ul>
  );
});
