/**
 * The controller's machinery as a small live diagram: reflector/informer → event handler →
 * workqueue → workers → lister / API, drawn from the machinery state after the current event —
 * the keys waiting in the queue (and those parked while a worker holds them), the key each worker
 * has in flight, the last watch event and the last API call. The parts the narration names are
 * highlighted; the dashed path from the API back to the informer lights up for an echo of our
 * own write. Where each box, arrow and the echo path go is a MachineryLayout: one row for the
 * docked panel, two rows for presenter mode's column beside the narration.
 */
import type { MachineryState, NarrationPart } from "@loopscope/trace";

interface Props {
  state: MachineryState | undefined;
  parts: readonly NarrationPart[];
  /** The key the current event is about (emphasised wherever it appears). */
  focusKey: string | undefined;
  workers: number;
  /** The current event is a watch event echoing our own write: the API → informer path lights. */
  self: boolean;
  /** Where the boxes, arrows and the echo path go: ROW_LAYOUT (the default) or COLUMN_LAYOUT. */
  layout?: MachineryLayout;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** A box of text lines: `line` is the first line's baseline, from the box's top. */
interface TextBox extends Rect {
  line: number;
}
type Line = readonly [x1: number, y1: number, x2: number, y2: number];

/**
 * Where each part of the diagram goes; what a box holds (its texts, the queue's slots, the
 * workers' rows) is drawn by the one code below, placed relative to its box.
 */
export interface MachineryLayout {
  name: string;
  w: number;
  h: number;
  /** The SVG's preserveAspectRatio (its default, centred, when absent). */
  align?: string;
  informer: TextBox;
  handler: TextBox;
  workqueue: Rect;
  worker: Rect;
  lister: TextBox;
  api: TextBox;
  /** The arrow into each part. */
  arrows: Record<"handler" | "workqueue" | "worker" | "lister" | "api", Line>;
  /** The dashed path from the API back to the informer (a polyline, its arrowhead at the end). */
  echo: readonly (readonly [number, number])[];
  echoLabel: { x: number; y: number };
}

/** One row, left to right: the docked panel's full width. */
export const ROW_LAYOUT: MachineryLayout = {
  name: "row",
  w: 1000,
  h: 270,
  informer: { x: 10, y: 50, w: 165, h: 110, line: 50 },
  handler: { x: 205, y: 50, w: 140, h: 110, line: 58 },
  workqueue: { x: 375, y: 20, w: 270, h: 200 },
  worker: { x: 675, y: 20, w: 150, h: 200 },
  lister: { x: 855, y: 10, w: 135, h: 85, line: 58 },
  api: { x: 855, y: 130, w: 135, h: 90, line: 58 },
  arrows: {
    handler: [175, 105, 205, 105],
    workqueue: [345, 105, 375, 105],
    worker: [645, 105, 675, 105],
    lister: [825, 80, 855, 55],
    api: [825, 150, 855, 175],
  },
  echo: [
    [922, 220],
    [922, 255],
    [92, 255],
    [92, 162],
  ],
  echoLabel: { x: 420, y: 250 },
};

/**
 * Two rows round a loop, for presenter mode's right-hand column (~640 px wide, where ROW_LAYOUT's
 * 13-unit text was drawn at 8–9 px): informer → event handler → workqueue along the top, the
 * workqueue (both rows high) → workers → API write / lister back along the bottom, and the echo
 * up the left edge from the API to the informer, named between the rows.
 */
export const COLUMN_LAYOUT: MachineryLayout = {
  name: "column",
  w: 660,
  h: 278,
  // Beside the narration, at the top of its column.
  align: "xMidYMin meet",
  informer: { x: 20, y: 8, w: 180, h: 98, line: 46 },
  handler: { x: 218, y: 8, w: 150, h: 98, line: 52 },
  workqueue: { x: 386, y: 36, w: 270, h: 200 },
  worker: { x: 218, y: 134, w: 150, h: 138 },
  api: { x: 20, y: 134, w: 180, h: 74, line: 44 },
  lister: { x: 20, y: 216, w: 180, h: 56, line: 42 },
  arrows: {
    handler: [200, 57, 218, 57],
    workqueue: [368, 57, 386, 57],
    worker: [386, 203, 368, 203],
    api: [218, 171, 200, 171],
    lister: [218, 244, 200, 244],
  },
  echo: [
    [20, 171],
    [7, 171],
    [7, 57],
    [20, 57],
  ],
  echoLabel: { x: 28, y: 124 },
};

const SLOTS = 5;

export function MachineryDiagram({
  state,
  parts,
  focusKey,
  workers,
  self,
  layout: L = ROW_LAYOUT,
}: Props) {
  const on = (p: NarrationPart) => parts.includes(p);
  const queue = state?.queue ?? [];
  const parked = state?.parked ?? [];
  const workerRows = Array.from({ length: Math.min(workers, 4) }, (_, i) => i + 1);
  const rowH = (L.worker.h - 50) / Math.max(workerRows.length, 1);
  const watch = state?.lastWatch;
  const write = state?.lastWrite;
  const { informer, handler, workqueue: wq, worker, lister, api } = L;
  return (
    <svg
      className="machinery"
      viewBox={`0 0 ${L.w} ${L.h}`}
      role="img"
      aria-label="Controller machinery: informer, event handler, workqueue, workers, lister and API"
      data-testid="machinery"
      preserveAspectRatio={L.align}
      data-layout={L.name}
    >
      <defs>
        <marker
          id="ws-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerUnits="userSpaceOnUse"
          markerWidth="12"
          markerHeight="12"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className="arrowhead" />
        </marker>
      </defs>
      <Box at={informer} title="reflector / informer" active={on("informer")} part="informer">
        <text x={informer.x + 10} y={informer.y + informer.line} className="sub">
          {watch ? `${watch.kind} ${watch.event}` : "watching…"}
        </text>
        <text x={informer.x + 10} y={informer.y + informer.line + 21} className="sub mono">
          {watch ? watch.name.slice(0, 17) : ""}
        </text>
        <text x={informer.x + 10} y={informer.y + informer.line + 42} className="sub mono">
          {watch?.rv ? `rv ${watch.rv}`.slice(0, 17) : ""}
        </text>
      </Box>
      <Arrow at={L.arrows.handler} active={on("handler")} />
      <Box at={handler} title="event handler" active={on("handler")} part="handler">
        <text x={handler.x + 10} y={handler.y + handler.line} className="sub">
          owner → key
        </text>
        <text x={handler.x + 10} y={handler.y + handler.line + 22} className="sub">
          queue.Add(key)
        </text>
      </Box>
      <Arrow at={L.arrows.workqueue} active={on("workqueue")} />
      <Box
        at={wq}
        title={`workqueue · ${queue.length} waiting`}
        active={on("workqueue")}
        part="workqueue"
      >
        {Array.from({ length: SLOTS }, (_, i) => {
          const k = queue[i];
          const more = i === SLOTS - 1 && queue.length > SLOTS;
          return (
            <g key={i} data-testid={k ? "queue-slot" : undefined}>
              <rect
                x={wq.x + 12}
                y={wq.y + 32 + i * 24}
                width={wq.w - 24}
                height={20}
                rx={3}
                className={`slot ${k ? "filled" : ""} ${k && k === focusKey ? "focus" : ""}`}
              />
              <text x={wq.x + 20} y={wq.y + 47 + i * 24} className="slot-text mono">
                {more ? `+${queue.length - SLOTS + 1} more` : (k ?? "")}
              </text>
            </g>
          );
        })}
        <text x={wq.x + 12} y={wq.y + 167} className="sub">
          parked (re-added while processing):
        </text>
        <text
          x={wq.x + 12}
          y={wq.y + 187}
          className={`sub mono ${parked.includes(focusKey ?? "\u0000") ? "focus-text" : ""}`}
          data-testid="parked"
        >
          {parkedText(parked, focusKey)}
        </text>
      </Box>
      <Arrow at={L.arrows.worker} active={on("worker")} />
      <Box at={worker} title="workers" active={on("worker")} part="worker">
        {workerRows.map((w, i) => {
          const k = state?.workers[w];
          const y = worker.y + 30 + i * rowH;
          const name = k ? k.split("/").pop()!.slice(0, 16) : "idle";
          const compact = rowH < 44;
          return (
            <g key={w} data-testid={`worker-${w}`}>
              <rect
                x={worker.x + 10}
                y={y}
                width={worker.w - 20}
                height={rowH - 6}
                rx={3}
                className={`slot ${k ? "busy" : ""} ${k && k === focusKey ? "focus" : ""}`}
              />
              {compact ? (
                <text x={worker.x + 17} y={y + rowH / 2 + 2} className="slot-text mono">
                  {`w${w} ${name}`}
                </text>
              ) : (
                <>
                  <text x={worker.x + 17} y={y + 16} className="sub">
                    worker {w}
                  </text>
                  <text x={worker.x + 17} y={y + 34} className="slot-text mono">
                    {name}
                  </text>
                </>
              )}
            </g>
          );
        })}
      </Box>
      <Arrow at={L.arrows.lister} active={on("lister")} />
      <Arrow at={L.arrows.api} active={on("api")} />
      <Box at={lister} title="lister (cache)" active={on("lister")} part="lister">
        <text x={lister.x + 10} y={lister.y + lister.line} className="sub">
          Get(ns, name)
        </text>
      </Box>
      <Box at={api} title="API write" active={on("api")} part="api">
        <text x={api.x + 10} y={api.y + api.line} className="sub">
          {write ? write.verb : "—"}
        </text>
        <text
          x={api.x + 10}
          y={api.y + api.line + 20}
          className={`sub ${write && (write.code ?? 0) >= 400 ? "bad-text" : ""}`}
        >
          {write ? `${write.code ?? ""} ${write.reason ?? ""}`.trim() : ""}
        </text>
      </Box>
      <path
        d={`M ${L.echo.map(([x, y]) => `${x} ${y}`).join(" L ")}`}
        className={`echo ${self ? "active" : ""}`}
        markerEnd="url(#ws-arrow)"
        fill="none"
      />
      <text x={L.echoLabel.x} y={L.echoLabel.y} className={`echo-label ${self ? "active" : ""}`}>
        our own writes come back as watch events (echo)
      </text>
    </svg>
  );
}

function Box(props: {
  at: Rect;
  title: string;
  active: boolean;
  part: NarrationPart;
  children?: React.ReactNode;
}) {
  return (
    <g
      className={`box ${props.active ? "active" : ""}`}
      data-part={props.part}
      data-active={props.active}
    >
      <rect x={props.at.x} y={props.at.y} width={props.at.w} height={props.at.h} rx={8} />
      <text x={props.at.x + 10} y={props.at.y + 22} className="title">
        {props.title}
      </text>
      {props.children}
    </g>
  );
}

function Arrow({ at: [x1, y1, x2, y2], active }: { at: Line; active: boolean }) {
  return (
    <line
      x1={x1}
      y1={y1}
      x2={x2}
      y2={y2}
      className={`flow ${active ? "active" : ""}`}
      markerEnd="url(#ws-arrow)"
    />
  );
}

/** Room in the workqueue box for the parked keys' line, in characters of its monospace text. */
const PARKED_CHARS = 34;

/**
 * The parked keys as whole names, the focused Foo's first, as many as fit, then "+N more" — as
 * the queue's slots do: a line cut after two of four keys said only two were re-added.
 */
export function parkedText(
  parked: readonly string[],
  focusKey: string | undefined,
  max = PARKED_CHARS,
): string {
  if (parked.length === 0) return "—";
  const keys =
    focusKey !== undefined && parked.includes(focusKey)
      ? [focusKey, ...parked.filter((k) => k !== focusKey)]
      : parked;
  const more = (n: number) => (n > 0 ? `, +${n} more` : "");
  let shown = 0;
  let text = "";
  for (const k of keys) {
    const next = text ? `${text}, ${k}` : k;
    if (shown > 0 && (next + more(keys.length - shown - 1)).length > max) break;
    text = next;
    shown++;
  }
  const tail = more(keys.length - shown);
  // One key too long for the line alone: cut it, and say so.
  if ((text + tail).length > max) text = `${text.slice(0, Math.max(4, max - tail.length - 1))}…`;
  return text + tail;
}
