/**
 * The pass view: each selected Foo as a sequence diagram — one column per pass, the five stages as
 * rows, the triggers (watch event → enqueue, merged adds stacked) before the pass's own dequeue,
 * read and writes, and an arrow from each write to the watch event that echoed it. The layout is
 * passLayout.ts; this draws it as SVG (few passes per Foo; columns outside the scrolled view are
 * not drawn) and writes only the view store (selection).
 */
import { STAGES } from "@loopscope/trace";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { useSessionVersion, useView } from "../app/hooks.ts";
import type { Glyph } from "./marks.ts";
import { layoutPasses, type PassLayout } from "./passLayout.ts";
import { formatGap, GUTTER } from "./timeScale.ts";
import { usePresenterScale } from "./usePresenterScale.ts";

const COL = 176;
const GAP = 30;
const ROW = 28;
const SLOT = 20;
const HEADER = 62;
/** Up to this many passes per Foo every column is drawn (scrolling then costs nothing). */
const MAX_DRAWN = 200;

interface Geometry {
  col: number;
  gap: number;
  rowY: number[];
  rowH: number[];
  height: number;
}

function geometry(layout: PassLayout, scale: number): Geometry {
  const rowH = layout.stack.map((n) => Math.max(ROW * scale, (n * SLOT + 8) * scale));
  const rowY: number[] = [];
  let y = HEADER * scale;
  for (const h of rowH) {
    rowY.push(y);
    y += h;
  }
  return { col: COL * scale, gap: GAP * scale, rowY, rowH, height: y + 8 };
}

function Glyph({
  g,
  x,
  y,
  r,
  color,
}: {
  g: Glyph;
  x: number;
  y: number;
  r: number;
  color: string;
}) {
  switch (g) {
    case "circle":
      return <circle cx={x} cy={y} r={r} fill={color} />;
    case "square":
      return <rect x={x - r} y={y - r} width={2 * r} height={2 * r} fill={color} />;
    case "diamond":
    case "hollow-diamond":
      return (
        <path
          d={`M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`}
          fill={g === "diamond" ? color : "none"}
          stroke={color}
          strokeWidth={2}
        />
      );
    case "triangle":
      return (
        <path d={`M${x - r + 1} ${y - r}L${x + r} ${y}L${x - r + 1} ${y + r}Z`} fill={color} />
      );
    case "cross":
      return (
        <path
          d={`M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`}
          stroke={color}
          strokeWidth={2.5}
        />
      );
    default:
      return <rect x={x - 1} y={y - r - 2} width={2} height={2 * r + 4} fill={color} />;
  }
}

