/**
 * The text mirror of the passes the canvas shows, for screen readers and tests: one item per
 * pass of the Foos shown. Rendered again only when the Foos or the session change, not on every
 * pan and zoom frame: a hot loop's thousands of items re-rendered per frame cost more than the
 * canvas did. A new selection's items come in a render of their own, after the lanes are drawn,
 * into the items already there (keyed by position): replacing 1,500 items made selecting a
 * settling Foo of a 100k-event trace wait 150 ms for the list no one sees. The selected pass is
 * marked (aria-current) on the item itself, not by rendering the list again: a selection changes
 * one attribute or two.
 */
import { memo, useDeferredValue, useLayoutEffect, useRef } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { passLabel } from "./layout.ts";

export interface PassMirrorProps {
  session: TraceSession;
  view: ViewStore;
  keys: readonly string[];
  /** The session's version: a new one may have new passes. */
  version: number;
}

export const PassMirror = memo(function PassMirror({ session, view, keys }: PassMirrorProps) {
  const shown = useDeferredValue(keys);
  const passes = shown.flatMap((k) => session.passesOf(k));
  const list = useRef<HTMLUListElement>(null);
  // After each render (its items may be others now) and on each change of the selected pass.
  useLayoutEffect(() => {
    let marked: Element | null | undefined;
    const mark = () => {
      const sel = view.get().selectedPass;
      const item = sel
        ? list.current?.querySelector(
            `li[data-key="${CSS.escape(sel.key)}"][data-index="${sel.index}"]`,
          )
        : null;
      if (item === marked) return;
      marked?.removeAttribute("aria-current");
      item?.setAttribute("aria-current", "true");
      marked = item;
    };
    list.current?.querySelector("[aria-current]")?.removeAttribute("aria-current");
    mark();
    return view.subscribe(mark);
  });
  return (
    <ul className="sr-only" data-testid="timeline-passes" ref={list}>
      {passes.map((p, i) => (
        <li
          key={i}
          data-testid="timeline-pass"
          data-key={p.key}
          data-index={p.index}
          data-cause={p.cause}
          data-open={p.end === undefined ? "true" : "false"}
        >
          {p.key} {passLabel(p)}
        </li>
      ))}
    </ul>
  );
});
