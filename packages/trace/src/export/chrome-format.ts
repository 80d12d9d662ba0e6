/**
 * The Trace Event Format (the JSON that Perfetto, chrome://tracing and catapult load), as far as
 * loopscope writes and reads it, and a checker for the fields the format requires.
 *
 * Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU —
 * `ts`/`dur` are microseconds; `ph` is the phase; flows "v2" put `bind_id` with `flow_out`
 * (start), `flow_in` (end) or both (a step) on the X/B slice itself. Perfetto binds v2 flows only
 * on X/B slices (not on instants), which is why arrows attach to zero-length X anchors.
 */

export type ChromePhase =
  "X" | "B" | "E" | "i" | "I" | "C" | "M" | "s" | "t" | "f" | "b" | "n" | "e";

export interface ChromeEvent {
  name: string;
  ph: ChromePhase | string;
  ts: number;
  pid: number;
  tid: number;
  cat?: string;
  dur?: number;
  /** Instant scope: global, process or thread. */
  s?: "g" | "p" | "t";
  args?: Record<string, unknown>;
  bind_id?: number | string;
  flow_in?: boolean;
  flow_out?: boolean;
  id?: number | string;
  cname?: string;
}

/** The JSON Object Format's top level. */
export interface ChromeTraceFile {
  traceEvents: ChromeEvent[];
  displayTimeUnit?: "ms" | "ns";
  otherData?: Record<string, unknown>;
}

const PHASES = new Set([
  "X",
  "B",
  "E",
  "i",
  "I",
  "C",
  "M",
  "s",
  "t",
  "f",
  "b",
  "n",
  "e",
  "P",
  "N",
  "O",
  "D",
  "R",
]);

function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/**
 * What is wrong with one trace event record, or undefined when it carries every field the
 * format requires for its phase: `ph`, `name`, numeric `ts`, integer `pid`/`tid`; `dur >= 0` on
 * X; an object of numbers as `args` on C; `s` in g/p/t on instants; `args.name` on
 * process/thread name metadata; `flow_in`/`flow_out` beside a `bind_id`.
 */
export function chromeEventProblem(o: unknown): string | undefined {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return "not an object";
  const e = o as Record<string, unknown>;
  if (typeof e.ph !== "string" || !PHASES.has(e.ph)) return `unknown ph ${JSON.stringify(e.ph)}`;
  if (typeof e.name !== "string") return `${e.ph} event without a string name`;
  if (typeof e.ts !== "number" || !Number.isFinite(e.ts))
    return `${e.ph} event without a numeric ts`;
  if (!isInt(e.pid)) return `${e.ph} event without an integer pid`;
  if (!isInt(e.tid)) return `${e.ph} event without an integer tid`;
  if (
    e.args !== undefined &&
    (typeof e.args !== "object" || e.args === null || Array.isArray(e.args))
  ) {
    return `${e.ph} event whose args is not an object`;
  }
  switch (e.ph) {
    case "X":
      if (typeof e.dur !== "number" || !(e.dur >= 0)) return "X event without a non-negative dur";
      break;
    case "i":
    case "I":
      if (e.s !== undefined && e.s !== "g" && e.s !== "p" && e.s !== "t")
        return `instant with scope ${String(e.s)}`;
      break;
    case "C": {
      const args = e.args as Record<string, unknown> | undefined;
      if (!args || Object.keys(args).length === 0) return "counter without args";
      for (const [k, v] of Object.entries(args)) {
        if (typeof v !== "number" || !Number.isFinite(v))
          return `counter series ${k} is not a number`;
      }
      break;
    }
    case "M": {
      const args = e.args as Record<string, unknown> | undefined;
      if (
        (e.name === "process_name" || e.name === "thread_name") &&
        typeof args?.name !== "string"
      ) {
        return `${e.name} metadata without args.name`;
      }
      if (
        (e.name === "process_sort_index" || e.name === "thread_sort_index") &&
        !isInt(args?.sort_index)
      ) {
        return `${e.name} metadata without an integer args.sort_index`;
      }
      break;
    }
  }
  if (e.bind_id !== undefined) {
    if (e.ph !== "X" && e.ph !== "B") return "bind_id on an event that is not an X or B slice";
    if (e.flow_in !== true && e.flow_out !== true) return "bind_id without flow_in or flow_out";
  }
  return undefined;
}