export function PassView({ session, view }: { session: TraceSession; view: ViewStore }) {
  const version = useSessionVersion(session);
  const state = useView(view);
  const scale = usePresenterScale();
  const keys = state.selectedKeys;
  const wrap = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ left: 0, width: 1200 });
  const layouts = useMemo(
    () => keys.map((k) => layoutPasses(session, k)),
    // The version is what moves when passes change.
    [session, keys, version],
  );

  // Live, following: the newest pass is kept in view (below), as the lanes keep the newest event;
  // a scroll back to earlier passes stops following, as a pan of the lanes does.
  const following = state.follow && session.source.kind === "live" && state.playhead === undefined;
  const followingNow = useRef(following);
  followingNow.current = following;

  useEffect(() => {
    const el = wrap.current!;
    let left = el.scrollLeft;
    const update = () => {
      const back = el.scrollLeft < left && el.scrollLeft < el.scrollWidth - el.clientWidth - 1;
      left = el.scrollLeft;
      if (back && followingNow.current) view.set({ follow: false });
      setViewport({ left: el.scrollLeft, width: el.clientWidth });
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);

  // The selected pass is scrolled into view (while following, the newest pass is).
  const sel = state.selectedPass;
  useEffect(() => {
    const el = wrap.current;
    if (!el || !sel || followingNow.current) return;
    const col = el.querySelector<SVGGElement>(
      `[data-testid="pass-column"][data-key="${CSS.escape(sel.key)}"][data-index="${sel.index}"]`,
    );
    col?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [sel]);

  const r = Math.round(5 * scale);
  const font = 12 * scale;
  const small = 11 * scale;
  const step = (COL + GAP) * scale;
  let top = 0;
  const blocks = layouts.map((layout) => {
    const g = geometry(layout, scale);
    const y0 = top;
    top += g.height + 10;
    return { layout, g, y0 };
  });
  const widest = Math.max(0, ...layouts.map((l) => l.columns.length));
  useLayoutEffect(() => {
    const el = wrap.current;
    if (el && following) el.scrollLeft = el.scrollWidth - el.clientWidth;
  }, [following, widest]);
  const width = GUTTER + widest * step + 16;
  // A long life (a hot loop running on) draws only the columns in view, and one either side.
  const all = widest <= MAX_DRAWN;
  const firstCol = all ? 0 : Math.max(0, Math.floor((viewport.left - GUTTER) / step) - 1);
  const lastCol = all ? widest : Math.ceil((viewport.left + viewport.width - GUTTER) / step) + 1;
  const colX = (c: number) => GUTTER + c * step;
  const markX = (c: number) => colX(c) + 16 * scale;

  return (
    <div
      className="passview"
      ref={wrap}
      data-testid="pass-view"
      style={{ "--timeline-needed": `${top + 8}px` } as React.CSSProperties}
    >
      {keys.length === 0 && (
        <div className="timeline-empty">Select an object on the left to see its passes.</div>
      )}
      <svg width={width} height={top} role="img" aria-label="Passes, one column each">
        <defs>
          <pattern
            id="pv-hatch"
            width={8}
            height={8}
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width={3} height={8} fill="currentColor" />
          </pattern>
          <marker
            id="pv-arrow"
            viewBox="0 0 10 10"
            refX={9}
            refY={5}
            markerWidth={7}
            markerHeight={7}
            orient="auto-start-reverse"
          >
            <path d="M0 0L10 5L0 10Z" fill="currentColor" />
          </marker>
        </defs>
        {blocks.map(({ layout, g, y0 }) => {
          const yOf = (row: number, slot: number) =>
            y0 + g.rowY[row] + (slot + 0.5) * SLOT * scale + 4;
          const seqAt = new Map<number, { c: number; x: number; y: number }>();
          layout.columns.forEach((col, c) =>
            col.marks.forEach((m) => seqAt.set(m.seq, { c, x: markX(c), y: yOf(m.row, m.slot) })),
          );
          return (
            <g key={layout.key} data-testid="pass-block" data-key={layout.key}>
              <rect x={0} y={y0} width={width} height={g.height} className="pv-bg" />
              <StageRows g={g} y0={y0} width={width} />
              {layout.columns.map((col, c) => {
                if (c < firstCol || c > lastCol) return null;
                const x = colX(c);
                const selected = sel?.key === layout.key && sel.index === col.pass.index;
                // The longest label that fits: a merged pass keeps its cause before its number
                // alone ("#2 external" rather than "#2").
                const fits = (text: string) => text.length * font * 0.55 < g.col - 8;
                const label = fits(col.label) ? col.label : fits(col.cause) ? col.cause : col.short;
                return (
                  <g
                    key={col.pass.index}
                    data-testid="pass-column"
                    data-key={layout.key}
                    data-index={col.pass.index}
                    data-number={col.pass.number}
                    data-cause={col.pass.cause}
                    className={selected ? "pv-col selected" : "pv-col"}
                    onClick={() =>
                      view.set({
                        selectedPass: { key: layout.key, index: col.pass.index },
                        selectedSeq: undefined,
                      })
                    }
                  >
                    <rect
                      x={x}
                      y={y0 + HEADER * scale - 4}
                      width={g.col}
                      height={g.height - HEADER * scale + 4}
                      fill={col.style.color}
                      fillOpacity={0.16}
                    />
                    {col.style.hatch && (
                      <rect
                        x={x}
                        y={y0 + HEADER * scale - 4}
                        width={g.col}
                        height={g.height - HEADER * scale + 4}
                        fill="url(#pv-hatch)"
                        style={{ color: col.style.color }}
                        opacity={0.3}
                      />
                    )}
                    <rect
                      x={x}
                      y={y0 + HEADER * scale - 8}
                      width={g.col}
                      height={4}
                      fill={col.style.color}
                    />
                    <text
                      x={x + 4}
                      y={y0 + 34 * scale}
                      fontSize={small}
                      className="pv-label"
                      data-testid="pass-column-label"
                      fill={col.pass.cause === "self" ? col.style.color : undefined}
                    >
                      {label}
                    </text>
                    <text x={x + 4} y={y0 + 49 * scale} fontSize={small} className="pv-time">
                      +{formatGap(col.at)}
                    </text>
                    {c > 0 && col.idle > 0 && (
                      <text
                        x={x - (GAP * scale) / 2}
                        y={y0 + g.height / 2}
                        fontSize={small * 0.9}
                        className="pv-idle"
                        textAnchor="middle"
                        transform={`rotate(-90 ${x - (GAP * scale) / 2} ${y0 + g.height / 2})`}
                      >
                        ⋯ {formatGap(col.idle)} ⋯
                      </text>
                    )}
                    {col.marks.map((m) => {
                      const mx = markX(c);
                      const my = yOf(m.row, m.slot);
                      return (
                        <g
                          key={m.seq}
                          data-seq={m.seq}
                          className={state.selectedSeq === m.seq ? "pv-mark selected" : "pv-mark"}
                          onClick={(e) => {
                            e.stopPropagation();
                            view.set({
                              selectedSeq: m.seq,
                              selectedPass: { key: layout.key, index: col.pass.index },
                            });
                          }}
                        >
                          <Glyph g={m.style.glyph} x={mx} y={my} r={r} color={m.style.color} />
                          {m.style.label && (
                            <text
                              x={mx + r + 5}
                              y={my + 4}
                              fontSize={small}
                              className="pv-mark-label"
                            >
                              {m.style.label}
                            </text>
                          )}
                          <title>{m.style.label || STAGES[m.row]}</title>
                        </g>
                      );
                    })}
                  </g>
                );
              })}
              {layout.arrows.map((a) => {
                if (a.toColumn < firstCol || a.fromColumn > lastCol) return null;
                const from = seqAt.get(a.fromSeq);
                const to = seqAt.get(a.toSeq);
                if (!from || !to) return null;
                // From the write, out to the right and up to the watch event that echoed it.
                const x0 = from.x + r + 2;
                const x1 = to.x - r - 3;
                const mid = (x0 + x1) / 2;
                return (
                  <path
                    key={`${a.fromSeq}-${a.toSeq}`}
                    data-testid="echo-arrow"
                    className="pv-echo"
                    d={`M${x0} ${from.y}C${mid} ${from.y} ${mid} ${to.y} ${x1} ${to.y}`}
                    markerEnd="url(#pv-arrow)"
                  >
                    <title>its own write came back as a watch event: self-triggered</title>
                  </path>
                );
              })}
              {/* The Foo's name and the stage names stay at the left edge as the passes scroll
                  under them (a followed live view is scrolled to its newest pass). */}
              <g transform={`translate(${viewport.left} 0)`} data-testid="pass-gutter">
                <rect x={0} y={y0} width={GUTTER} height={g.height} className="pv-bg" />
                <StageRows g={g} y0={y0} width={GUTTER} font={font} />
                <text x={8} y={y0 + 16 * scale} className="pv-key" fontSize={font}>
                  {layout.key}
                </text>
              </g>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** The five stage rows' bands across `width`, named when given the font to name them in. */
function StageRows({
  g,
  y0,
  width,
  font,
}: {
  g: ReturnType<typeof geometry>;
  y0: number;
  width: number;
  font?: number;
}) {
  return STAGES.map((stage, i) => (
    <g key={stage}>
      <rect
        x={0}
        y={y0 + g.rowY[i]}
        width={width}
        height={g.rowH[i]}
        className={i % 2 ? "pv-row alt" : "pv-row"}
      />
      {font !== undefined && (
        <text x={18} y={y0 + g.rowY[i] + g.rowH[i] / 2 + 4} className="pv-stage" fontSize={font}>
          {stage}
        </text>
      )}
    </g>
  ));
}
