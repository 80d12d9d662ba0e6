/**
 * The controller's machinery as a small live diagram: reflector/informer → event handler →
 * workqueue → workers → lister / API, drawn from the machinery state after the current event —
 * the keys waiting in the queue (and those parked while a worker holds them), the key each worker
 * has in flight, the last watch event and the last API call. The parts the narration names are
 * highlighted; the dashed path from the API back to the informer lights up for an echo of our
 * own write.
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
}

const W = 1000;
const H = 270;
const SLOTS = 5;

export function MachineryDiagram({ state, parts, focusKey, workers, self }: Props) {
  const on = (p: NarrationPart) => parts.includes(p);
  const queue = state?.queue ?? [];
  const parked = state?.parked ?? [];
  const workerRows = Array.from({ length: Math.min(workers, 4) }, (_, i) => i + 1);
  const rowH = 150 / Math.max(workerRows.length, 1);
  const watch = state?.lastWatch;
  const write = state?.lastWrite;
  return (
    <svg
      className="machinery"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Controller machinery: informer, event handler, workqueue, workers, lister and API"
      data-testid="machinery"
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
      <Box
        x={10}
        y={50}
        w={165}
        h={110}
        title="reflector / informer"
        active={on("informer")}
        part="informer"
      >
        <text x={20} y={100} className="sub">
          {watch ? `${watch.kind} ${watch.event}` : "watching…"}
        </text>
        <text x={20} y={121} className="sub mono">
          {watch ? watch.name.slice(0, 17) : ""}
        </text>
        <text x={20} y={142} className="sub mono">
          {watch?.rv ? `rv ${watch.rv}`.slice(0, 17) : ""}
        </text>
      </Box>
      <Arrow x1={175} y1={105} x2={205} y2={105} active={on("handler")} />
      <Box
        x={205}
        y={50}
        w={140}
        h={110}
        title="event handler"
        active={on("handler")}
        part="handler"
      >
        <text x={215} y={108} className="sub">
          owner → key
        </text>
        <text x={215} y={130} className="sub">
          queue.Add(key)
        </text>
      </Box>
      <Arrow x1={345} y1={105} x2={375} y2={105} active={on("workqueue")} />
      <Box
        x={375}
        y={20}
        w={270}
        h={200}
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
                x={387}
                y={52 + i * 24}
                width={246}
                height={20}
                rx={3}
                className={`slot ${k ? "filled" : ""} ${k && k === focusKey ? "focus" : ""}`}
              />
              <text x={395} y={67 + i * 24} className="slot-text mono">
                {more ? `+${queue.length - SLOTS + 1} more` : (k ?? "")}
              </text>
            </g>
          );
        })}
        <text x={387} y={187} className="sub">
          parked (re-added while processing):
        </text>
        <text
          x={387}
          y={207}
          className={`sub mono ${parked.includes(focusKey ?? "\u0000") ? "focus-text" : ""}`}
          data-testid="parked"
        >
          {parked.length ? parked.join(", ").slice(0, 34) : "—"}
        </text>
      </Box>
      <Arrow x1={645} y1={105} x2={675} y2={105} active={on("worker")} />
      <Box x={675} y={20} w={150} h={200} title="workers" active={on("worker")} part="worker">
        {workerRows.map((w, i) => {
          const k = state?.workers[w];
          const y = 50 + i * rowH;
          const name = k ? k.split("/").pop()!.slice(0, 16) : "idle";
          const compact = rowH < 44;
          return (
            <g key={w} data-testid={`worker-${w}`}>
              <rect
                x={685}
                y={y}
                width={130}
                height={rowH - 6}
                rx={3}
                className={`slot ${k ? "busy" : ""} ${k && k === focusKey ? "focus" : ""}`}
              />
              {compact ? (
                <text x={692} y={y + rowH / 2 + 2} className="slot-text mono">
                  {`w${w} ${name}`}
                </text>
              ) : (
                <>
                  <text x={692} y={y + 16} className="sub">
                    worker {w}
                  </text>
                  <text x={692} y={y + 34} className="slot-text mono">
                    {name}
                  </text>
                </>
              )}
            </g>
          );
        })}
      </Box>
      <Arrow x1={825} y1={80} x2={855} y2={55} active={on("lister")} />
      <Arrow x1={825} y1={150} x2={855} y2={175} active={on("api")} />
      <Box x={855} y={10} w={135} h={85} title="lister (cache)" active={on("lister")} part="lister">
        <text x={865} y={68} className="sub">
          Get(ns, name)
        </text>
      </Box>
      <Box x={855} y={130} w={135} h={90} title="API write" active={on("api")} part="api">
        <text x={865} y={188} className="sub">
          {write ? write.verb : "—"}
        </text>
        <text
          x={865}
          y={208}
          className={`sub ${write && (write.code ?? 0) >= 400 ? "bad-text" : ""}`}
        >
          {write ? `${write.code ?? ""} ${write.reason ?? ""}`.trim() : ""}
        </text>
      </Box>
      <path
        d={`M 922 220 L 922 255 L 92 255 L 92 162`}
        className={`echo ${self ? "active" : ""}`}
        markerEnd="url(#ws-arrow)"
        fill="none"
      />
      <text x={420} y={250} className={`echo-label ${self ? "active" : ""}`}>
        our own writes come back as watch events (echo)
      </text>
    </svg>
  );
}

function Box(props: {
  x: number;
  y: number;
  w: number;
  h: number;
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
      <rect x={props.x} y={props.y} width={props.w} height={props.h} rx={8} />
      <text x={props.x + 10} y={props.y + 22} className="title">
        {props.title}
      </text>
      {props.children}
    </g>
  );
}

function Arrow(p: { x1: number; y1: number; x2: number; y2: number; active: boolean }) {
  return (
    <line
      x1={p.x1}
      y1={p.y1}
      x2={p.x2}
      y2={p.y2}
      className={`flow ${p.active ? "active" : ""}`}
      markerEnd="url(#ws-arrow)"
    />
  );
}
