/**
 * The OTLP/JSON shape of traces (opentelemetry-proto `ExportTraceServiceRequest` in the JSON
 * mapping that OTLP/HTTP uses): `resourceSpans[].scopeSpans[].spans[]`; trace and span ids are
 * lower-case hex (32 and 16 digits — not base64, the OTLP exception to proto3 JSON); 64-bit
 * integers, times included, are decimal strings; enums are numbers.
 *
 * Also a checker for that shape, used by the tests and by anyone importing our files.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface OtlpSpanEvent {
  timeUnixNano: string;
  name: string;
  attributes?: KeyValue[];
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  attributes?: KeyValue[];
}

/** Span kinds: 1 = INTERNAL. Status codes: 0 unset, 1 ok, 2 error. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValue[];
  events?: OtlpSpanEvent[];
  links?: OtlpLink[];
  status?: { code: number; message?: string };
}

export const SPAN_KIND_INTERNAL = 1;
export const STATUS_CODE_ERROR = 2;

/** Converts a JSON value to an OTLP AnyValue (objects become their JSON text). */
export function anyValue(v: unknown): AnyValue {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number")
    return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { stringValue: JSON.stringify(v) ?? "null" };
}

export function attributes(o: Record<string, unknown>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, v] of Object.entries(o))
    if (v !== undefined) out.push({ key, value: anyValue(v) });
  return out;
}

/** Microseconds since the epoch (possibly fractional) → nanoseconds as a decimal string. */
export function microsToNanos(us: number): string {
  const whole = Math.floor(us);
  const frac = Math.round((us - whole) * 1000);
  return (BigInt(whole) * 1000n + BigInt(frac)).toString();
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

/** FNV-1a, 64 bits, as 16 hex digits; never all zeros (an invalid id in OTLP). */
export function hash64(text: string): string {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * FNV_PRIME) & MASK64;
  }
  if (h === 0n) h = 1n;
  return h.toString(16).padStart(16, "0");
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const NANOS = /^\d{1,20}$/;

function anyValueProblem(v: unknown, at: string): string | undefined {
  if (typeof v !== "object" || v === null) return `${at}: value is not an object`;
  const keys = Object.keys(v);
  if (keys.length !== 1) return `${at}: AnyValue must have exactly one field`;
  const o = v as Record<string, unknown>;
  if ("stringValue" in o)
    return typeof o.stringValue === "string" ? undefined : `${at}: stringValue not a string`;
  if ("boolValue" in o)
    return typeof o.boolValue === "boolean" ? undefined : `${at}: boolValue not a boolean`;
  if ("intValue" in o)
    return typeof o.intValue === "string" && /^-?\d+$/.test(o.intValue)
      ? undefined
      : `${at}: intValue not a decimal string`;
  if ("doubleValue" in o)
    return typeof o.doubleValue === "number" ? undefined : `${at}: doubleValue not a number`;
  if ("arrayValue" in o) {
    const vals = (o.arrayValue as { values?: unknown } | null)?.values;
    if (!Array.isArray(vals)) return `${at}: arrayValue without values`;
    for (let i = 0; i < vals.length; i++) {
      const p = anyValueProblem(vals[i], `${at}[${i}]`);
      if (p) return p;
    }
    return undefined;
  }
  return `${at}: unknown AnyValue field ${keys[0]}`;
}

