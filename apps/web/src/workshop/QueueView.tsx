/**
 * Queue view: d3 charts of the workqueue — depth over time, each key's backoff steps after failed
 * passes, and per pass the time waiting in the queue against the time a worker spent on it.
 */
import { line, curveStepAfter, scaleLinear, scaleLog, type ScaleLinear } from "d3";
import { causeStyle } from "../ui/palette.ts";
import type { TraceSession } from "../store/session.ts";
import { countTicks } from "./countTicks.ts";
import { msTicks } from "./msTicks.ts";
import { queueModel, waitAndWork, type PassTiming } from "./queueModel.ts";
import type { WorkshopData } from "./workshopData.ts";

const WIDTH = 460;
const M = { l: 44, r: 12, t: 16, b: 26 };

export function QueueView({
  session,
  data,
  focusKey,
}: {
  session: TraceSession;
  data: WorkshopData;
  focusKey: string | undefined;
}) {
  // Every Foo's passes (a burst is about them all); the focused Foo's are outlined.
  const keys = session.store.keyList().slice(0, 50);
  if (focusKey && !keys.includes(focusKey)) keys.push(focusKey);
  // From the focused Foo's latest life on: a live session's earlier scenarios are other stories.
  const from = focusKey ? session.summaryOf(focusKey)?.firstTs : undefined;
  const events = from !== undefined ? data.events.filter((e) => e.ts >= from) : data.events;
  const m = queueModel(events, (k) => session.passesOf(k), keys);
  const x = scaleLinear()
    .domain([0, m.tEnd])
    .range([M.l, WIDTH - M.r]);
  return (
    <div className="queue-view" data-testid="queue-view">
      <Chart title="Queue depth (keys waiting)" height={150}>
        {(h) => {
          const maxLen = Math.max(1, ...m.depth.map((d) => d.len));
          const y = scaleLinear()
            .domain([0, maxLen])
            .nice()
            .range([h - M.b, M.t]);
          const path = line<{ t: number; len: number }>()
            .x((d) => x(d.t))
            .y((d) => y(d.len))
            .curve(curveStepAfter)(m.depth);
          return (
            <>
              <Axes x={x} y={y} h={h} yLabel="keys" counts />
              {path && <path d={path} className="depth-line" data-testid="depth-line" />}
              <text x={WIDTH - M.r} y={M.t + 10} className="chart-note" textAnchor="end">
                max {maxLen}
              </text>
            </>
          );
        }}
      </Chart>
      <Chart title="Backoff after failed passes (delay per retry)" height={150}>
        {(h) => {
          const all = [...m.backoff.values()].flat();
          if (all.length === 0)
            return (
              <text x={WIDTH / 2} y={h / 2} textAnchor="middle" className="chart-note">
                no failed passes: no backoff
              </text>
            );
          const maxD = Math.max(10, ...all.map((s) => s.delayMs));
          const y = scaleLog()
            .domain([1, maxD * 1.5])
            .range([h - M.b, M.t]);
          // A key's series ends at each synced pass, so neighbouring dots may be two series'.
          const labelled = placedLabels(
            all,
            (s) => ({ x: x(s.t), y: y(s.delayMs), text: `${s.delayMs} ms`, value: s.delayMs }),
            // Left of the plot are the axis's values.
            { left: M.l, right: WIDTH },
          );
          return (
            <>
              <Axes x={x} y={y} h={h} yLabel="ms" log />
              {[...m.backoff.entries()].map(([k, steps]) => {
                return (
                  <g key={k} data-testid="backoff-series">
                    <path
                      d={
                        line<{ t: number; delayMs: number }>()
                          .x((s) => x(s.t))
                          .y((s) => y(s.delayMs))
                          .curve(curveStepAfter)(steps) ?? ""
                      }
                      className="backoff-line"
                    />
                    {steps.map((s) => {
                      const label = labelled.get(s);
                      return (
                        <g key={s.t}>
                          <circle cx={x(s.t)} cy={y(s.delayMs)} r={DOT_R} className="backoff-dot">
                            <title>{`${s.delayMs} ms`}</title>
                          </circle>
                          {label && (
                            <text
                              x={label.x}
                              y={label.y}
                              textAnchor={label.anchor}
                              className="chart-note"
                            >
                              {s.delayMs} ms
                            </text>
                          )}
                        </g>
                      );
                    })}
                  </g>
                );
              })}
            </>
          );
        }}
      </Chart>
      <Chart
        title={`Waiting in the queue vs working — ${waitWorkTotals(m.passes, focusKey)}`}
        height={Math.max(136, 44 + m.passes.length * 12 + M.b)}
      >
        {(full) => {
          const h = full - 16; // room for the legend under the axis
          const band = (h - M.t - M.b) / Math.max(1, m.passes.length);
          return (
            <>
              <Axes x={x} h={h} />
              {m.passes.map((p, i) => {
                const yy = M.t + i * band;
                const style = causeStyle(p.cause);
                return (
                  <g
                    key={`${p.key}#${p.index}`}
                    data-testid="pass-timing"
                    className={p.key === focusKey ? "focus-pass" : undefined}
                  >
                    <title>{`${p.key} pass ${p.number} (${style.label}): waited ${fmt(p.start - p.queuedAt)}, worked ${fmt(p.end - p.start)}`}</title>
                    <rect
                      x={x(p.queuedAt)}
                      y={yy}
                      width={Math.max(1, x(p.start) - x(p.queuedAt))}
                      height={Math.max(2, band - 2)}
                      className="wait-bar"
                    />
                    <rect
                      x={x(p.start)}
                      y={yy}
                      width={Math.max(2, x(p.end) - x(p.start))}
                      height={Math.max(2, band - 2)}
                      fill={style.color}
                    />
                  </g>
                );
              })}
              <g className="legend-inline">
                <rect x={M.l} y={full - 12} width={10} height={8} className="wait-bar" />
                <text x={M.l + 14} y={full - 4} className="chart-note">
                  waiting
                </text>
                <rect
                  x={M.l + 70}
                  y={full - 12}
                  width={10}
                  height={8}
                  fill={causeStyle("external").color}
                />
                <text x={M.l + 84} y={full - 4} className="chart-note">
                  working (colour = cause)
                </text>
              </g>
            </>
          );
        }}
      </Chart>
    </div>
  );
}

