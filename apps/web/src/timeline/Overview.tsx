/**
 * The overview strip: event density of the whole trace (selected Foos highlighted) with a d3 brush
 * showing, and setting, the timeline's window. It uses the timeline's time axis (timeScale.ts) —
 * in folded time, the same fold — so the brush covers what the lanes show.
 */
import { brushX, select, type BrushBehavior } from "d3";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { useSessionVersion, useView } from "../app/hooks.ts";
import { defaultWindow } from "./fit.ts";
import { sessionFold } from "./sessionFold.ts";
import { binEdges, binOf } from "./densityBins.ts";
import { GUTTER, makeTimeAxis } from "./timeScale.ts";

const HEIGHT = 44;
const BINS = 240;

export function Overview({ session, view }: { session: TraceSession; view: ViewStore }) {
  const ref = useRef<SVGSVGElement>(null);
  const brushRef = useRef<BrushBehavior<unknown> | undefined>(undefined);
  const [width, setWidth] = useState(800);
  const version = useSessionVersion(session, 250);
  const state = useView(view);
  const ext = session.store.timeExtent();
  const window = state.window ?? defaultWindow(session, state.selectedKeys);

  useEffect(() => {
    const el = ref.current!;
    const ro = new ResizeObserver(() =>
      setWidth(Math.max(200, Math.floor(el.getBoundingClientRect().width))),
    );
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const folded = state.timeMode === "folded";
  const axis = useMemo(() => {
    const fold = folded ? sessionFold(session, state.selectedKeys, width - 8 - GUTTER) : undefined;
    const a = makeTimeAxis(ext ? [ext[0], ext[1] + 1] : [0, 1], 0, width, fold);
    const [r0, r1] = a.range;
    const x = (us: number) => Math.min(r1, Math.max(r0, a.x(us)));
    return { x, invert: a.invert, range: a.range };
  }, [ext?.[0], ext?.[1], width, folded, version, state.selectedKeys]);

  const bins = useMemo(() => {
    const all = new Uint32Array(BINS);
    const sel = new Uint32Array(BINS);
    if (!ext) return { all, sel, max: 1 };
    const ts = session.store.ts.data;
    const n = session.store.length;
    const edges = binEdges(axis, BINS);
    for (let i = 0; i < n; i++) all[binOf(edges, ts[i])]++;
    for (const k of state.selectedKeys) {
      const rows = session.store.rowsOf(k);
      for (let i = 0; i < rows.length; i++) sel[binOf(edges, ts[rows[i]])]++;
    }
    let max = 1;
    for (const v of all) max = Math.max(max, v);
    return { all, sel, max };
  }, [version, state.selectedKeys, axis]);

  useEffect(() => {
    const b = brushX<unknown>()
      .extent([
        [GUTTER, 0],
        [width - 8, HEIGHT],
      ])
      .on("brush end", (ev: { selection: [number, number] | null; sourceEvent: Event | null }) => {
        if (!ev.sourceEvent || !ev.selection) return;
        const [a, c] = ev.selection;
        if (c - a < 2) return;
        view.set({ window: [axis.invert(a), axis.invert(c)], follow: false });
      });
    brushRef.current = b;
    const g = select(ref.current!).select<SVGGElement>("g.brush");
    g.call(b);
    return () => void g.on(".brush", null);
  }, [axis, width, view]);

  useEffect(() => {
    const b = brushRef.current;
    if (!b || !ext) return;
    const g = select(ref.current!).select<SVGGElement>("g.brush");
    const a = axis.x(window[0]);
    const c = axis.x(window[1]);
    b.move(g, c - a >= 1 ? [a, c] : null);
  });

  const bw = (width - 8 - GUTTER) / BINS;
  const playX = state.playhead !== undefined ? axis.x(state.playhead) : undefined;
  return (
    <svg
      ref={ref}
      className="overview"
      height={HEIGHT}
      data-testid="overview"
      aria-label="Overview: drag to choose the time window"
    >
      <text x={8} y={HEIGHT / 2 + 4} className="overview-label">
        overview
      </text>
      {Array.from(bins.all, (v, i) =>
        v === 0 ? null : (
          <rect
            key={i}
            x={GUTTER + i * bw}
            width={Math.max(1, bw - 0.5)}
            y={HEIGHT - (v / bins.max) * (HEIGHT - 6)}
            height={(v / bins.max) * (HEIGHT - 6)}
            className="bin-all"
          />
        ),
      )}
      {Array.from(bins.sel, (v, i) =>
        v === 0 ? null : (
          <rect
            key={`s${i}`}
            x={GUTTER + i * bw}
            width={Math.max(1, bw - 0.5)}
            y={HEIGHT - (v / bins.max) * (HEIGHT - 6)}
            height={(v / bins.max) * (HEIGHT - 6)}
            className="bin-sel"
          />
        ),
      )}
      {playX !== undefined && (
        <rect x={playX - 1} width={2} y={0} height={HEIGHT} className="playhead" />
      )}
      <g className="brush" />
    </svg>
  );
}
