/**
 * The text an event stands for in an excerpt: the message of its log line when it was read from
 * one, otherwise the STAGE line loopscope's controller logs for it (packages/controller's klog
 * text, which renders it with `canonicalText`), so a JSONL recording's excerpt reads as the klog
 * of the same run does.
 */
import type { TraceEvent, UnsequencedEvent } from "../event.ts";
import { parseKlogHeader, type KlogHeader } from "../klog/header.ts";

/** A value as klog prints it: quoted when it has to be (spaces, quotes, `=`, `\`, empty). */
function klogValue(v: unknown): string {
  const s = typeof v === "string" ? v : Array.isArray(v) ? v.join(",") : String(v);
  return s === "" || /[\s"=\\]/.test(s) ? JSON.stringify(s) : s;
}

/** ` k=v` for each pair with a value. */
function kv(pairs: Array<[string, unknown]>): string {
  let out = "";
  for (const [k, v] of pairs) if (v !== undefined) out += ` ${k}=${klogValue(v)}`;
  return out;
}

/**
 * The STAGE line body for an event (no klog header): the fields in docs/stages.md's order. A
 * pass end has no STAGE line (the controller logs "Successfully synced" and the like): it is
 * told as `done key=… outcome=…`.
 */
export function canonicalText(e: TraceEvent | UnsequencedEvent): string {
  switch (e.stage) {
    case "watch":
      return `STAGE/watch${kv([
        ["kind", e.kind],
        ["event", e.event],
        ["key", e.key],
        ["ns", e.ns],
        ["name", e.name],
        ["rv", e.rv],
        ["oldRv", e.oldRv],
        ["initial", e.initial],
      ])}`;
    case "enqueue":
      return `STAGE/enqueue${kv([
        ["key", e.key],
        ["len", e.len],
        ["merged", e.merged === false ? undefined : e.merged],
        ["cause", e.cause],
        ["delayMs", e.delayMs],
      ])}`;
    case "dequeue":
      return `STAGE/dequeue${kv([
        ["key", e.key],
        ["len", e.len],
        ["worker", e.worker],
      ])}`;
    case "read":
      return `STAGE/read${kv([
        ["key", e.key],
        ["rv", e.rv],
        ["generation", e.generation],
        ["found", e.found === false ? false : undefined],
      ])}`;
    case "write":
      return `STAGE/write${kv([
        ["verb", e.verb],
        ["target", e.target],
        ["rv", e.rv],
        ["code", e.code],
        ["reason", e.reason],
        ["changed", e.changed],
        ["fields", e.fields && e.fields.length > 0 ? e.fields : undefined],
        ["key", e.key],
      ])}`;
    case "done":
      return `done${kv([
        ["key", e.key],
        ["outcome", e.outcome],
        ["error", e.error],
        ["delayMs", e.delayMs],
      ])}`;
    case "note":
      return e.text;
  }
}

/** What follows the klog header in the event's raw line, or the canonical text. */
export function messageText(e: TraceEvent): string {
  if (e.raw !== undefined) {
    const h = parseKlogHeader(e.raw);
    if (h) return ownMessage(e, e.raw, h);
    const at = e.raw.indexOf("STAGE/");
    if (at >= 0) return e.raw.slice(at);
  }
  return canonicalText(e);
}

const DAY_US = 86_400_000_000;

/**
 * The event's message in `raw`, whose first klog header is `first`. A replay that reads its lines
 * back from the file gives each event its whole physical line, and a line with other klog lines
 * glued into it (two writers at once, a lost newline: KlogParser.glued) holds several: the
 * event's is the one whose header has its source and time of day, and it ends where the next
 * begins, less the word cut short there — the part the reader read, which is the CLI's raw.
 */
function ownMessage(e: TraceEvent, raw: string, first: KlogHeader): string {
  const next = parseKlogHeader(raw, first.msgStart);
  if (next === undefined) return raw.slice(first.msgStart);
  const tod = ((e.ts % DAY_US) + DAY_US) % DAY_US;
  const own = (h: KlogHeader) => h.timeOfDayUs === tod && h.src === e.src;
  let h: KlogHeader | undefined = first;
  let after: KlogHeader | undefined = next;
  while (after !== undefined && !own(h)) {
    h = after;
    after = parseKlogHeader(raw, h.msgStart);
  }
  if (!own(h)) return raw.slice(first.msgStart, partEnd(raw, first.msgStart, next.start));
  return after === undefined
    ? raw.slice(h.msgStart)
    : raw.slice(h.msgStart, partEnd(raw, h.msgStart, after.start));
}

/** Where a part that runs into a glued header at `at` ends: before the word cut there. */
function partEnd(raw: string, msg: number, at: number): number {
  let cut = at;
  while (cut > msg && raw[cut - 1] !== " " && raw[cut - 1] !== "\t") cut--;
  let end = cut;
  while (end > msg && (raw[end - 1] === " " || raw[end - 1] === "\t")) end--;
  return end;
}
