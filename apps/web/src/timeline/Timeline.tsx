/**
 * The timeline view: five lanes per selected Foo on one canvas, d3-zoom for wheel zoom and drag
 * pan. It reads the session and the view store and writes only the view store (window, selection,
 * follow); it never holds trace data.
 */
import { select, zoom, zoomIdentity, type ZoomTransform } from "d3";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { useView, useSessionVersion } from "../app/hooks.ts";
import { THEMES } from "../ui/palette.ts";
import {
  axisHeight,
  drawTimeline,
  emptyGeometry,
  type DrawInput,
  type DrawnGeometry,
} from "./draw.ts";
import { hitTest } from "./hitTest.ts";
import { GROUP_GAP, layoutLanes, totalHeight } from "./layout.ts";
import { PassMirror } from "./PassMirror.tsx";
import { GUTTER, makeTimeAxis } from "./timeScale.ts";
import { sessionFold } from "./sessionFold.ts";
import { usePresenterScale } from "./usePresenterScale.ts";
import { Tooltip } from "./Tooltip.tsx";
import { defaultWindow, followFrom, keysExtent } from "./fit.ts";
import { followWindow } from "./followWindow.ts";
import { setShownAxis } from "./shownAxis.ts";
import { setWindow } from "../app/navigation.ts";
import { maxLaneScroll, scrollToGroup } from "./laneScroll.ts";
import { unseenStages } from "../panels/stageLines.ts";

/**
 * `performance.mark("loopscope:first-paint")` at the first frame that draws a session's events,
 * once per session: the load benchmark (scripts/bench/load.ts) reads it.
 */
const painted = new WeakSet<TraceSession>();
function markFirstPaint(session: TraceSession): void {
  if (painted.has(session) || session.store.length === 0) return;
  painted.add(session);
  performance.mark("loopscope:first-paint");
}

/**
 * The paint probe, for benches that time emit → paint (scripts/bench/live.ts): when the page has
 * defined `window.__loopscopePaint`, every timeline frame calls it right after drawing, with the
 * highest seq that frame drew (0 if none) and the store's last seq. Nothing defines it in normal
 * use, and then a frame costs one property read more.
 */
type PaintProbe = (drawnSeq: number, storeSeq: number) => void;
function reportPaint(session: TraceSession, drawnSeq: number): void {
  const probe = (globalThis as { __loopscopePaint?: PaintProbe }).__loopscopePaint;
  probe?.(drawnSeq, session.store.lastSeq());
}

/** Lane and header heights at type scale 1, px. */
const LANE_PX = 30;
const HEADER_PX = 26;

type GeometryCanvas = HTMLCanvasElement & { __geometry?: DrawnGeometry };

export interface TimelineProps {
  session: TraceSession;
  view: ViewStore;
}

