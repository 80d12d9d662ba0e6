/**
 * The annotated excerpt of the exercise: one Foo's lines from its creation (or, for a Foo that
 * existed before the trace, from the informer's initial list that showed it) until it went
 * quiescent, stage names down the left, file:line beside each, pass boundaries and causes
 * marked, then the count of each tag and the reconcile count for the create.
 */
import type { Stage, TraceEvent, WriteEvent } from "../event.ts";
import type { Finding, KeySummary, Pass, PassCause } from "../analysis/model.ts";
import { Analyzer, type AnalyzerOptions } from "../analysis/analyzer.ts";
import { refusedWrite } from "../analysis/refused-write.ts";
import { ExcerptEvents } from "./excerpt-events.ts";
import { messageText } from "./stage-text.ts";
import { listInBrief } from "../list-in-brief.ts";

export type ExcerptRow =
  | {
      kind: "event";
      event: TraceEvent;
      /** µs since the first row */ offsetUs: number;
      note?: string;
    }
  | { kind: "pass"; pass: Pass; number: number; text: string };

export interface Excerpt {
  key: string;
  rows: ExcerptRow[];
  /** Events per tag in the excerpt (stages and pass ends). */
  counts: Record<Stage | "done", number>;
  /** Passes from creation to quiescence; null when the trace never shows it quiescent. */
  reconciles: number | null;
  /** Whether the excerpt stops because the key went quiescent (else: the trace ended). */
  quiescent: boolean;
  passes: number;
  /**
   * Whether the key's creation is in the trace (a watch event of it). A log without watch lines
   * (an unpatched controller's) shows passes, not a creation to count from.
   */
  created: boolean;
  /**
   * Whether that watch event was an add of the informer's initial list (KeySummary.listed): the
   * Foo existed before the trace, and the excerpt counts from its listing, not a creation.
   */
  listed: boolean;
  /** Whether the key was quiescent when the trace ended (without a creation, the one verdict). */
  settled: boolean;
  /** Set when the excerpt stopped at its row cap before its span ended. */
  cut?: { rows: number; passesInSpan: number };
  /** The Analyzer's hot-loop finding for the key, in words, when it found one. */
  hotLoop?: string;
}

/** What the excerpt covers, in words: its title, the counts table's caption. */
export function excerptSpan(x: Excerpt): string {
  if (!x.created)
    return `every pass in this trace (no watch lines, so no creation to count from)${x.settled ? "; quiescent at the end" : ""}`;
  const from = x.listed
    ? "from the informer's initial list (it existed before the run)"
    : "from creation";
  if (x.quiescent) return `${from} to quiescent`;
  return `${from} (not quiescent in this trace)`;
}

export interface ExcerptOptions extends AnalyzerOptions {
  /** "ns/name"; default: the first Foo created in the trace (else the first key). */
  key?: string;
  /** Cap on event rows when the key never settles (default 400). */
  maxRows?: number;
}

const CAUSE_TEXT: Record<PassCause, string> = {
  external: "external — someone else changed something it watches",
  self: "self — echoes of this controller's own writes",
  resync: "resync — the informer's periodic re-delivery",
  retry: "retry — requeued after an error",
  unknown: "cause unknown — no enqueue line to go by",
};
/**
 * How a pass's cause was inferred: a retry no enqueue line said, from the failed pass before it;
 * any other, by timing, where resourceVersions would have matched an echo exactly.
 */
function inferredText(pass: Pass): string {
  return pass.cause === "retry"
    ? " (inferred: the pass before it failed and was requeued)"
    : " (inferred by timing, no resourceVersions to match)";
}

/** A pass started by an add of the informer's initial list: external, but no one changed it. */
const LISTED_TEXT = "external — the informer's initial list: the Foo existed before the run";

