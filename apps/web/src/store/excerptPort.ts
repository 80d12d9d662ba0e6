/**
 * The annotated excerpt of one key, built by packages/trace's `buildExcerpt` (the same text the
 * CLI prints), in plain text for the screen and Markdown for Copy/Download.
 */
import {
  buildExcerpt,
  renderExcerptMarkdown,
  renderExcerptText,
  type Excerpt,
  type TraceEvent,
} from "@loopscope/trace";
import type { LogLines } from "./logLines.ts";
import type { TraceStore } from "./traceStore.ts";

export interface ExcerptText {
  /** What the text renders: its rows, tag counts and reconcile count (the counts table's). */
  excerpt: Excerpt;
  text: string;
  markdown: string;
  /** The log lines are still being read from the file (the text shows canonical STAGE text). */
  pending?: boolean;
}

/**
 * The excerpt's rows run from the key's creation for at most 400 events, so its first events are
 * all they need: a hot-looping key with a million events costs no more than this cap. What only
 * the whole trace knows (the hot loop's length, the passes in its span) comes from the session's
 * analysis (TraceSession.excerpt, withWholeTrace).
 */
export const MAX_EXCERPT_EVENTS = 20_000;

/** The key's excerpt, from its first events as the store holds them. */
export function excerptOf(store: TraceStore, key: string): Excerpt | undefined {
  const rows = store.rowsOf(key);
  const events: TraceEvent[] = [];
  const n = Math.min(rows.length, MAX_EXCERPT_EVENTS);
  for (let i = 0; i < n; i++) events.push(store.readEvent(rows[i]));
  return buildExcerpt(events, { key });
}

export function renderExcerpt(x: Excerpt): ExcerptText {
  return { excerpt: x, text: renderExcerptText(x), markdown: renderExcerptMarkdown(x) };
}

/**
 * Gives the excerpt's events their log lines, read from `lines` (for a log whose rows keep none);
 * the excerpt then shows each line as the controller wrote it.
 */
export async function addLogLines(x: Excerpt, lines: LogLines): Promise<void> {
  const events: TraceEvent[] = [];
  for (const r of x.rows) if (r.kind === "event" && r.event.raw === undefined) events.push(r.event);
  const text = await lines.read(events.flatMap((e) => (e.line === undefined ? [] : [e.line])));
  for (const e of events) {
    const raw = e.line === undefined ? undefined : text.get(e.line);
    if (raw !== undefined) e.raw = raw;
  }
}