/**
 * A chart note's size in the chart's units (11 px sans-serif: digits, a space and "ms" measure
 * about 7 each in the fonts a page falls back to), and its box around the baseline.
 */
const NOTE_CHAR = 7;
const NOTE_ASCENT = 11;
const NOTE_DESCENT = 3;
/** A dot's radius, and the gap kept between a note and its dot. */
const DOT_R = 4;
const GAP = 5;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where a point's label goes: its start, its anchor, its baseline. */
interface LabelPlace {
  x: number;
  y: number;
  anchor: "start" | "end";
}

/**
 * Labels for the points that have room, by value, largest first (where the backoff got to is
 * what a doubling delay is read for): above and right of the dot, or above and left where the
 * chart ends, and only where the note covers no other note and no dot. Retries a few ms apart
 * wrote "5 ms5 ms5ms" over each other, and over their neighbours' dots; every dot stays, its
 * value in its tooltip.
 */
function placedLabels<T>(
  points: readonly T[],
  at: (p: T) => { x: number; y: number; text: string; value: number },
  bounds: { left: number; right: number },
): Map<T, LabelPlace> {
  const dots: Box[] = points.map((p) => {
    const { x, y } = at(p);
    return { left: x - DOT_R, right: x + DOT_R, top: y - DOT_R, bottom: y + DOT_R };
  });
  const placed = new Map<T, LabelPlace>();
  const taken: Box[] = [];
  const meets = (a: Box, b: Box) =>
    a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;
  const order = points.map((p, i) => ({ p, i })).sort((a, b) => at(b.p).value - at(a.p).value);
  for (const { p, i } of order) {
    const { x, y, text } = at(p);
    const width = text.length * NOTE_CHAR;
    const baseline = y - DOT_R - 2;
    const top = baseline - NOTE_ASCENT;
    const bottom = baseline + NOTE_DESCENT;
    const tries: [LabelPlace, Box][] = [
      [
        { x: x + GAP, y: baseline, anchor: "start" },
        { left: x + GAP, right: x + GAP + width, top, bottom },
      ],
      [
        { x: x - GAP, y: baseline, anchor: "end" },
        { left: x - GAP - width, right: x - GAP, top, bottom },
      ],
    ];
    const fits = tries.find(
      ([, box]) =>
        box.left >= bounds.left &&
        box.right <= bounds.right &&
        !taken.some((t) => meets(t, box)) &&
        !dots.some((d, j) => j !== i && meets(d, box)),
    );
    if (fits) {
      placed.set(p, fits[0]);
      taken.push(fits[1]);
    }
  }
  return placed;
}

/**
 * "X waiting, Y working" — of every Foo's passes drawn, and of the focused Foo's apart when there
 * are others: a burst's sum under one Foo's name read as that Foo's.
 */
function waitWorkTotals(passes: readonly PassTiming[], focusKey: string | undefined): string {
  const said = (ps: readonly PassTiming[]) => {
    const { waitMs, workMs } = waitAndWork(ps);
    return `${fmt(waitMs)} waiting, ${fmt(workMs)} working`;
  };
  const foos = new Set(passes.map((p) => p.key)).size;
  if (foos <= 1 || !focusKey) return said(passes);
  const mine = passes.filter((p) => p.key === focusKey);
  return `all ${foos} Foos: ${said(passes)}; ${focusKey} (outlined): ${said(mine)}`;
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
}

function Chart({
  title,
  height,
  children,
}: {
  title: string;
  height: number;
  children: (h: number) => React.ReactNode;
}) {
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={title}>
        {children(height)}
      </svg>
    </figure>
  );
}

function Axes({
  x,
  y,
  h,
  yLabel,
  log,
  counts,
}: {
  x: ScaleLinear<number, number>;
  y?: { (v: number): number; ticks(n?: number): number[] };
  h: number;
  yLabel?: string;
  log?: boolean;
  /** The axis counts things: whole-number ticks only. */
  counts?: boolean;
}) {
  const base = h - M.b;
  return (
    <g className="axes">
      <line x1={M.l} x2={WIDTH - M.r} y1={base} y2={base} />
      {msTicks(x, 5).map(({ ms, label }) => (
        <g key={ms}>
          <line x1={x(ms)} x2={x(ms)} y1={base} y2={base + 4} />
          <text x={x(ms)} y={base + 16} textAnchor="middle">
            {label}
          </text>
        </g>
      ))}
      {y && (
        <>
          <line x1={M.l} x2={M.l} y1={M.t} y2={base} />
          {(log
            ? y.ticks(3).filter((t) => [1, 10, 100, 1000, 10000].includes(t))
            : counts
              ? countTicks(y, 3)
              : y.ticks(3)
          ).map((t) => (
            <text key={t} x={M.l - 6} y={y(t) + 4} textAnchor="end">
              {t}
            </text>
          ))}
          {/* Its unit above the axis, in the margin: inside, a value at the top ran through it. */}
          {yLabel && (
            <text x={M.l + 4} y={M.t - 5} className="chart-note" data-testid="y-unit">
              {yLabel}
            </text>
          )}
        </>
      )}
    </g>
  );
}
