/**
 * loopscope's own trace file: JSON Lines, append-only.
 *
 *   line 1   {"loopscope":"trace","version":1,"created":"2026-12-02T09:14:06.031Z",...}
 *   line 2+  one TraceEvent per line, e.g.
 *            {"seq":1,"ts":1764666846031344,"key":"default/example-foo","stage":"watch",...}
 *
 * Invariants (docs/trace-format.md is the full schema):
 * - The header is the first line; its unknown fields are kept (`TraceHeader.extra`).
 * - Event fields the model does not know are written at top level and read back into `extra`,
 *   so a file written by a newer loopscope survives a round trip through an older one; an extra
 *   named as a field the record has is written in a nested `"extra"` object (eventRecord).
 * - Writers only append whole lines ending in "\n"; readers tolerate a torn last line.
 */
import type { TraceEvent } from "../event.ts";

export const TRACE_FORMAT_VERSION = 1;

export interface TraceHeader {
  loopscope: "trace";
  version: number;
  /** ISO time the recording started. */
  created?: string;
  /** What produced the events: "live", or the path of the file a trace was converted from. */
  source?: string;
  /** Header fields this version does not know. */
  extra?: Record<string, unknown>;
}

const HEADER_FIELDS = new Set(["loopscope", "version", "created", "source"]);

export function encodeHeader(
  h: Omit<TraceHeader, "loopscope" | "version"> & Partial<TraceHeader> = {},
): string {
  return JSON.stringify(headerRecord(h)) + "\n";
}

/** The header as the JSON object of line 1 (`extra` flattened back to top level). */
export function headerRecord(
  h: Omit<TraceHeader, "loopscope" | "version"> & Partial<TraceHeader> = {},
): Record<string, unknown> {
  const { extra, ...known } = h;
  const out: Record<string, unknown> = { loopscope: "trace", version: TRACE_FORMAT_VERSION };
  for (const [k, v] of Object.entries(known))
    if (k !== "loopscope" && k !== "version" && v !== undefined) out[k] = v;
  if (extra) for (const [k, v] of Object.entries(extra)) if (!(k in out)) out[k] = v;
  return out;
}

/** One event as one line, "\n" included. `extra` is flattened back to top level (eventRecord). */
export function encodeEvent(e: TraceEvent): string {
  return JSON.stringify(eventRecord(e)) + "\n";
}

/**
 * The event as the JSON record of its line: its `extra` flattened back to top level, but for the
 * members named as a field the event holds (a STAGE line's `seq=7`, a JSONL record's `"seq":"x"`),
 * `extra` or `__proto__`: those stay in a nested `"extra"` object, which decodeEvent takes back
 * into extra. (Flattened, they were dropped: the event's own field won.)
 */
export function eventRecord(e: TraceEvent): Record<string, unknown> {
  if (!e.extra) return e as unknown as Record<string, unknown>;
  const { extra, ...rest } = e;
  const out: Record<string, unknown> = rest;
  let nested: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(extra)) {
    if ((Object.hasOwn(out, k) && out[k] !== undefined) || k === "extra" || k === "__proto__") {
      // defineProperty: a member named "__proto__" is data like any other, not a prototype.
      Object.defineProperty((nested ??= {}), k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[k] = v;
  }
  if (nested) out.extra = nested;
  return out;
}

export function isHeaderRecord(o: unknown): o is Record<string, unknown> {
  return (
    typeof o === "object" && o !== null && (o as Record<string, unknown>).loopscope === "trace"
  );
}

export function decodeHeader(o: Record<string, unknown>): TraceHeader {
  const h: TraceHeader = {
    loopscope: "trace",
    version: typeof o.version === "number" ? o.version : 0,
  };
  if (typeof o.created === "string") h.created = o.created;
  if (typeof o.source === "string") h.source = o.source;
  for (const [k, v] of Object.entries(o)) {
    // defineProperty: a field named "__proto__" is data like any other, not a prototype.
    if (!HEADER_FIELDS.has(k)) {
      Object.defineProperty((h.extra ??= {}), k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return h;
}