export function buildExcerpt(
  events: readonly TraceEvent[],
  opts: ExcerptOptions = {},
): Excerpt | undefined {
  const picker = new ExcerptEvents(opts.key);
  for (const e of events) picker.take(e);
  const picked = picker.picked();
  if (picked === undefined || picked.events.length === 0) return undefined;
  const { key, events: all } = picked;
  const analyzer = new Analyzer(opts);
  const passOf = new Map<number, number>();
  for (const e of all) {
    const p = analyzer.push(e);
    if (p >= 0) passOf.set(e.seq, p);
  }
  // The Foo's latest life: a Foo created again under the same name starts over.
  const lifeSeq = analyzer.lifeStartSeq(key);
  const mine = lifeSeq === undefined ? all : all.slice(all.findIndex((e) => e.seq === lifeSeq));
  const passes = analyzer.passes(key);
  // No summary: the key has only notes so far (a scenario's opening line, say) — no excerpt yet.
  const summary = analyzer.summary(key);
  if (!summary) return undefined;
  const changing = new Set(passes.flatMap((p) => p.changingWriteSeqs ?? []));
  // Writes whose line said no answer that their pass's error says the API refused.
  const writesBySeq = new Map<number, WriteEvent>();
  for (const e of mine) if (e.stage === "write") writesBySeq.set(e.seq, e);
  const refused = new Set<number>();
  for (const p of passes) {
    const seq = refusedWrite(p, (s) => writesBySeq.get(s));
    if (seq !== undefined) refused.add(seq);
  }
  const startIdx = Math.max(
    0,
    mine.findIndex((e) => e.stage === "watch"),
  );
  const t0 = mine[startIdx].ts;
  // A write is named as the excerpt shows it, by its verb and time: a seq or a log line number
  // is nowhere in the excerpt to look up.
  const writeAt = new Map<number, string>();
  for (const e of mine)
    if (e.stage === "write") writeAt.set(e.seq, `the ${e.verb} at ${seconds(e.ts - t0)}`);
  // An add of the informer's initial list is external, but nobody changed anything: the Foo
  // existed before the run. Its watch line and the pass it starts say so.
  const initialList = new Set(
    mine.filter((e) => e.stage === "watch" && e.initial === true).map((e) => e.seq),
  );
  const listedPasses = new Set<Pass>();
  // Triggers belong to the pass they caused.
  const triggerNote = new Map<number, string>();
  for (const p of passes) {
    // A pass's cause is its first trigger that is not self (Pass.cause).
    const first = p.triggers.find((t) => t.cause !== "self");
    if (first?.watchSeq !== undefined && initialList.has(first.watchSeq)) listedPasses.add(p);
    for (const t of p.triggers) {
      const write = t.writeSeq !== undefined ? writeAt.get(t.writeSeq) : undefined;
      const echo = write !== undefined ? `, echo of ${write}` : "";
      // Without a watch line (the exercise logs the Foo handler only), the add says whose echo.
      // A trigger of another cause than its pass's says what the pass counts as (a self echo
      // merged into a retry is a retry: Pass.cause), as the pass's header line does.
      const counts = t.cause !== p.cause ? `; pass ${p.number} counts as ${p.cause}` : "";
      const label = `→ pass ${p.number}: ${t.cause}${t.inferred ? " (inferred)" : ""}${t.watchSeq === undefined ? echo : ""}${counts}`;
      triggerNote.set(t.enqueueSeq, label);
      const listing = t.watchSeq !== undefined && initialList.has(t.watchSeq);
      if (t.watchSeq !== undefined)
        triggerNote.set(
          t.watchSeq,
          `${t.cause}${t.inferred ? " (inferred)" : ""}${echo}${listing ? ", the informer's initial list" : ""}`,
        );
    }
  }
  const lastPass =
    summary.reconcilesForCreate !== null
      ? passes[startPassIndex(passes, mine[startIdx]) + summary.reconcilesForCreate - 1]
      : undefined;
  const stopSeq = lastPass?.endSeq ?? lastPass?.writeSeqs[lastPass.writeSeqs.length - 1];
  const maxRows = opts.maxRows ?? 400;
  const rows: ExcerptRow[] = [];
  const counts = { watch: 0, enqueue: 0, dequeue: 0, read: 0, write: 0, done: 0 };
  let shownPass = -1;
  let eventsShown = 0;
  for (let i = startIdx; i < mine.length && eventsShown < maxRows; i++) {
    const e = mine[i];
    const p = passOf.get(e.seq);
    if (p !== undefined && p > shownPass && e.stage !== "note") {
      shownPass = p;
      const pass = passes[p];
      rows.push({
        kind: "pass",
        pass,
        number: pass.number,
        text: `pass ${pass.number} · ${listedPasses.has(pass) ? LISTED_TEXT : CAUSE_TEXT[pass.cause]}${pass.inferred ? inferredText(pass) : ""}`,
      });
    }
    const note =
      e.stage === "done"
        ? e.outcome
        : e.stage === "write"
          ? refused.has(e.seq)
            ? "failed 409 Conflict, as the pass's error says"
            : writeNote(e, changing.has(e.seq))
          : triggerNote.get(e.seq);
    rows.push({ kind: "event", event: e, offsetUs: e.ts - t0, ...(note ? { note } : {}) });
    eventsShown++;
    if (e.stage !== "note") counts[e.stage]++;
    if (stopSeq !== undefined && e.seq === stopSeq) break;
  }
  const createPasses = rows.filter((r) => r.kind === "pass").length;
  const created = mine.some((e) => e.stage === "watch");
  const x: Excerpt = {
    key,
    rows,
    counts,
    reconciles: summary.reconcilesForCreate,
    quiescent: lastPass !== undefined,
    passes: createPasses,
    created,
    listed: summary.listed,
    settled: summary.quiescent,
  };
  const hot = summary.hotLoop
    ? analyzer.findings().find((f) => f.kind === "hot-loop" && f.key === key)
    : undefined;
  if (hot) x.hotLoop = hot.detail;
  if (eventsShown >= maxRows && rows[rows.length - 1]?.kind === "event") {
    const last = (rows[rows.length - 1] as { event: TraceEvent }).event;
    const more = last.seq !== stopSeq && mine[mine.length - 1]!.seq !== last.seq;
    if (more) {
      // The span's passes: up to the quiescent one, else to the end of the trace.
      const end = lastPass !== undefined ? lastPass.index - passes[0]!.index + 1 : passes.length;
      x.cut = { rows: maxRows, passesInSpan: end - startPassIndex(passes, mine[startIdx]) };
    }
  }
  return x;
}

