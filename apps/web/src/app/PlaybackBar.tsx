/** Replay controls: play/pause, speed, step, scrubber, follow live, fit. */
import type { TraceSession } from "../store/session.ts";
import { SPEEDS, type ViewStore } from "../store/viewState.ts";
import { formatWall } from "../timeline/timeScale.ts";
import { useSessionVersion, useView } from "./hooks.ts";
import { fit, fitCreation, step, togglePlay } from "./navigation.ts";

export function PlaybackBar({
  session,
  view,
  growing = true,
}: {
  session: TraceSession;
  view: ViewStore;
  /** Whether a live session's trace can still grow (not a replay server's): "follow live". */
  growing?: boolean;
}) {
  useSessionVersion(session);
  const s = useView(view);
  const ext = session.store.timeExtent();
  const live = session.source.kind === "live" && growing;
  const head = s.playhead ?? ext?.[1] ?? 0;
  const clock = ext ? formatWall(head) : "--:--:--";
  // A Foo that existed before the run was never created here: its start is the initial list.
  const listed = session.summaryOf(s.selectedKeys[0] ?? "")?.listed === true;
  return (
    <div className="playback" role="toolbar" aria-label="Playback">
      <button
        data-testid="step-prev"
        title="Previous event of the selected Foo (←)"
        onClick={() => step(session, view, -1)}
      >
        ◀︎ step
      </button>
      <button
        data-testid="play"
        title="Play / pause (space)"
        onClick={() => togglePlay(session, view)}
        disabled={!ext}
      >
        {s.playing ? "❚❚ pause" : "▶ play"}
      </button>
      <button
        data-testid="step-next"
        title="Next event of the selected Foo (→)"
        onClick={() => step(session, view, 1)}
      >
        step ▶︎
      </button>
      <label>
        speed{" "}
        <select
          data-testid="speed"
          value={s.speed}
          onChange={(e) => view.set({ speed: Number(e.target.value) })}
        >
          {SPEEDS.map((v) => (
            <option key={v} value={v}>
              {v}×
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        className="scrubber"
        data-testid="scrubber"
        aria-label="Playhead"
        // Read as the time shown beside it, not as the epoch microseconds it holds.
        aria-valuetext={clock}
        min={ext?.[0] ?? 0}
        max={ext?.[1] ?? 1}
        step={Math.max(1, ((ext?.[1] ?? 1) - (ext?.[0] ?? 0)) / 2000)}
        value={head}
        onChange={(e) =>
          view.set({ playhead: Number(e.target.value), playing: false, follow: false })
        }
        disabled={!ext}
      />
      <span className="clock" data-testid="playhead-time">
        {clock}
      </span>
      <button
        title="Show every event (end playback)"
        onClick={() => view.set({ playhead: undefined, playing: false })}
        disabled={s.playhead === undefined}
      >
        all
      </button>
      <button
        data-testid="fit"
        title="Fit the selected Foo's whole life (f)"
        onClick={() => fit(session, view)}
      >
        fit
      </button>
      <button
        data-testid="fit-creation"
        title={
          listed
            ? "Zoom to the selected Foo's start: from the informer's initial list (it existed before the run) until it was quiescent (c)"
            : "Zoom to the selected Foo's creation: from its first event until it was quiescent (c)"
        }
        onClick={() => fitCreation(session, view)}
      >
        {listed ? "initial list" : "creation"}
      </button>
      {live && (
        <button
          data-testid="follow"
          className={s.follow ? "active" : undefined}
          aria-pressed={s.follow}
          title="Keep the newest events in view"
          onClick={() => view.set({ follow: !s.follow, playhead: undefined, window: undefined })}
        >
          follow live
        </button>
      )}
    </div>
  );
}
