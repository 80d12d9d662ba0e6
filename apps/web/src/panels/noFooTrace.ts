/**
 * What a trace without a single Foo holds — e.g. the log of another controller (a
 * kube-controller-manager's), opened by mistake: how many events, how many of them notes (lines
 * kept for context), and which source files wrote those — so the objects panel can say what it
 * found instead of an empty table. Only asked for when the trace has no key.
 */
import { KIND_CODES } from "@loopscope/trace";
import type { TraceStore } from "../store/traceStore.ts";

const NOTE = KIND_CODES.indexOf("note");
/** Rows whose source is read: enough to name a log's writers, bounded for a big foreign log. */
export const SCANNED_ROWS = 10_000;

export interface NoFooTrace {
  events: number;
  /** Notes among the first SCANNED_ROWS events. */
  notes: number;
  /** The notes' source files ("controllermanager.go"), most notes first, then by name. */
  sources: { file: string; notes: number }[];
  /** Whether only the first SCANNED_ROWS events were looked at. */
  sampled: boolean;
}

export function noFooTrace(store: TraceStore): NoFooTrace {
  const n = Math.min(store.length, SCANNED_ROWS);
  const byFile = new Map<string, number>();
  let notes = 0;
  for (let row = 0; row < n; row++) {
    if (store.stage.data[row] !== NOTE) continue;
    notes++;
    const src = store.readEvent(row).src;
    if (!src) continue;
    // "controllermanager.go:761" → "controllermanager.go": one writer, many call sites.
    const file = src.replace(/:\d+$/, "");
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
  }
  const sources = [...byFile]
    .map(([file, count]) => ({ file, notes: count }))
    .sort((a, b) => b.notes - a.notes || a.file.localeCompare(b.file));
  return { events: store.length, notes, sources, sampled: store.length > n };
}

/** "controllermanager.go (3), deployment_controller.go, … and 2 more files". */
export function sourceList(sources: NoFooTrace["sources"], shown = 4): string {
  const named = sources
    .slice(0, shown)
    .map((s) => (s.notes > 1 ? `${s.file} (${s.notes})` : s.file));
  const more = sources.length - named.length;
  return more > 0
    ? `${named.join(", ")} and ${more} more file${more === 1 ? "" : "s"}`
    : named.join(", ");
}
