/**
 * A TraceSession is one trace being looked at: the columnar store, the analysis kept current as
 * events arrive, and the loader's diagnostics. Live and replay differ only in what calls `push`
 * (the WebSocket client or the replay worker's batches).
 *
 * The analysis itself is packages/trace's incremental Analyzer (the same code the CLI runs); this
 * file only forwards batches to it and caches its read side per version.
 */
import { withWholeTrace, type ColumnBatch, type WholeTraceAnalysis } from "@loopscope/trace";
import type {
  Diagnostic,
  Excerpt,
  Finding,
  KeySummary,
  LineFile,
  Pass,
  TraceEvent,
} from "@loopscope/trace";
import { createAnalysis, type LocalAnalysis } from "./analysisPort.ts";
import {
  addLogLines,
  excerptOf,
  MAX_EXCERPT_EVENTS,
  renderExcerpt,
  type ExcerptText,
} from "./excerptPort.ts";
import { fileLines, type LogLines } from "./logLines.ts";
import { RemoteAnalysis, type AnalysisUpdate } from "./remoteAnalysis.ts";
import { TraceStore } from "./traceStore.ts";

export type SourceKind = "none" | "live" | "replay";

/** Lines read back from a file that the session keeps at most (see `logLine`). */
const LINE_CACHE = 256;
/** What a line that can no longer be read from its file shows instead. */
const LINE_GONE = "(this line can no longer be read from the file: was it changed or moved?)";

/** How often views are told of progress while a file loads (see `bump`). */
const LOADING_NOTIFY_MS = 250;

export interface SessionSource {
  kind: SourceKind;
  /** File name, sample path or run name. */
  name?: string;
  /** Sample path or run name a deep link can reopen (absent for a dropped local file). */
  link?: string;
}

export interface LoadProgress {
  bytes: number;
  /** Total bytes when known (a File; not a stream of unknown length). */
  total?: number;
  /** Events the input holds, when known beforehand (a replay server's catch-up). */
  events?: number;
  done: boolean;
  error?: string;
}

/** The excerpt of the key last asked for: built from its first `rows` events, and as shown. */
interface ExcerptEntry {
  key: string;
  rows: number;
  excerpt: Excerpt | undefined;
  /** Its log lines are still being read. */
  pending: boolean;
  /** Rendered, with the whole trace's facts as they were (`whole`, see wholeSpanOf). */
  shown?: { whole: string; value: ExcerptText };
}

export class TraceSession {
  readonly store = new TraceStore();
  /**
   * Live: the Analyzer runs here on each pushed batch. Replay: it runs in the worker and only its
   * results arrive (`pushColumns`). A session is fed one way or the other, never both.
   */
  private analysis: LocalAnalysis | RemoteAnalysis = createAnalysis();
  readonly diagnostics: Diagnostic[] = [];
  /**
   * How many problems the source reported in all, when it sent only the first of them (a replay
   * server caps what it sends); else the length of `diagnostics`.
   */
  diagnosticsTotal = 0;
  progress: LoadProgress = { bytes: 0, done: true };
  version = 0;
  private readonly listeners = new Set<() => void>();
  /** A notification on its way: waiting out the loading interval (timer), or for a frame. */
  private pendingNotify?: { frame: boolean; timer?: ReturnType<typeof setTimeout> };
  private notifiedAt = -Infinity;
  private excerptCache?: ExcerptEntry;
  /**
   * Where the log lines of rows that keep none are read (a dropped klog file, or the replay
   * server); undefined when every row that has a line keeps it.
   */
  private logLines?: LogLines;
  /** The dropped file, when it is where the lines are read. */
  private lineFile?: LineFile;
  /** Lines read back lately, by line number (see `logLine`), and those on their way. */
  private readonly lineCache = new Map<number, string | Promise<void>>();
  private summaryCache = { version: -1, byKey: new Map<string, KeySummary | undefined>() };

  constructor(readonly source: SessionSource = { kind: "none" }) {}

  /** Appends a batch to the store and the analysis; one notification per batch. */
  push(events: readonly TraceEvent[]): void {
    if (events.length === 0) return;
    if (this.analysis instanceof RemoteAnalysis) throw new Error("session is fed by a worker");
    this.store.append(events);
    this.analysis.push(events);
    this.bump();
  }

  /** Appends an encoded batch and what it changed in the analysis (the replay's workers). */
  pushColumns(batch: ColumnBatch, update: AnalysisUpdate): void {
    this.remote().apply(update);
    this.store.appendColumns(batch);
    this.bump();
  }

  /** The analysis that runs elsewhere, once the session is known to be fed that way. */
  private remote(): RemoteAnalysis {
    if (!(this.analysis instanceof RemoteAnalysis)) {
      if (this.store.length > 0) throw new Error("session is fed by events");
      this.analysis = new RemoteAnalysis();
    }
    return this.analysis;
  }

  /** Marks of where `file`'s lines start: the rows read from it keep no lines (see LineFile). */
  addLineMarks(file: Blob, marks: Float64Array): void {
    if (this.lineFile === undefined) this.logLines = this.lineFile = fileLines(file);
    this.lineFile.addMarks(marks);
  }

  /** Reads the log lines of rows that keep none from `source` (the replay server's file). */
  readLinesFrom(source: LogLines): void {
    this.logLines = source;
  }

