/**
 * The text mirror of the passes the canvas shows, for screen readers and tests: one item per
 * pass of the Foos shown. Rendered again only when the Foos or the session change, not on every
 * pan and zoom frame: a hot loop's thousands of items re-rendered per frame cost more than the
 * canvas did. A new selection's items come in a render of their own, after the lanes are drawn,
 * into the items already there (keyed by position): replacing 1,500 items made selecting a
 * settling Foo of a 100k-event trace wait 150 ms for the list no one sees.
 */
import { memo, useDeferredValue } from "react";
import type { TraceSession } from "../store/session.ts";
import { passLabel } from "./layout.ts";

export interface PassMirrorProps {
  session: TraceSession;
  keys: readonly string[];
  /** The session's version: a new one may have new passes. */
  version: number;
}

export const PassMirror = memo(function PassMirror({ session, keys }: PassMirrorProps) {
  const shown = useDeferredValue(keys);
  const passes = shown.flatMap((k) => session.passesOf(k));
  return (
    <ul className="sr-only" data-testid="timeline-passes">
      {passes.map((p, i) => (
        <li
          key={i}
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
