/**
 * Navigation commands shared by buttons and keyboard: fit, step to the next/previous event of the
 * selected Foo(s) or to its next/previous pass, play/pause. They read the session and write the
 * view store only.
 */
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { creationWindow, defaultWindow, fitWindow, windowShowing } from "../timeline/fit.ts";
import { shownAxis } from "../timeline/shownAxis.ts";
import { GUTTER, makeTimeAxis, type TimeAxis } from "../timeline/timeScale.ts";
import { limitWindow, pannedWindow, zoomedWindow } from "../timeline/zoomWindow.ts";

export function fit(session: TraceSession, view: ViewStore): void {
  view.set((s) => ({ window: fitWindow(session, s.selectedKeys), follow: false }));
}

/** Zoom to the selected Foo's creation: first event until it was first quiescent. */
export function fitCreation(session: TraceSession, view: ViewStore): void {
  view.set((s) => ({
    window: creationWindow(session, s.selectedKeys) ?? fitWindow(session, s.selectedKeys),
    follow: false,
  }));
}

/** Row of the next (dir 1) or previous (dir −1) stage event of the selected keys, by time. */
export function stepTarget(
  session: TraceSession,
  keys: readonly string[],
  fromTs: number,
  fromSeq: number,
  dir: 1 | -1,
): number {
  const store = session.store;
  let best = -1;
  let bestTs = dir > 0 ? Infinity : -Infinity;
  let bestSeq = 0;
  for (const k of keys) {
    const rows = store.rowsOf(k);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (store.stage.data[r] > 4) continue;
      const t = store.ts.data[r];
      const q = store.seq.data[r];
      // order by (ts, seq): strictly after/before the current (ts, seq)
      const after = t > fromTs || (t === fromTs && q > fromSeq);
      const before = t < fromTs || (t === fromTs && q < fromSeq);
      if (dir > 0 ? !after : !before) continue;
      const better =
        dir > 0
          ? t < bestTs || (t === bestTs && q < bestSeq)
          : t > bestTs || (t === bestTs && q > bestSeq);
      if (better) {
        best = r;
        bestTs = t;
        bestSeq = q;
      }
    }
  }
  return best;
}

/**
 * Selects the next (dir 1) or previous (dir −1) stage event of the selected Foo(s), from the
 * selected event — or, with a pass selected instead, from that pass: → its first event, ← the
 * one before it — else from the playhead. The event becomes the one selection (the details panel
 * shows one thing at a time).
 */
export function step(session: TraceSession, view: ViewStore, dir: 1 | -1): void {
  const s = view.get();
  const store = session.store;
  const cur = s.selectedSeq !== undefined ? store.rowOfSeq(s.selectedSeq) : -1;
  const pass =
    cur < 0 && s.selectedPass
      ? session.passesOf(s.selectedPass.key)[s.selectedPass.index]
      : undefined;
  const keys =
    pass && !s.selectedKeys.includes(pass.key)
      ? [pass.key]
      : s.selectedKeys.length
        ? s.selectedKeys
        : session.store.keyList().slice(0, 1);
  let fromTs: number;
  let fromSeq: number;
  if (cur >= 0) {
    fromTs = store.ts.get(cur);
    fromSeq = store.seq.get(cur);
  } else if (pass) {
    // The pass's first event: its dequeue, or its end line when the log has no dequeue lines.
    const first = pass.dequeueSeq ?? pass.endSeq;
    const row = first !== undefined ? store.rowOfSeq(first) : -1;
    fromTs = row >= 0 ? store.ts.get(row) : pass.start;
    if (row >= 0) fromSeq = dir > 0 ? store.seq.get(row) - 1 : store.seq.get(row);
    else fromSeq = dir > 0 ? -1 : Infinity;
  } else if (s.playhead !== undefined) {
    fromTs = s.playhead;
    fromSeq = dir > 0 ? -1 : Infinity;
  } else {
    // Nothing chosen yet: from the edge of what the timeline shows — a Foo created again shows
    // its latest life, and the first step is that life's first event, not the earlier one's.
    const shown = s.window ?? defaultWindow(session, keys);
    fromTs = dir > 0 ? shown[0] : shown[1];
    fromSeq = dir > 0 ? -1 : Infinity;
  }
  let row = stepTarget(session, keys, fromTs, fromSeq, dir);
  // Nothing past the edge of the window (it lies after the keys' events): from their beginning.
  if (row < 0 && cur < 0 && !pass && s.playhead === undefined)
    row = stepTarget(session, keys, dir > 0 ? -Infinity : Infinity, dir > 0 ? -1 : Infinity, dir);
  if (row < 0) return;
  const ts = store.ts.get(row);
  const window = windowShowing(session, keys, s.window, ts);
  view.set({
    selectedKeys: keys,
    selectedSeq: store.seq.get(row),
    selectedPass: undefined,
    playing: false,
    // The playhead goes where the step went, back as well as forward: the lanes show what came
    // up to the selected event, as in the workshop's step-through.
    playhead: s.playhead !== undefined || session.source.kind === "replay" ? ts : undefined,
    window,
    follow: false,
  });
}

