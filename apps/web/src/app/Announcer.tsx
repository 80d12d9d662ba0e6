/**
 * What a screen reader is told without moving the focus, in a few words, politely (after what it
 * is reading): the pass or event selected — by ]/[ or ←/→, which leave the focus where it was, so
 * the Details panel changes unseen — and a trace opened once it is read. Never a live event: a
 * hot loop's hundred a second would drown everything else. (The connection badge and the
 * scenario bar say their own changes: they are status regions too.)
 */
import { useEffect, useState } from "react";
import { eventText, passText } from "../panels/selectionText.ts";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { useViewPick } from "./hooks.ts";

export function Announcer({ session, view }: { session: TraceSession; view: ViewStore }) {
  const [text, setText] = useState("");
  const seq = useViewPick(view, (s) => s.selectedSeq);
  const passKey = useViewPick(view, (s) => s.selectedPass?.key);
  const passIndex = useViewPick(view, (s) => s.selectedPass?.index);

  useEffect(() => {
    const row = seq === undefined ? -1 : session.store.rowOfSeq(seq);
    // An event is what Details shows when both are selected (a pass's dequeue, clicked).
    const pass = passKey === undefined ? undefined : session.passesOf(passKey)[passIndex ?? -1];
    if (row >= 0) setText(eventText(session.store.event(row)));
    else if (pass) setText(passText(pass));
  }, [session, seq, passKey, passIndex]);

  // A file or a sample, once read whole (its load bar said how it went meanwhile).
  useEffect(() => {
    if (session.source.kind !== "replay") return;
    const name = session.source.name?.split("/").pop() ?? "the trace";
    const said = () => {
      if (!session.progress.done) return false;
      const n = session.store.length;
      setText(
        session.progress.error
          ? `${name}: ${session.progress.error}`
          : `Opened ${name}: ${n.toLocaleString("en-US")} event${n === 1 ? "" : "s"}`,
      );
      return true;
    };
    if (said()) return;
    const unsubscribe = session.subscribe(() => {
      if (said()) unsubscribe();
    });
    return unsubscribe;
  }, [session]);

  return (
    <div className="sr-only" role="status" data-testid="announcer">
      {text}
    </div>
  );
}