/** The analysis of the whole trace, where the excerpt was built from a key's first events only. */
export interface WholeTraceAnalysis {
  passes(key: string): readonly Pass[];
  summary(key: string): KeySummary | undefined;
  findings(): readonly Finding[];
}

/**
 * `x`, built from its key's first events alone (the dashboard caps what it reads for an excerpt),
 * with what only the whole trace knows taken from `whole`'s analysis of it: the hot loop's
 * length, whether the key was quiescent at the end, and — when those first events never saw it
 * quiescent — the reconcile count and the passes in its span. Its rows need no more: they stop
 * at 400 events. Without this, a 5,000-pass hot loop read "3332 consecutive passes" beside the
 * Findings' 4999.
 */
export function withWholeTrace(x: Excerpt, whole: WholeTraceAnalysis): Excerpt {
  const summary = whole.summary(x.key);
  if (!summary) return x;
  const hot = summary.hotLoop
    ? whole.findings().find((f) => f.kind === "hot-loop" && f.key === x.key)
    : undefined;
  const y: Excerpt = { ...x, settled: summary.quiescent };
  delete y.hotLoop;
  if (hot) y.hotLoop = hot.detail;
  if (x.quiescent || !x.created) return y;
  y.reconciles = summary.reconcilesForCreate;
  y.quiescent = summary.reconcilesForCreate !== null;
  if (x.cut) {
    const passes = whole.passes(x.key);
    const first = x.rows.find((r) => r.kind === "event")?.event;
    const start = first ? startPassIndex(passes, first) : 0;
    y.cut = { ...x.cut, passesInSpan: summary.reconcilesForCreate ?? passes.length - start };
  }
  return y;
}

/** The first pass that began after `first` (the key's first watch event): where the create starts. */
function startPassIndex(passes: readonly Pass[], first: TraceEvent): number {
  const opened = (p: Pass) => p.dequeueSeq ?? p.readSeq ?? p.writeSeqs[0] ?? p.endSeq ?? 0;
  const i = passes.findIndex((p) => opened(p) > first.seq);
  return i < 0 ? 0 : i;
}

function writeNote(e: Extract<TraceEvent, { stage: "write" }>, changing: boolean): string {
  if ((e.code !== undefined && e.code >= 400) || (e.code === undefined && e.reason)) {
    return `failed${e.code ? " " + e.code : ""}${e.reason ? " " + e.reason : ""}`;
  }
  if (!changing) return "no-op";
  return e.fields && e.fields.length > 0 ? `changed ${listInBrief(e.fields)}` : "changed";
}

// ── rendering ───────────────────────────────────────────────────────────────────────────────

/** "+1.234s"; a time that rounds to 0 is "+0.000s", never "−0.000s" (a line µs before). */
function seconds(us: number): string {
  const ms = Math.round(us / 1000);
  return `${ms < 0 ? "−" : "+"}${(Math.abs(ms) / 1000).toFixed(3)}s`;
}

function tally(x: Excerpt): string {
  const c = x.counts;
  return `watch ${c.watch} · enqueue ${c.enqueue} · dequeue ${c.dequeue} · read ${c.read} · write ${c.write} · pass ends ${c.done}`;
}

/** Why a log filtered to its STAGE lines (the exercise's own `grep STAGE/`) gives no count. */
const NO_PASS_ENDS =
  ' The log has no pass-end lines ("Successfully synced", "Error syncing"), so its last pass never ends: keep them when filtering it (grep -E \'STAGE/|Successfully synced|Error syncing\').';