/**
 * Selects the next (dir 1) or previous (dir −1) pass of the selected Foo — after the selected
 * pass, else after the selected event or the playhead — and brings it into the window (and the
 * playhead past it): what a click on a pass does, from the keyboard.
 */
export function stepPass(session: TraceSession, view: ViewStore, dir: 1 | -1): void {
  const s = view.get();
  const key = s.selectedPass?.key ?? s.selectedKeys[0] ?? session.store.keyList()[0];
  if (key === undefined) return;
  const passes = session.passesOf(key);
  let at: number;
  if (s.selectedPass?.key === key) {
    at = s.selectedPass.index + dir;
  } else {
    const store = session.store;
    const row = s.selectedSeq !== undefined ? store.rowOfSeq(s.selectedSeq) : -1;
    const from = row >= 0 ? store.ts.get(row) : s.playhead;
    if (from === undefined) at = dir > 0 ? 0 : passes.length - 1;
    else if (dir > 0) at = passes.findIndex((p) => p.start > from);
    else at = passes.findLastIndex((p) => p.start < from);
  }
  const p = passes[at];
  if (p === undefined) return;
  // A pass past the playhead is not drawn (only its causal arrows were, across empty lanes): the
  // playhead goes on to its end. One already drawn leaves the playhead where it is.
  const end = p.end ?? session.store.timeExtent()?.[1] ?? p.start;
  const playhead = s.playhead !== undefined && s.playhead < end ? end : s.playhead;
  view.set({
    selectedKeys: s.selectedKeys.includes(key) ? s.selectedKeys : [key],
    selectedPass: { key, index: p.index },
    selectedSeq: undefined,
    playing: false,
    playhead,
    window: windowShowing(session, [key], s.window, p.start),
    follow: false,
  });
}

export function togglePlay(session: TraceSession, view: ViewStore): void {
  const s = view.get();
  const ext = session.store.timeExtent();
  if (!ext) return;
  if (s.playing) return view.set({ playing: false });
  const w = s.window;
  // Restart from the window's left edge when at the end (or never played).
  const start =
    s.playhead === undefined || s.playhead >= ext[1]
      ? w
        ? Math.max(ext[0], w[0])
        : ext[0]
      : s.playhead;
  view.set({ playing: true, playhead: start, follow: false });
}

/** How much one zoom key narrows (or widens) the window: about two wheel notches. */
export const ZOOM_STEP = 1.5;
/** How far one pan key moves the window: a fifth of its width. */
export const PAN_STEP = 0.2;

/**
 * The axis the lanes show, or — with none drawn (the pass view) — a linear one over the window,
 * so the keys still move the window the lanes will show.
 */
function axisOf(session: TraceSession, view: ViewStore): TimeAxis {
  const s = view.get();
  return (
    shownAxis(view) ??
    makeTimeAxis(s.window ?? defaultWindow(session, s.selectedKeys), 0, GUTTER + 1008)
  );
}

/** What a zoom key keeps in place: the selected event, else the selected pass, else the playhead. */
function zoomAnchor(session: TraceSession, view: ViewStore): number | undefined {
  const s = view.get();
  const row = s.selectedSeq !== undefined ? session.store.rowOfSeq(s.selectedSeq) : -1;
  if (row >= 0) return session.store.ts.get(row);
  const pass = s.selectedPass && session.passesOf(s.selectedPass.key)[s.selectedPass.index];
  if (pass) return (pass.start + (pass.end ?? pass.start)) / 2;
  return s.playhead;
}

/**
 * A window the user chose by zooming or panning — keys or the wheel and drag (Timeline): no wider
 * than the whole trace's fit allows (limitWindow, through the fold the lanes draw); following a
 * live run goes on only while it shows the newest event.
 */
export function setWindow(session: TraceSession, view: ViewStore, chosen: [number, number]): void {
  if (!(chosen[1] > chosen[0])) return;
  const w = limitWindow(chosen, fitWindow(session, []), shownAxis(view)?.fold);
  const ext = session.store.timeExtent();
  view.set((s) => ({ window: w, follow: s.follow && (!ext || w[1] >= ext[1]) }));
}

/**
 * Zooms the lanes in (dir 1) or out (dir −1) by a step, about the selected event, pass or
 * playhead when it is in view, else about the centre: the wheel's zoom, from the keyboard.
 */
export function zoom(session: TraceSession, view: ViewStore, dir: 1 | -1): void {
  const factor = dir > 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
  setWindow(session, view, zoomedWindow(axisOf(session, view), factor, zoomAnchor(session, view)));
}

/** Pans the lanes later (dir 1) or earlier (dir −1) by a step: a drag, from the keyboard. */
export function pan(session: TraceSession, view: ViewStore, dir: 1 | -1): void {
  setWindow(session, view, pannedWindow(axisOf(session, view), dir * PAN_STEP));
}