export function Timeline({ session, view }: TimelineProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 800, height: 400 });
  const [scrollY, setScrollY] = useState(0);
  // Where the pointer rests, not what it hit: the hit is found anew on each drawing, so after a
  // wheel zoom (the pointer still) the tooltip names what is under it now, not a pass gone by.
  const [pointerAt, setPointerAt] = useState<{ x: number; y: number } | undefined>();
  const version = useSessionVersion(session);
  const state = useView(view);
  const keys = state.selectedKeys;
  // Lanes take the height they need — bigger type and lanes on a projector — and the page gives
  // the rest to the panels below (the timeline's box is sized to `needed`, see styles.css). When
  // the box is smaller than that (a docked workshop, many Foos), lanes shrink to a floor first.
  const typeScale = usePresenterScale();
  const header = Math.round(HEADER_PX * typeScale);
  const top = axisHeight({ typeScale });
  const n = Math.max(1, keys.length);
  const full = Math.round(LANE_PX * typeScale);
  const fitting = Math.floor((size.height - top - n * (header + GROUP_GAP)) / (5 * n));
  const laneHeight = Math.max(20, Math.min(full, fitting));
  const groups = useMemo(() => layoutLanes(keys, laneHeight, header), [keys, laneHeight, header]);
  const needed = top + n * (header + 5 * full + GROUP_GAP);
  // Never past the end of the lanes shown (a scroll kept from a taller stack of Foos hid them).
  const laneArea = size.height - top;
  const scrolled = Math.min(scrollY, maxLaneScroll(groups, laneArea));
  const window = state.window ?? defaultWindow(session, keys);
  const origin = session.summaryOf(keys[0] ?? "")?.firstTs ?? window[0];
  const until = state.playhead ?? Infinity;
  const inputRef = useRef<DrawInput | undefined>(undefined);
  const geometry = useRef<DrawnGeometry>(emptyGeometry());
  const fold =
    state.timeMode === "folded" ? sessionFold(session, keys, size.width - 8 - GUTTER) : undefined;

  const input: DrawInput = {
    session,
    groups,
    axis: makeTimeAxis(window, origin, size.width, fold),
    width: size.width,
    height: size.height,
    theme: THEMES[typeScale > 1 ? "presenter" : state.theme],
    until,
    selectedSeq: state.selectedSeq,
    selectedPass: state.selectedPass,
    scrollY: scrolled,
    typeScale,
    geometry: geometry.current,
    unseen: unseenStages(session.store),
  };
  inputRef.current = input;
  // The keyboard's zoom and pan go through the axis drawn (app/navigation.ts).
  useEffect(() => setShownAxis(view, input.axis));
  useEffect(() => () => setShownAxis(view, undefined), [view]);

  // Size the canvas to its box (device pixels for crisp text on projectors and HiDPI).
  useEffect(() => {
    const el = wrapRef.current!;
    const ro = new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      setSize({
        width: Math.max(200, Math.floor(r.width)),
        height: Math.max(120, Math.floor(r.height)),
      });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // The Foo just chosen (the last selected: what the objects list moved to, or ctrl-click added)
  // is scrolled into view once, when its lanes are laid out; later scrolling is the user's. The
  // Foos the page opened on (a deep link's stack) start at the top, their first one first.
  const target = keys[keys.length - 1];
  const revealed = useRef<string | undefined>(target);
  useEffect(() => {
    if (target === undefined || revealed.current === target) return;
    const g = groups.find((gr) => gr.key === target);
    if (!g) return;
    revealed.current = target;
    setScrollY((y) => scrollToGroup(g, Math.min(y, maxLaneScroll(groups, laneArea)), laneArea));
  }, [target, groups, laneArea]);

  // Paint on every change, coalesced to one frame. A pending paint is never cancelled by a newer
  // render (that would starve the canvas while playback re-renders every frame); it draws
  // whatever input is current when the frame comes.
  const paintPending = useRef(0);
  useEffect(() => {
    if (paintPending.current) return;
    paintPending.current = requestAnimationFrame(() => {
      paintPending.current = 0;
      const c = canvasRef.current;
      if (!c || !inputRef.current) return;
      const { width, height } = inputRef.current;
      const dpr = globalThis.devicePixelRatio || 1;
      if (c.width !== Math.round(width * dpr)) c.width = Math.round(width * dpr);
      if (c.height !== Math.round(height * dpr)) c.height = Math.round(height * dpr);
      const ctx = c.getContext("2d")!;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const drawnSeq = drawTimeline(ctx, inputRef.current);
      // What the frame drew, for the e2e checks and the screenshot script (see DrawnGeometry).
      (c as GeometryCanvas).__geometry = inputRef.current.geometry;
      markFirstPaint(inputRef.current.session);
      reportPaint(inputRef.current.session, drawnSeq);
    });
  });
  useEffect(
    () => () => {
      cancelAnimationFrame(paintPending.current);
      paintPending.current = 0;
    },
    [],
  );

  // Live: keep the right edge on the selected Foos' newest event while following (see
  // followWindow). Until the user zooms, the window is the selection's default one (a new Foo's
  // creation, growing with it) moved along: a Foo just created shows its passes across the width,
  // not squeezed into the edge of a window seconds wide; in folded time the window grows from
  // the creation instead, as idle time takes no width there. After a zoom, that zoom moves along.
  const followedKeys = useRef(keys);
  const followed = useRef<[number, number] | undefined>(undefined);
  const zoomed = useRef(false);
  useEffect(() => {
    if (!state.follow || session.source.kind !== "live" || state.playhead !== undefined) return;
    const fresh = followedKeys.current !== keys;
    followedKeys.current = keys;
    const current = view.get().window;
    // A window this effect did not set is the user's (a zoom or pan that kept following).
    if (fresh || current === undefined) zoomed.current = false;
    else if (current !== followed.current) zoomed.current = true;
    const start = keys.length > 0 ? defaultWindow(session, keys) : undefined;
    const w = followWindow(
      keysExtent(session, keys) ?? session.store.timeExtent(),
      zoomed.current ? current : undefined,
      !session.progress.done,
      start,
      start && state.timeMode === "folded" ? followFrom(session, keys, start[0]) : undefined,
    );
    if (!w || (current && w[0] === current[0] && w[1] === current[1])) return;
    followed.current = w;
    view.set({ window: w });
  }, [version, state.follow, session, view, state.playhead, keys, state.timeMode]);

  // d3-zoom: the view store's window is the truth; each zoom event is applied as a relative
  // change to it, so fit/follow/deep links never fight the behaviour's own transform.
  useEffect(() => {
    const c = canvasRef.current!;
    let prev: ZoomTransform = zoomIdentity;
    const behaviour = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1e-6, 1e9])
      .filter((ev: Event) => {
        if (ev instanceof WheelEvent && ev.shiftKey) return false;
        return !(ev instanceof MouseEvent && ev.button !== 0 && ev.type !== "wheel");
      })
      .on("zoom", (ev: { transform: ZoomTransform; sourceEvent: Event | null }) => {
        const t = ev.transform;
        const r = { k: t.k / prev.k, x: t.x - prev.x * (t.k / prev.k) };
        prev = t;
        if (!ev.sourceEvent || !inputRef.current) return;
        const { axis, width } = inputRef.current;
        const a = axis.invert((axis.range[0] - r.x) / r.k);
        const b = axis.invert((width - 8 - r.x) / r.k);
        setWindow(session, view, [a, b]);
      });
    select(c).call(behaviour).on("dblclick.zoom", null);
    const onWheel = (ev: WheelEvent) => {
      if (!ev.shiftKey) return;
      ev.preventDefault();
      setScrollY((y) => {
        const max = maxLaneScroll(
          inputRef.current?.groups ?? [],
          c.clientHeight - axisHeight(inputRef.current ?? {}),
        );
        return Math.min(max, Math.max(0, Math.min(y, max) + ev.deltaY));
      });
    };
    c.addEventListener("wheel", onWheel, { passive: false });
    return () => {
      select(c).on(".zoom", null);
      c.removeEventListener("wheel", onWheel);
    };
  }, [session, view]);

  const pointer = (ev: React.MouseEvent) => {
    const r = canvasRef.current!.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  const downAt = useRef<{ x: number; y: number } | undefined>(undefined);

  const onClick = (ev: React.MouseEvent) => {
    const p = pointer(ev);
    const d = downAt.current;
    if (d && Math.hypot(d.x - p.x, d.y - p.y) > 4) return; // a drag (pan), not a click
    const hit = hitTest(input, p.x, p.y);
    if (!hit) return;
    if (hit.kind === "event") {
      const pass = session
        .passesOf(hit.key)
        .find((ps) => ps.dequeueSeq === hit.seq || ps.endSeq === hit.seq);
      view.set({
        selectedSeq: hit.seq,
        ...(pass ? { selectedPass: { key: pass.key, index: pass.index } } : {}),
      });
    } else if (hit.kind === "pass") {
      view.set({ selectedPass: { key: hit.key, index: hit.index }, selectedSeq: undefined });
    }
  };

  const overflow = top + totalHeight(groups) > size.height + 1;
  const pointed = pointerAt && hitTest(input, pointerAt.x, pointerAt.y);
  const hover = pointed && pointed.kind !== "group" ? { hit: pointed, ...pointerAt } : undefined;

  return (
    <div
      className="timeline"
      ref={wrapRef}
      data-testid="timeline"
      data-version={version}
      data-window={`${window[0]} ${window[1]}`}
      data-origin={origin}
      data-time={state.timeMode}
      data-scroll={scrolled}
      style={{ "--timeline-needed": `${needed}px` } as React.CSSProperties}
    >
      <canvas
        ref={canvasRef}
        style={{ width: size.width, height: size.height }}
        aria-label="Timeline: watch, enqueue, dequeue, read and write lanes for the selected objects"
        role="img"
        onMouseDown={(ev) => (downAt.current = pointer(ev))}
        onClick={onClick}
        onMouseMove={(ev) => setPointerAt(pointer(ev))}
        onMouseLeave={() => setPointerAt(undefined)}
      />
      {keys.length === 0 && (
        <div className="timeline-empty" data-testid="timeline-empty">
          {session.store.keyList().length > 0
            ? "Select an object on the left to see its five lanes."
            : session.source.kind === "live"
              ? "No Foos yet: the lanes appear when the controller sees one."
              : session.source.kind === "none"
                ? "Open a trace to see its Foos' five lanes."
                : session.progress.done
                  ? "No Foo events in this trace."
                  : "Reading the trace…"}
        </div>
      )}
      {overflow && <div className="timeline-hint">shift + wheel scrolls the lanes</div>}
      {hover && <Tooltip session={session} hit={hover.hit} x={hover.x} y={hover.y} />}
      {/* Text mirror of what the canvas shows, for screen readers and tests. */}
      <PassMirror session={session} view={view} keys={keys} version={version} />
    </div>
  );
}
