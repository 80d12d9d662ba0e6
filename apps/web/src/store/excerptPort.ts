/**
 * The annotated excerpt of one key, built by packages/trace's `buildExcerpt` (the same text the
 * CLI prints), in plain text for the screen and Markdown for Copy/Download.
 */
import {
  buildExcerpt,
  renderExcerptMarkdown,
  renderExcerptText,
  type TraceEvent,
} from "@loopscope/trace";
import type { TraceStore } from "./traceStore.ts";

export interface ExcerptText {
  text: string;
  markdown: string;
}

/**
 * The excerpt runs from the key's creation until it is quiescent; it never needs more than the
 * key's first events, so a hot-looping key with a million events costs no more than this cap.
 */
export const MAX_EXCERPT_EVENTS = 20_000;

export function renderExcerpt(store: TraceStore, key: string): ExcerptText | undefined {
  const rows = store.rowsOf(key);
  const events: TraceEvent[] = [];
  const n = Math.min(rows.length, MAX_EXCERPT_EVENTS);
  for (let i = 0; i < n; i++) events.push(store.readEvent(rows[i]));
  const x = buildExcerpt(events, { key });
  return x && { text: renderExcerptText(x), markdown: renderExcerptMarkdown(x) };
}
