/**
 * Step-through mode: walks the trace event by event (the focused Foo's events, scenario notes and
 * orphans), showing each event's narration and the machinery diagram after it. The current step is
 * the view's selected event, so the lanes, the details panel and the step-through always agree;
 * stepping also moves the replay playhead, so the lanes reveal only what has been narrated.
 * Keys: n / PageDown next, p / PageUp previous (what presentation clickers send); with Ctrl, ⌘ or
 * Alt they are the browser's.
 */
import { useEffect, useMemo, useRef } from "react";
import { PART_LABELS } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { COLUMN_LAYOUT, MachineryDiagram, ROW_LAYOUT } from "./MachineryDiagram.tsx";
import { goToSeq, neighbour } from "./stepping.ts";
import { stepSeqs, type WorkshopData } from "./workshopData.ts";
import { useFittedText } from "./useFittedText.ts";
import { modalOpen } from "../ui/modal.ts";

interface Props {
  session: TraceSession;
  view: ViewStore;
  data: WorkshopData;
  focusKey: string | undefined;
  selectedSeq: number | undefined;
  /** Presenter mode: the diagram in two rows, for its column beside the narration. */
  presenter?: boolean;
}

/** The smallest the presenter's narration gets to fit its box (a long one, at 1024 px). */
const PRESENTER_MIN_TEXT_PX = 14;
/** The smallest the dock's narration gets before it scrolls. */
const DOCK_MIN_TEXT_PX = 13;

export function StepThrough({
  session,
  view,
  data,
  focusKey,
  selectedSeq,
  presenter = false,
}: Props) {
  const lifeStart = focusKey ? session.summaryOf(focusKey)?.firstTs : undefined;
  const steps = useMemo(() => stepSeqs(data, focusKey, lifeStart), [data, focusKey, lifeStart]);
  const stepNo = selectedSeq !== undefined ? steps.indexOf(selectedSeq) : -1;
  // Only a step of the focused Foo is narrated: with another Foo's event still selected (the
  // focus just moved to this one), its narration would show under this Foo's name.
  const i = stepNo >= 0 ? data.indexOf.get(selectedSeq!) : undefined;
  const event = i !== undefined ? data.events[i] : undefined;
  const narration = i !== undefined ? data.narrations[i] : undefined;
  const narrationBox = useRef<HTMLDivElement>(null);
  const narrationText = useRef<HTMLParagraphElement>(null);
  // The narration is read whole: its type gives way before it scrolls — down to a room's
  // floor in presenter mode, a reader's at a laptop's desk (the dock at 1024 × 700) otherwise.
  useFittedText(
    narrationBox,
    narrationText,
    narration?.text,
    presenter ? PRESENTER_MIN_TEXT_PX : DOCK_MIN_TEXT_PX,
  );
  const state = i !== undefined ? data.states[i] : undefined;

  const go = (seq: number | undefined) =>
    seq !== undefined && goToSeq(session, view, seq, { zoomToPass: true });
  const move = (dir: 1 | -1) => go(neighbour(steps, selectedSeq, dir));
  /** The next step after the current one whose event passes `pred`, if any. */
  const nextWhere = (pred: (j: number) => boolean): number | undefined => {
    for (let s = stepNo + 1; s < steps.length; s++) {
      const j = data.indexOf.get(steps[s]!);
      if (j !== undefined && pred(j)) return steps[s];
    }
    return undefined;
  };
  const nextPass = nextWhere((j) => data.events[j]!.stage === "dequeue");
  const nextSelf = nextWhere(
    (j) => data.events[j]!.stage === "dequeue" && data.narrations[j]!.self === true,
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)) return;
      // With Ctrl, ⌘ or Alt the key is the browser's (Ctrl+P prints, Ctrl+N opens a window).
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // The `?` dialog open over the page: its keys are its own (PageDown scrolls it).
      if (modalOpen()) return;
      if (e.key === "n" || e.key === "PageDown") {
        e.preventDefault();
        move(1);
      } else if (e.key === "p" || e.key === "PageUp") {
        e.preventDefault();
        move(-1);
      }
    };
    // Captured, so it runs before the page's own keys (useKeyboard), which leave a key taken
    // here alone: `p` steps back, rather than also flipping the lanes to the pass view.
    globalThis.addEventListener("keydown", onKey, { capture: true });
    return () => globalThis.removeEventListener("keydown", onKey, { capture: true });
  });

  return (
    <div className="step-through" data-testid="step-through">
      <div className="step-controls">
        <button
          data-testid="ws-step-first"
          onClick={() => go(steps[0])}
          disabled={steps.length === 0}
        >
          « start
        </button>
        <button data-testid="ws-step-prev" onClick={() => move(-1)} disabled={stepNo <= 0}>
          ◀ previous
        </button>
        <button
          data-testid="ws-step-next"
          className="primary"
          onClick={() => move(1)}
          disabled={stepNo >= steps.length - 1}
        >
          next ▶
        </button>
        <button
          data-testid="ws-step-next-pass"
          onClick={() => go(nextPass)}
          disabled={nextPass === undefined}
        >
          next pass »
        </button>
        <button
          data-testid="ws-step-next-self"
          onClick={() => go(nextSelf)}
          disabled={nextSelf === undefined}
          title={nextSelf === undefined ? "no self-triggered pass after this step" : undefined}
        >
          next self-triggered pass
        </button>
        <span className="step-pos" data-testid="ws-step-pos">
          {stepNo >= 0
            ? `step ${stepNo + 1} of ${steps.length}`
            : steps.length === 0
              ? "nothing to step through: select a Foo"
              : `${steps.length} steps · press next`}
          {event ? ` · seq ${event.seq} · ${event.stage}` : ""}
        </span>
      </div>
      <div
        className={`narration ${narration?.self ? "self" : ""}`}
        data-testid="narration"
        ref={narrationBox}
        aria-live="polite"
      >
        {narration ? (
          <>
            <div className="narration-parts">
              {narration.parts.map((p) => (
                <span key={p} className={`part-badge part-${p}`}>
                  {PART_LABELS[p]}
                </span>
              ))}
              {narration.pass !== undefined && (
                <span className="part-badge pass">pass {narration.pass}</span>
              )}
              {narration.self ? (
                <span className="part-badge self" data-testid="self-badge">
                  self-triggered
                </span>
              ) : (
                narration.echo && (
                  // An echo feeding a pass another trigger makes external: not "self-triggered".
                  <span className="part-badge echo" data-testid="echo-badge">
                    echo of our write
                  </span>
                )
              )}
            </div>
            <p className="narration-text" ref={narrationText}>
              {narration.text}
            </p>
          </>
        ) : (
          <p className="narration-text muted">
            Press <kbd>next ▶</kbd> (or <kbd>n</kbd>, <kbd>PageDown</kbd>) to walk through{" "}
            {focusKey ?? "the trace"} one event at a time.
          </p>
        )}
      </div>
      <MachineryDiagram
        state={state}
        parts={narration?.parts ?? []}
        focusKey={event?.key || focusKey}
        workers={data.workers}
        self={narration?.echo === true && event?.stage === "watch"}
        layout={presenter ? COLUMN_LAYOUT : ROW_LAYOUT}
      />
    </div>
  );
}