  /**
   * The log line of the event at `row`: kept in the store, or read back from the file — then
   * `reading` until it is read (the session's version moves when it is). A line the file no longer
   * holds reads as a sentence that says so.
   */
  logLine(row: number): { line?: string; reading?: boolean } {
    const e = this.store.readEvent(row);
    if (e.raw !== undefined || this.logLines === undefined || e.line === undefined) {
      return { line: e.raw };
    }
    const n = e.line;
    const hit = this.lineCache.get(n);
    if (typeof hit === "string") return { line: hit };
    if (hit === undefined) {
      if (this.lineCache.size >= LINE_CACHE) this.lineCache.clear();
      const reading = this.logLines
        .read([n])
        .then(
          (m) => this.lineCache.set(n, m.get(n) ?? LINE_GONE),
          (err: unknown) =>
            this.lineCache.set(
              n,
              err instanceof Error
                ? `(this line can no longer be read: ${err.message})`
                : LINE_GONE,
            ),
        )
        .then(() => this.bump());
      this.lineCache.set(n, reading);
    }
    return { reading: true };
  }

  /** Adds problems found reading the trace; `total`: how many there were, counting unsent ones. */
  addDiagnostics(d: readonly Diagnostic[], total = d.length): void {
    if (d.length === 0 && total === 0) return;
    this.diagnostics.push(...d);
    this.diagnosticsTotal += Math.max(total, d.length);
    this.bump();
  }

  setProgress(p: LoadProgress): void {
    this.progress = p;
    this.bump();
  }

  passesOf(key: string): readonly Pass[] {
    return this.analysis.passesOf(key);
  }

  lastPassOf(key: string): Pass | undefined {
    return this.analysis.lastPassOf(key);
  }

  /** The key's summary; computed once per version (summaries are live values in the Analyzer). */
  summaryOf(key: string): KeySummary | undefined {
    const c = this.summaryCache;
    if (c.version !== this.version) {
      c.version = this.version;
      c.byKey.clear();
    }
    if (!c.byKey.has(key)) c.byKey.set(key, this.analysis.summaryOf(key));
    return c.byKey.get(key);
  }

  findings(): readonly Finding[] {
    return this.analysis.findings();
  }

  /**
   * The annotated excerpt for one key (packages/trace's excerpt). It is built from that key's first
   * events alone, so it is rebuilt only when the key had new ones within them — not on every batch
   * of a live stream of other keys. A key with more events than those takes what only the whole
   * trace knows (its hot loop's length, its passes in span) from the session's analysis.
   */
  excerpt(key: string): ExcerptText | undefined {
    const all = this.store.rowsOf(key).length;
    const rows = Math.min(all, MAX_EXCERPT_EVENTS);
    let c = this.excerptCache;
    if (c?.key !== key || c.rows !== rows) {
      const x = excerptOf(this.store, key);
      const entry: ExcerptEntry = { key, rows, excerpt: x, pending: false };
      this.excerptCache = c = entry;
      const lines = this.logLines;
      if (x && lines) {
        // Shown once its lines are read: an excerpt is the log as the controller wrote it.
        entry.pending = true;
        addLogLines(x, lines)
          // A file that can no longer be read (changed or gone) leaves the canonical text.
          .catch(() => undefined)
          .then(() => {
            entry.pending = false;
            entry.shown = undefined;
            if (this.excerptCache === entry) this.bump();
          });
      }
    }
    if (!c.excerpt) return undefined;
    const capped = all > rows;
    const whole = capped ? this.wholeSpanOf(key) : "";
    if (c.shown?.whole !== whole) {
      const x = capped ? withWholeTrace(c.excerpt, this.wholeAnalysis) : c.excerpt;
      c.shown = { whole, value: renderExcerpt(x) };
    }
    return c.pending ? { ...c.shown.value, pending: true } : c.shown.value;
  }

  /** What withWholeTrace takes from the analysis for `key`, as a string: redone when it changes. */
  private wholeSpanOf(key: string): string {
    const s = this.summaryOf(key);
    const hot = s?.hotLoop
      ? this.findings().find((f) => f.kind === "hot-loop" && f.key === key)?.detail
      : "";
    return `${this.passesOf(key).length} ${s?.quiescent} ${s?.reconcilesForCreate} ${hot}`;
  }

  private readonly wholeAnalysis: WholeTraceAnalysis = {
    passes: (key) => this.passesOf(key),
    summary: (key) => this.summaryOf(key),
    findings: () => this.findings(),
  };

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getVersion = (): number => this.version;

  /**
   * The version moves at once; listeners hear of it at most once an animation frame — and while a
   * file loads, at most every LOADING_NOTIFY_MS: each notification re-renders the views over
   * everything loaded so far, and the page's main thread, not the workers, was what a big load
   * waited for. The change that ends a load is never held back by a wait set while loading.
   */
  private bump(): void {
    this.version++;
    const raf = globalThis.requestAnimationFrame;
    if (!raf) return this.notify();
    const wait = this.progress.done ? 0 : this.notifiedAt + LOADING_NOTIFY_MS - performance.now();
    if (this.pendingNotify !== undefined) {
      if (wait > 0 || this.pendingNotify.frame) return;
      clearTimeout(this.pendingNotify.timer);
    }
    const frame = () => {
      this.pendingNotify = { frame: true };
      raf(() => {
        this.pendingNotify = undefined;
        this.notify();
      });
    };
    if (wait > 0) this.pendingNotify = { frame: false, timer: setTimeout(frame, wait) };
    else frame();
  }

  private notify(): void {
    this.notifiedAt = performance.now();
    for (const l of this.listeners) l();
  }
}
