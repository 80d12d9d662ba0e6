/**
 * The klog log shapes a reader meets in the wild, each rendered from the same generated events
 * (scenario.ts), so that the parse bench's matrix and the golden tests compare readers on equal
 * work:
 *
 *   canonical   docs/stages.md §4, every optional field the event has (klog-line.ts)
 *   ts          our TypeScript controller's lines (packages/controller's probe), its "Event occurred"
 *   go          the Go controller patched with scripts/sample-controller/stage-lines.patch:
 *               `reason=` (empty on success), no `code=`/`changed=`/`worker=`, and its noise
 *   reordered   canonical names, but the fields of each line shuffled and optional ones dropped
 *   learner     other spellings (object=, resourceVersion=, queue_len=, workerID=, statusCode=),
 *               some values quoted, and on some lines a field of their own (`attempt=2`)
 *   structured  klog structured calls: `"STAGE" stage="read" key="ns/name" rv="1001"`
 *   unpatched   an unpatched Go controller: only "Successfully synced" / "Error syncing" lines
 *               among its noise
 *   kubectl     the go shape as `kubectl logs --timestamps` prints it: an RFC 3339 time before
 *               each line's klog header
 */
import type { TraceEvent } from "../../packages/trace/src/index.ts";
import { stageLine } from "../../packages/controller/src/probe/klog.ts";
import { klogHeader, klogLine } from "./klog-line.ts";
import { rng } from "./scenario.ts";

export const LOG_SHAPES = [
  "canonical",
  "ts",
  "go",
  "reordered",
  "learner",
  "structured",
  "unpatched",
  "kubectl",
] as const;
export type LogShape = (typeof LOG_SHAPES)[number];

const q = (s: string) => JSON.stringify(s);

/** What the Go controller's API error says of a conflict (apimachinery's StatusError text). */
function conflictText(key: string): string {
  const name = key.slice(key.indexOf("/") + 1);
  return `Operation cannot be fulfilled on foos.samplecontroller.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`;
}

/** The pass-end lines of sample-controller v0.31+ and the event client-go logs after a sync. */
function passEnd(e: Extract<TraceEvent, { stage: "done" }>, src: string): string[] {
  if (e.outcome !== "synced") {
    return [
      `${klogHeader("E", e.ts, "controller.go:228")}"Error syncing; requeuing for later retry" err=${q(conflictText(e.key))} logger="UnhandledError" objectReference=${q(e.key)}`,
    ];
  }
  return [
    `${klogHeader("I", e.ts, src)}"Successfully synced" objectName=${q(e.key)}`,
    `${klogHeader("I", e.ts, "event.go:377")}"Event occurred" object=${q(e.key)} fieldPath="" kind="Foo" apiVersion="samplecontroller.k8s.io/v1alpha1" type="Normal" reason="Synced" message="Foo synced successfully"`,
  ];
}

/** The line the patched Go controller prints for a stage event (its Infof formats verbatim). */
function goStage(e: TraceEvent): string | undefined {
  const I = klogHeader("I", e.ts, e.src ?? "controller.go:1");
  switch (e.stage) {
    case "watch":
      return e.event === "add"
        ? `${I}STAGE/watch kind=Foo event=add key=${e.key} rv=${e.rv}`
        : `${I}STAGE/watch kind=Foo event=update key=${e.key} rv=${e.rv} oldRv=${e.oldRv}`;
    case "enqueue":
      return `${I}STAGE/enqueue key=${e.key} len=${e.len}`;
    case "dequeue":
      return `${I}STAGE/dequeue key=${e.key} len=${e.len}`;
    case "read":
      return `${I}STAGE/read key=${e.key} rv=${e.rv} generation=${e.generation}`;
    case "write":
      return `${I}STAGE/write verb=${e.verb} target=${e.target} rv=${e.rv ?? ""} reason=${e.reason ?? ""}`;
    default:
      return undefined;
  }
}

/** An event's canonical pairs, in the canonical order (klog-line.ts), values as written. */
function pairs(e: TraceEvent): [string, string][] {
  const line = klogLine(e);
  const at = line.indexOf("STAGE/");
  const body = line.slice(line.indexOf(" ", at) + 1);
  return body.split(" ").map((p) => {
    const eq = p.indexOf("=");
    return [p.slice(0, eq), p.slice(eq + 1)];
  });
}