function attributesProblem(list: unknown, at: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${at}.attributes is not an array`;
  for (let i = 0; i < list.length; i++) {
    const kv = list[i] as { key?: unknown; value?: unknown } | null;
    if (typeof kv?.key !== "string") return `${at}.attributes[${i}] without a key`;
    const p = anyValueProblem(kv.value, `${at}.attributes[${i}] (${kv.key})`);
    if (p) return p;
  }
  return undefined;
}

/**
 * Problems with an OTLP/JSON trace document, empty when it has the shape collectors (Jaeger,
 * Tempo, the OpenTelemetry Collector) accept: resourceSpans → scopeSpans → spans; ids of the
 * right length in hex; times as strings of nanoseconds with end ≥ start; links and events
 * well-formed; parent ids that name a span of the same trace in the document.
 */
export function otlpProblems(doc: unknown, max = 20): string[] {
  const problems: string[] = [];
  const add = (p: string | undefined) => {
    if (p && problems.length < max) problems.push(p);
  };
  const rs = (doc as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(rs)) return ["no resourceSpans array"];
  const ids = new Set<string>();
  const parents: Array<[string, string, string]> = [];
  rs.forEach((r, ri) => {
    const res = (r as { resource?: { attributes?: unknown } }).resource;
    if (res !== undefined) add(attributesProblem(res.attributes, `resourceSpans[${ri}].resource`));
    const ss = (r as { scopeSpans?: unknown }).scopeSpans;
    if (!Array.isArray(ss)) return add(`resourceSpans[${ri}] without a scopeSpans array`);
    ss.forEach((s, si) => {
      const spans = (s as { spans?: unknown }).spans;
      if (!Array.isArray(spans))
        return add(`resourceSpans[${ri}].scopeSpans[${si}] without a spans array`);
      spans.forEach((sp: Record<string, unknown>, i) => {
        const at = `span ${i}`;
        if (typeof sp.traceId !== "string" || !HEX32.test(sp.traceId) || /^0+$/.test(sp.traceId))
          add(`${at}: traceId is not 32 hex digits`);
        if (typeof sp.spanId !== "string" || !HEX16.test(sp.spanId) || /^0+$/.test(sp.spanId))
          add(`${at}: spanId is not 16 hex digits`);
        if (sp.parentSpanId !== undefined && sp.parentSpanId !== "") {
          if (typeof sp.parentSpanId !== "string" || !HEX16.test(sp.parentSpanId))
            add(`${at}: parentSpanId is not 16 hex digits`);
          else parents.push([at, String(sp.traceId), sp.parentSpanId]);
        }
        if (typeof sp.name !== "string" || sp.name === "") add(`${at}: no name`);
        if (sp.kind !== undefined && (typeof sp.kind !== "number" || sp.kind < 0 || sp.kind > 5))
          add(`${at}: kind is not 0…5`);
        const start = sp.startTimeUnixNano;
        const end = sp.endTimeUnixNano;
        if (typeof start !== "string" || !NANOS.test(start))
          add(`${at}: startTimeUnixNano is not a string of nanoseconds`);
        else if (typeof end !== "string" || !NANOS.test(end))
          add(`${at}: endTimeUnixNano is not a string of nanoseconds`);
        else if (BigInt(end) < BigInt(start)) add(`${at}: ends before it starts`);
        add(attributesProblem(sp.attributes, at));
        if (sp.events !== undefined) {
          if (!Array.isArray(sp.events)) add(`${at}: events is not an array`);
          else
            sp.events.forEach((ev: Record<string, unknown>, ei) => {
              if (typeof ev.timeUnixNano !== "string" || !NANOS.test(ev.timeUnixNano))
                add(`${at}.events[${ei}]: timeUnixNano is not a string of nanoseconds`);
              else if (
                typeof start === "string" &&
                typeof end === "string" &&
                NANOS.test(start) &&
                NANOS.test(end) &&
                (BigInt(ev.timeUnixNano) < BigInt(start) || BigInt(ev.timeUnixNano) > BigInt(end))
              )
                // Viewers draw it at a negative offset, or not at all.
                add(`${at}.events[${ei}]: outside its span's time`);
              if (typeof ev.name !== "string") add(`${at}.events[${ei}]: no name`);
              add(attributesProblem(ev.attributes, `${at}.events[${ei}]`));
            });
        }
        if (sp.links !== undefined) {
          if (!Array.isArray(sp.links)) add(`${at}: links is not an array`);
          else
            sp.links.forEach((l: Record<string, unknown>, li) => {
              if (typeof l.traceId !== "string" || !HEX32.test(l.traceId))
                add(`${at}.links[${li}]: traceId is not 32 hex digits`);
              if (typeof l.spanId !== "string" || !HEX16.test(l.spanId))
                add(`${at}.links[${li}]: spanId is not 16 hex digits`);
              add(attributesProblem(l.attributes, `${at}.links[${li}]`));
            });
        }
        const status = sp.status as { code?: unknown } | undefined;
        if (
          status !== undefined &&
          status.code !== undefined &&
          ![0, 1, 2].includes(status.code as number)
        )
          add(`${at}: status.code is not 0, 1 or 2`);
        ids.add(`${String(sp.traceId)}/${String(sp.spanId)}`);
      });
    });
  });
  for (const [at, traceId, parent] of parents) {
    if (!ids.has(`${traceId}/${parent}`))
      add(`${at}: parentSpanId ${parent} is not a span of its trace`);
  }
  return problems;
}