function closing(x: Excerpt): string {
  const passes = (n: number) => `${n} pass${n === 1 ? "" : "es"}`;
  const end = !x.created
    ? `No creation in this trace: ${passes(x.passes)} shown, no reconcile count.`
    : x.quiescent
      ? x.listed
        ? `Reconcile count from the informer's initial list: ${passes(x.reconciles ?? x.passes)} (listed to quiescent; the Foo existed before the run, so no create is counted).`
        : `Reconcile count for one create: ${passes(x.reconciles ?? x.passes)} (creation to quiescent).`
      : `Not quiescent in this trace: ${passes(x.passes)} shown, no reconcile count.${x.counts.done === 0 && x.counts.dequeue > 0 ? NO_PASS_ENDS : ""}`;
  const hot = x.hotLoop ? `Hot loop: ${x.hotLoop}. ` : "";
  return x.cut
    ? `${hot}${end} Cut at its first ${x.cut.rows} log lines: ${x.passes} of the ${x.cut.passesInSpan} passes in its span shown.`
    : hot + end;
}

/** Width of the file:line column of renderExcerptText. */
function srcWidthOf(x: Excerpt): number {
  return Math.max(6, ...x.rows.map((r) => (r.kind === "event" ? (r.event.src ?? "").length : 0)));
}

/**
 * The column where an event row's log line starts in renderExcerptText (after the stage, the
 * offset and file:line): a view that wraps long rows indents what wraps to it, so the columns
 * stay readable.
 */
export function excerptLineColumn(x: Excerpt): number {
  return 8 + 1 + 9 + 2 + srcWidthOf(x) + 2;
}

export function renderExcerptText(x: Excerpt): string {
  const out = [`${x.key}: ${excerptSpan(x)}`, ""];
  const srcWidth = srcWidthOf(x);
  for (const r of x.rows) {
    if (r.kind === "pass") {
      out.push(`──── ${r.text} ────`);
      continue;
    }
    const e = r.event;
    const tag = e.stage === "note" ? "·" : e.stage;
    const note = r.note ? `   ‹${r.note}›` : "";
    // A multi-line message (a Go error, a note) goes on under its first line, in the line's
    // column: at column 0 it would read as rows of its own, outside the stage and time columns.
    const [first = "", ...more] = messageText(e).split(/\r?\n/);
    out.push(
      `${tag.padEnd(8)} ${seconds(r.offsetUs).padStart(9)}  ${(e.src ?? "").padEnd(srcWidth)}  ${first}${more.length === 0 ? note : ""}`,
    );
    const indent = " ".repeat(8 + 1 + 9 + 2 + srcWidth + 2);
    more.forEach((line, i) => out.push(`${indent}${line}${i === more.length - 1 ? note : ""}`));
  }
  out.push("", `Tags: ${tally(x)}`, closing(x));
  return out.join("\n") + "\n";
}

/** Text in a table cell, as plain text: Markdown's marks escaped, on one line. */
function cell(s: string): string {
  return oneLine(s).replace(/[\\`*_[\]<>|~]/g, "\\$&");
}

/** A Markdown code span of `s` in a table cell (where `|` ends the cell unless escaped). */
function code(s: string): string {
  return codeSpan(oneLine(s).replace(/\|/g, "\\|"));
}

/** A table row is one line: a line break inside a value (a multi-line error) is shown as ↵. */
function oneLine(s: string): string {
  return s.replace(/\r?\n/g, " ↵ ");
}

/**
 * A Markdown code span of `s`: fenced by one backtick more than its longest run of them, and
 * padded with a space when it holds any (a key or a log line may).
 */
function codeSpan(s: string): string {
  let longest = 0;
  for (const run of s.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return longest > 0 ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

export function renderExcerptMarkdown(x: Excerpt): string {
  const out = [
    `### ${codeSpan(x.key)} — ${excerptSpan(x)}`,
    "",
    "| stage | time | file:line | line | note |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const r of x.rows) {
    if (r.kind === "pass") {
      out.push(`| **pass ${r.number}** | | | **${cell(r.text.replace(/^pass \d+ · /, ""))}** | |`);
      continue;
    }
    const e = r.event;
    out.push(
      `| ${e.stage === "note" ? "" : `**${e.stage}**`} | ${seconds(r.offsetUs)} | ${e.src ? code(e.src) : ""} | ${code(messageText(e))} | ${r.note ? cell(r.note) : ""} |`,
    );
  }
  out.push("", `**Tags:** ${tally(x)}`, "", `**${closing(x)}**`);
  return out.join("\n") + "\n";
}

/** Builds and renders in one go; undefined when the trace has no such key. */
export function excerpt(
  events: readonly TraceEvent[],
  opts: ExcerptOptions & { format?: "md" | "text" } = {},
): string | undefined {
  const x = buildExcerpt(events, opts);
  if (!x) return undefined;
  return opts.format === "md" ? renderExcerptMarkdown(x) : renderExcerptText(x);
}