/** Fields a reordered line keeps whatever happens: what the stage requires. */
const REQUIRED = new Set(["key", "kind", "event", "verb", "target"]);

/** Other names people give each canonical field. */
const SPELLINGS: Record<string, string[]> = {
  key: ["object", "objectName", "obj", "key"],
  rv: ["resourceVersion", "rv"],
  oldRv: ["oldResourceVersion", "oldRv"],
  len: ["queueLen", "queue_len", "len"],
  worker: ["workerID", "worker"],
  code: ["statusCode", "code"],
  generation: ["gen", "generation"],
};

export interface ShapeWriter {
  /** The lines (without "\n") an event becomes in this shape; none for some. */
  lines(e: TraceEvent): string[];
}

/** A renderer of events in `shape`, deterministic for a seed. */
export function shapeWriter(shape: LogShape, seed = 1): ShapeWriter {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  switch (shape) {
    case "canonical":
      return { lines: (e) => [klogLine(e)] };
    case "ts":
      return {
        lines: (e) =>
          e.stage === "done"
            ? passEnd(e, e.src ?? "controller.go:222")
            : e.stage === "note"
              ? []
              : [klogHeader("I", e.ts, e.src ?? "controller.go:1") + stageBody(e)],
      };
    case "go":
      return {
        lines: (e) => {
          if (e.stage === "done") return passEnd(e, "controller.go:222");
          const line = goStage(e);
          const out = line === undefined ? [] : [line];
          if (e.stage === "watch" && rand() < 0.02) {
            out.push(
              `${klogHeader("I", e.ts, "reflector.go:376")}Listing and watching *v1alpha1.Foo from pkg/mod/k8s.io/client-go@v0.33.0/tools/cache/reflector.go:285`,
            );
          }
          return out;
        },
      };
    case "reordered":
      return {
        lines: (e) => {
          if (e.stage === "done" || e.stage === "note") return [klogLine(e)];
          const kept = pairs(e).filter(([k]) => REQUIRED.has(k) || rand() > 0.3);
          for (let i = kept.length - 1; i > 0; i--) {
            const j = Math.floor(rand() * (i + 1));
            [kept[i], kept[j]] = [kept[j], kept[i]];
          }
          const body = kept.map(([k, v]) => `${k}=${v}`).join(" ");
          return [`${klogHeader("I", e.ts, e.src ?? "controller.go:1")}STAGE/${e.stage} ${body}`];
        },
      };
    case "learner":
      return {
        lines: (e) => {
          if (e.stage === "done" || e.stage === "note") return [klogLine(e)];
          const body = pairs(e)
            .map(([k, v]) => {
              const name = SPELLINGS[k] ? pick(SPELLINGS[k]) : k;
              return `${name}=${rand() < 0.3 ? q(v) : v}`;
            })
            .concat(rand() < 0.3 ? [`attempt=${1 + Math.floor(rand() * 3)}`] : [])
            .join(" ");
          return [`${klogHeader("I", e.ts, e.src ?? "controller.go:1")}STAGE/${e.stage} ${body}`];
        },
      };
    case "structured":
      return {
        lines: (e) => {
          if (e.stage === "done") return passEnd(e, e.src ?? "controller.go:222");
          if (e.stage === "note") return [];
          const body = pairs(e)
            .map(([k, v]) => `${k}=${/^\d+$/.test(v) && k !== "rv" && k !== "oldRv" ? v : q(v)}`)
            .join(" ");
          return [
            `${klogHeader("I", e.ts, e.src ?? "controller.go:1")}"STAGE" stage=${q(e.stage)} ${body}`,
          ];
        },
      };
    case "unpatched":
      return { lines: (e) => (e.stage === "done" ? passEnd(e, "controller.go:222") : []) };
    case "kubectl": {
      const go = shapeWriter("go", seed);
      return { lines: (e) => go.lines(e).map((line) => `${rfc3339Nano(e.ts)} ${line}`) };
    }
  }
}

/** The time the kubelet stamped a line with, as `kubectl logs --timestamps` prints it. */
function rfc3339Nano(tsMicros: number): string {
  const iso = new Date(Math.floor(tsMicros / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(tsMicros % 1_000_000).padStart(6, "0")}250Z`;
}

/** The body of our TypeScript controller's STAGE line for an event (its header is the caller's). */
function stageBody(e: TraceEvent): string {
  const line = stageLine(e, 1) ?? "";
  return line.slice(line.indexOf("] ") + 2);
}
