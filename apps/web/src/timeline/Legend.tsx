/**
 * The legend: what the timeline's colours, hatching and glyphs mean, in words — the pass causes,
 * then the marks a workshop asks about (merged adds, no-op writes, 409 conflicts, other failed
 * writes) — and the view's switches: folded / linear time, lanes / pass view, and the `?` shortcuts.
 */
import { PASS_CAUSES, type PassCause } from "@loopscope/trace";
import type { ViewStore } from "../store/viewState.ts";
import { useViewPick } from "../app/hooks.ts";
import { causeStyle, OKABE_ITO, STAGE_COLOR } from "../ui/palette.ts";

const CAUSE_MEANS: Record<PassCause, string> = {
  external: "someone else changed something",
  self: "hatched: its own write came back",
  resync: "periodic re-delivery",
  retry: "requeued after an error",
  unknown: "no trigger seen",
};

export function Legend({ view, onHelp }: { view: ViewStore; onHelp: () => void }) {
  const timeMode = useViewPick(view, (s) => s.timeMode);
  const shown = useViewPick(view, (s) => s.timelineView);
  return (
    <div className="legend" data-testid="legend" aria-label="Legend">
      <span className="legend-title">passes:</span>
      {PASS_CAUSES.map((c) => {
        const s = causeStyle(c);
        return (
          <span key={c} className="legend-item" data-cause={c} title={CAUSE_MEANS[c]}>
            <span className={`swatch ${s.hatch ? "hatch" : ""}`} style={{ background: s.color }} />
            {s.label}
            {c === "self" && <span className="legend-means">— {CAUSE_MEANS.self}</span>}
          </span>
        );
      })}
      <span className="legend-title">marks:</span>
      <span className="legend-item">
        <span className="dot" style={{ background: OKABE_ITO.skyBlue }} /> Foo event
      </span>
      <span className="legend-item">
        <span className="sq" style={{ background: OKABE_ITO.orange }} /> Deployment event
      </span>
      <span className="legend-item" data-testid="legend-merged">
        <span className="diamond" style={{ borderColor: STAGE_COLOR.enqueue }} /> merged add
        <span className="legend-means">— key already queued: no extra pass</span>
      </span>
      <span className="legend-item" data-testid="legend-noop">
        <span className="tick" style={{ background: STAGE_COLOR.write }} /> no-op write
        <span className="legend-means">— changed nothing</span>
      </span>
      <span className="legend-item" data-testid="legend-409">
        {/* The canvas's ✕ is vermillion; as text, it takes the hue's text variant (--bad-text). */}
        <span className="cross">✕</span> 409
        <span className="legend-means">— conflict: stale read, retried</span>
      </span>
      <span
        className="legend-item"
        data-testid="legend-failed-write"
        title="a write refused for anything but a conflict (401, 403, 500 …): its code is in its label and tooltip"
      >
        {/* The canvas's ✕ is grey (FAILED_WRITE_COLOR); as text, the muted grey that reads. */}
        <span className="cross failed">✕</span> other error
      </span>
      <span className="legend-controls">
        <span className="segmented" role="group" aria-label="Time axis">
          {(["folded", "linear"] as const).map((m) => (
            <button
              key={m}
              aria-pressed={timeMode === m}
              data-testid={`time-${m}`}
              title={
                m === "folded"
                  ? "Folded time: idle gaps take a fixed width, every pass a readable one (t)"
                  : "Linear time: width is duration (t)"
              }
              onClick={() => view.set({ timeMode: m })}
            >
              {m}
            </button>
          ))}
        </span>
        <span className="segmented" role="group" aria-label="View">
          {(["lanes", "passes"] as const).map((m) => (
            <button
              key={m}
              aria-pressed={shown === m}
              data-testid={`view-${m}`}
              title={
                m === "lanes"
                  ? "Five lanes on a time axis (p)"
                  : "One column per pass: what triggered each one (p)"
              }
              onClick={() => view.set({ timelineView: m })}
            >
              {m}
            </button>
          ))}
        </span>
        <button
          data-testid="shortcuts-button"
          title="Keyboard shortcuts (?)"
          // Its name: "?" alone is read as "question mark".
          aria-label="Keyboard shortcuts"
          aria-keyshortcuts="?"
          onClick={onHelp}
        >
          ?
        </button>
      </span>
    </div>
  );
}
