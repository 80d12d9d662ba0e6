/**
 * Reads a trace — loopscope JSONL, klog text, or klog text in Docker's json-file records
 * (docker-records.ts), detected from the first non-blank line — from chunks pushed as they arrive
 * (a file stream, a fetch body, a Web Worker message). A klog line a container runtime split into
 * partial records (Docker's, a CRI log's: cri-records.ts) is read joined (partial-lines.ts).
 *
 * Invariants:
 * - Never throws on input: unreadable lines become diagnostics (with 1-based line numbers) and
 *   every readable line is kept.
 * - Events come out in file order, numbered by `seq` from `firstSeq` (default 1), strictly
 *   increasing. A JSONL file's own seqs are kept while they increase (causeSeq refers to them);
 *   from a seq that does not, the file's seqs are shifted and causeSeqs followed (file-seqs.ts),
 *   a moved record's own seq kept in `extra.fileSeq`. A record with the seq and time of the one
 *   before it is a line written twice, skipped with a diagnostic.
 * - At most `maxDiagnostics` diagnostics are kept; `diagnosticCount` counts them all.
 * - A line with NUL bytes (a log written across a crash or a truncation holds a run of them) is
 *   read from after its last NUL, with a diagnostic; what came before them was cut short and is
 *   not read. Only an input with no trace line at all is binary (see whyNotATrace).
 * - A line joined from a runtime's partial records is read when its last record comes, on the line
 *   of its first: its events follow those of the other stream's lines that came between.
 */
import type { TraceEvent, UnsequencedEvent } from "../event.ts";
import type { Diagnostic } from "../analysis/model.ts";
import { LineSplitter, MAX_LINE, type Utf8Decoder } from "../lines/splitter.ts";
import { KlogParser, type KlogOptions } from "../klog/klog-parser.ts";
import { shadowBytes } from "../klog/byte-span.ts";
import type { StageRowTaker } from "../klog/stage-fields.ts";
import { decodeHeader, isHeaderRecord, type TraceHeader } from "../jsonl/format.ts";
import { decodeEvent } from "../jsonl/decode-event.ts";
import { gluedRecords, type GluedRecords } from "../jsonl/glued-records.ts";
import { FileSeqs } from "./file-seqs.ts";
import { dockerRecord, isDockerLine, takeDockerRecord } from "./docker-records.ts";
import { streamAt, takeCriRecord } from "./cri-records.ts";
import { PartialLines, type JoinedLine } from "./partial-lines.ts";
import { BACKWARDS_US, timeWentBack } from "./time-back.ts";
import { foreignTsUnit, type TsUnit } from "./ts-unit.ts";

/** "docker-json": klog lines in Docker's json-file records (see docker-records.ts). */
export type TraceFormat = "klog" | "jsonl" | "docker-json";

export interface ReaderOptions extends KlogOptions {
  /** Skip detection. */
  format?: TraceFormat;
  /** seq of the first event (default 1). */
  firstSeq?: number;
  /** Diagnostics kept in `diagnostics` (default 1000). */
  maxDiagnostics?: number;
  /** A faster UTF-8 decoder for whole lines than TextDecoder (Node: see apps/server's cli/utf8.ts). */
  decode?: Utf8Decoder;
  /**
   * Takes a klog log's canonical STAGE lines as rows (they then count as events, with their seq,
   * but reach no sink); the lines it declines, and all others, become events as usual.
   */
  rows?: StageRowTaker;
}

export class TraceReader {
  format: TraceFormat | undefined;
  /** The JSONL header, once read. */
  header: TraceHeader | undefined;
  readonly diagnostics: Diagnostic[] = [];
  diagnosticCount = 0;
  /** Events produced so far. */
  events = 0;
  /** Lines that held NUL bytes (see nulLine). */
  nulLines = 0;
  /** The first line over the length limit (MAX_LINE), not read; undefined while none was. */
  overlongLine: number | undefined;

  private readonly splitter: LineSplitter;
  private readonly klog: KlogParser;
  private nextSeq: number;
  /** A JSONL file's own seqs, and its last numbered record's (see jsonLine). */
  private fileSeqs: FileSeqs | undefined;
  private lastFileSeq: number | undefined;
  private out: TraceEvent[] = [];
  private sink: ((e: TraceEvent) => void) | undefined;
  private readonly maxDiagnostics: number;
  private jsonLines = 0;
  /**
   * The decoded window the byte path saw last, and whether it holds a NUL or U+FFFD (invalid
   * UTF-8): its lines are then read as text (see line), for those are searched once per window,
   * not per line. (U+FFFD is found at once in a window of one-byte characters: it cannot be one.)
   */
  private window = "";
  private oddWindow = false;
  /** The time of the last JSONL record, and how often it went back (see time-back.ts). */
  private jsonTs = -Infinity;
  private timeJumps = 0;
  /** The unit of a JSONL file's `ts` when its first record's is not microseconds (see ts-unit.ts). */
  private tsUnit: TsUnit | undefined;
  /** A Docker json-file log's lines begun in partial records (see dockerLine). */
  private docker: PartialLines | undefined;
  /** A klog log's lines begun in CRI partial records (see criPiece). */
  private readonly cri = new PartialLines(MAX_LINE);
  /** The shadowBytes of a line that came as text and may be a CRI record (see readLine). */
  private shadow: Uint8Array = new Uint8Array(256);
  /** The line being read from after its NULs, whole (see line). */
  private wholeLine: string | undefined;
  /** The number of the line being read when it holds U+FFFD, else 0 (see badKey). */
  private replacedIn = 0;
  private readonly onLine = (line: string, no: number, terminated: boolean, overlong?: number) => {
    if (overlong === undefined) this.line(line, no, terminated);
    else {
      this.overlongLine ??= no;
      this.diagnose({
        line: no,
        level: "error",
        message: `line of ${overlong} bytes, over the ${MAX_LINE >> 20} MiB limit; skipped`,
      });
    }
  };

  /** A line whose bytes are its characters (see ByteLineSink): klog reads it on the bytes. */
  private readonly onBytes = (
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    no: number,
  ) => {
    if (text !== this.window) {
      this.window = text;
      this.oddWindow = text.indexOf("\0") >= 0 || text.indexOf("\uFFFD") >= 0;
    }
    if (this.format === "klog" && !this.oddWindow) {
      const stream = streamAt(bytes, start, end);
      if (stream < 0 || !this.criPiece(bytes, text, start, stream, end, no, true)) {
        this.klog.lineAt(bytes, text, start, end, no, this.nextSeq);
      }
    } else this.line(text.slice(start, end), no, true);
  };

  constructor(private readonly opts: ReaderOptions = {}) {
    this.splitter = new LineSplitter(opts.decode);
    this.format = opts.format;
    this.nextSeq = opts.firstSeq ?? 1;
    this.maxDiagnostics = opts.maxDiagnostics ?? 1000;
    const rows = opts.rows;
    /** The taker's rows count as events: each takes the seq its event would have had. */
    const taken = (yes: boolean): boolean => {
      if (yes) {
        this.nextSeq++;
        this.events++;
      }
      return yes;
    };
    this.klog = new KlogParser(
      opts,
      (e, numbered) => this.emit(e, numbered),
      (d) => this.diagnose(d),
      rows && {
        take: (f, at, text, a, b) => taken(rows.take(f, at, text, a, b)),
        takeSynced: (f, at, text, a, b) => taken(rows.takeSynced(f, at, text, a, b)),
      },
      () => this.nextSeq,
    );
  }

  /**
   * The input's bytes stopped before its end (a gzip file cut short): a warning at the next line,
   * saying that what came before was read and nothing after. Call before `end`.
   */
  inputStopped(why: string): void {
    this.diagnose({
      line: this.lines + 1,
      level: "warn",
      message: `the data stops here (${why}): the lines before it were read, nothing after`,
    });
  }

  /**
   * The input's bytes came whole but failed their check at the end (a gzip file whose CRC32 or
   * size does not match what decompressed): every line was read, and any may be corrupt. `why`
   * says which check, in words ("the gzip data failed its check (incorrect data check)"). A
   * warning at the next line; call before `end`.
   */
  inputFailedCheck(why: string): void {
    this.diagnose({
      line: this.lines + 1,
      level: "warn",
      message: `${why}: every line was read, but any of them may be corrupt`,
    });
  }

  /** Lines seen so far. */
  get lines(): number {
    return this.splitter.lines;
  }

  /**
   * Lines recognized as trace input (klog lines, JSONL header and records), readable or not as
   * events. Zero for a non-empty input means it is not a trace at all.
   */
  get recognizedLines(): number {
    return this.klog.klogLines + this.jsonLines;
  }

  /** klog lines dropped as client-go noise. */
  get noiseLines(): number {
    return this.klog.noiseLines;
  }

  /**
   * Feeds a chunk; returns the events completed by it, in order — or, with `sink`, hands each
   * event to it as soon as it is read and returns nothing. The sink is the fast way for big
   * inputs: events die young instead of a whole chunk's worth surviving a garbage collection.
   * The chunk is not kept: its memory may be refilled once push returns (one read buffer for a
   * whole file spares a fresh buffer, and its page faults, per chunk).
   */
  push(chunk: Uint8Array | string, sink?: (e: TraceEvent) => void): TraceEvent[] {
    this.sink = sink;
    try {
      this.splitter.push(chunk, this.onLine, this.onBytes);
    } finally {
      this.sink = undefined;
    }
    return this.take();
  }

  /** Ends the input (a final line without "\n" is read now); returns the last events, or hands them to `sink`. */
  end(sink?: (e: TraceEvent) => void): TraceEvent[] {
    this.sink = sink;
    try {
      this.splitter.end(this.onLine);
      for (const l of this.docker?.rest() ?? []) this.partialEnd(l, "Docker");
      for (const l of this.cri.rest()) this.partialEnd(l, "CRI");
      this.klog.end(this.nextSeq);
    } finally {
      this.sink = undefined;
    }
    return this.take();
  }

  /**
   * For a reader that reads loopscope's own JSONL records itself, bytes straight to columns (the
   * web replay's worker): whether the record with this `seq` and `ts` may be taken as it is —
   * JSONL input past its first record, `seq` (a valid one: a safe integer ≥ 1, < 2^52) increasing
   * in a file whose seqs were kept so far (see file-seqs.ts), and `ts` not far back (see time-back.ts) — and if so, counts it as read. Its line must still be
   * pushed, as a blank line, to keep line numbers.
   */
  takeRecord(seq: number, ts: number): boolean {
    if (
      this.format !== "jsonl" ||
      // The first record's ts decides the file's unit; a file in another unit is read here.
      this.events === 0 ||
      this.tsUnit !== undefined ||
      ts < this.jsonTs - BACKWARDS_US ||
      !(this.fileSeqs ??= new FileSeqs(this.nextSeq)).keeps(seq)
    ) {
      return false;
    }
    this.jsonTs = ts;
    this.nextSeq = this.fileSeqs.take(seq) + 1;
    this.lastFileSeq = seq;
    this.events++;
    this.jsonLines++;
    return true;
  }

  private take(): TraceEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private line(text: string, no: number, terminated: boolean): void {
    this.replacedIn = text.indexOf("\uFFFD") >= 0 ? no : 0;
    const nul = text.indexOf("\0");
    if (nul >= 0) {
      const after = this.nulLine(text, nul, no);
      // Its events' `raw` stays the whole line: a replay reads klog lines back from the file.
      this.wholeLine = text;
      if (after.length > 0) this.readLine(after, no, terminated);
      this.wholeLine = undefined;
    } else this.readLine(text, no, terminated);
    this.replacedIn = 0;
  }

  private readLine(text: string, no: number, terminated: boolean): void {
    if (this.format === undefined) {
      const t = text.trimStart();
      if (t.length === 0) return;
      this.format = !t.startsWith("{") ? "klog" : isDockerLine(t) ? "docker-json" : "jsonl";
    }
    if (this.format === "klog") {
      // Its bytes are its shadowBytes, made only for a line that may be a CRI record.
      const c = text.charCodeAt(0);
      if (c >= 48 && c <= 57) {
        const bytes = (this.shadow = shadowBytes(text, this.shadow));
        const stream = streamAt(bytes, 0, text.length);
        if (stream >= 0 && this.criPiece(bytes, text, 0, stream, text.length, no, terminated)) {
          return;
        }
      }
      // klog ends every line it writes: a last line without an end was cut mid-write, and what it
      // says (a pass end cut to `"`) may be wrong or missing.
      if (!terminated && text.trim().length > 0) this.endsInside(no);
      this.klog.line(text, no, this.nextSeq, terminated);
    } else if (this.format === "docker-json") this.dockerLine(text, no, terminated);
    else this.jsonLine(text, no, terminated);
  }

  private endsInside(no: number): void {
    this.diagnose({
      line: no,
      level: "warn",
      message: "the log ends inside this line (cut mid-write?): it may be incomplete",
    });
  }

  /**
   * The line text[start, end) of a klog log, if it is a CRI record that holds a piece of a longer
   * line (see cri-records.ts): kept, or the line its `F` record ends read, as the one line it
   * was. False, nothing done, for any other line: a whole record is read as it is, prefix and all.
   */
  private criPiece(
    bytes: Uint8Array,
    text: string,
    start: number,
    stream: number,
    end: number,
    no: number,
    terminated: boolean,
  ): boolean {
    const l = takeCriRecord(this.cri, bytes, text, start, stream, end, no);
    if (l === false) return false;
    this.joined(l, no, terminated, "CRI");
    return true;
  }

  /**
   * What a container runtime's record, line `no`, gave (see partial-lines.ts): a line, read; the
   * length of one over the limit, said; or nothing while its line goes on. `terminated`: whether
   * the record ended as the runtime ended it (not a log's last line cut mid-write).
   */
  private joined(
    l: JoinedLine | number | undefined,
    no: number,
    terminated: boolean,
    runtime: Runtime,
  ): void {
    if (l === undefined) return;
    if (typeof l === "number") {
      this.partialOverlong(l, no, runtime);
      return;
    }
    if (!terminated) this.endsInside(l.line);
    this.readJoined(l, terminated);
  }

  /**
   * A klog line joined from records: its key is judged by its own text (see badKey), not by the
   * record that ended it alone.
   */
  private readJoined(l: JoinedLine, terminated: boolean): void {
    const replacedIn = this.replacedIn;
    this.replacedIn = l.text.indexOf("\uFFFD") >= 0 ? l.line : 0;
    this.klog.line(l.text, l.line, this.nextSeq, terminated);
    this.replacedIn = replacedIn;
  }

  /**
   * A record of a Docker json-file log: the klog line it ends (its partial records' pieces
   * joined) is read, with the record's time before it (see docker-records.ts).
   */
  private dockerLine(text: string, no: number, terminated: boolean): void {
    if (text.trim().length === 0) return;
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch {
      this.diagnose(notJson(no, terminated));
      return;
    }
    const r = dockerRecord(rec);
    if (r === undefined) {
      this.diagnose({
        line: no,
        level: "error",
        message: 'not a record of Docker\'s json-file log (no "log" string); line skipped',
      });
      return;
    }
    // A record that is JSON was written whole.
    const lines = (this.docker ??= new PartialLines(MAX_LINE));
    this.joined(takeDockerRecord(lines, r, no), no, true, "Docker");
  }

  /** A line begun in partial records that the log ends inside: read, as klog's torn last line. */
  private partialEnd(l: JoinedLine | number, runtime: Runtime): void {
    const no = this.lines + 1;
    if (typeof l === "number") {
      this.partialOverlong(l, no, runtime);
      return;
    }
    this.diagnose({
      line: l.line,
      level: "warn",
      message: `the log ends inside this line (${LAST_RECORD[runtime]} never came): it may be incomplete`,
    });
    this.readJoined(l, false);
  }

  private partialOverlong(length: number, no: number, runtime: Runtime): void {
    this.overlongLine ??= no;
    this.diagnose({
      line: no,
      level: "error",
      message: `line of ${length} characters in ${runtime} partial records, over the ${MAX_LINE >> 20} MiB limit; skipped`,
    });
  }

  /**
   * A line with NUL bytes, the first at `first`: what follows its last NUL is what was written
   * after the crash (often the next start's first line), so that is read; what precedes its first
   * was cut short by them. Returns the part to read ("" for none).
   */
  private nulLine(text: string, first: number, no: number): string {
    this.nulLines++;
    const last = text.lastIndexOf("\0");
    let count = 0;
    for (let i = first; i <= last; i++) if (text.charCodeAt(i) === 0) count++;
    const before = text.slice(0, first).trim().length;
    const after = text.slice(last + 1);
    const read = after.trim().length > 0;
    const lost =
      before > 0 ? `; the ${before} characters before them, cut short, were not read` : "";
    this.diagnose({
      line: no,
      level: read || before === 0 ? "warn" : "error",
      message: `${count} NUL byte${count === 1 ? "" : "s"} (a log written across a crash or a truncation?)${read ? ": read from after them" : ""}${lost}`,
    });
    return read ? after : "";
  }

  private jsonLine(text: string, no: number, terminated: boolean): void {
    if (text.trim().length === 0) return;
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch {
      const glued = gluedRecords(text);
      if (glued !== undefined) {
        this.jsonLines++;
        this.diagnose(gluedDiagnostic(glued, no));
        for (const r of glued.records) this.jsonRecord(r, no);
        return;
      }
      this.diagnose(notJson(no, terminated));
      return;
    }
    if (typeof rec === "object" && rec !== null) this.jsonLines++;
    this.jsonRecord(rec, no);
  }

  /** One JSON value of line `no`: the header, or an event record. */
  private jsonRecord(rec: unknown, no: number): void {
    if (isHeaderRecord(rec)) {
      if (this.header || this.events > 0) {
        this.diagnose({ line: no, level: "warn", message: "a second trace header; ignored" });
        return;
      }
      this.header = decodeHeader(rec);
      if (this.header.version !== 1) {
        this.diagnose({
          line: no,
          level: "warn",
          message: `trace format version ${this.header.version}; this reader knows version 1 and keeps unknown fields`,
        });
      }
      return;
    }
    if (!this.header && this.events === 0) {
      this.diagnose({
        line: no,
        level: "warn",
        message: 'no {"loopscope":"trace"} header line; reading records anyway',
      });
    }
    const r = decodeEvent(rec);
    if (!r.ok) {
      this.diagnose({ line: no, level: "error", message: r.message });
      return;
    }
    const e = r.event;
    if (this.badKey(e)) return;
    if (this.events === 0) this.firstTs(e.ts, no);
    if (this.tsUnit !== undefined) e.ts = Math.round(e.ts * this.tsUnit.toMicros);
    if (e.ts < this.jsonTs - BACKWARDS_US) {
      const d = timeWentBack(no, e.ts, this.jsonTs, ++this.timeJumps);
      if (d !== undefined) this.diagnose(d);
    }
    const fileSeq = r.hasSeq ? e.seq : undefined;
    if (fileSeq !== undefined && fileSeq === this.lastFileSeq && e.ts === this.jsonTs) {
      this.diagnose({
        line: no,
        level: "warn",
        message: `the record before again (seq ${fileSeq}, the same time): a line written twice; skipped`,
      });
      return;
    }
    this.jsonTs = e.ts;
    this.fileSeqs ??= new FileSeqs(this.nextSeq);
    this.fileSeqs.number(e, r.hasSeq);
    this.nextSeq = e.seq + 1;
    if (this.fileSeqs.movedRun && fileSeq !== undefined) {
      this.diagnose({
        line: no,
        level: "warn",
        message: `seq ${fileSeq} does not increase${this.lastFileSeq === undefined ? "" : ` (the record before had ${this.lastFileSeq})`}: it and the numbered records after it read ${e.seq - fileSeq} higher (${e.seq}, ${e.seq + 1}, …), their causeSeqs followed`,
      });
    }
    if (fileSeq !== undefined) this.lastFileSeq = fileSeq;
    this.events++;
    if (this.sink) this.sink(e);
    else this.out.push(e);
  }

  /** The first record's `ts`, line `no`: the file's unit (see ts-unit.ts). */
  private firstTs(ts: number, no: number): void {
    const created = this.header?.created;
    this.tsUnit = foreignTsUnit(ts, created === undefined ? undefined : Date.parse(created));
    if (this.tsUnit === undefined) return;
    const when = new Date(ts * this.tsUnit.toMicros * 1e-3).toISOString();
    this.diagnose({
      line: no,
      level: "warn",
      message: `"ts" ${ts} reads as ${this.tsUnit.name} since the Unix epoch (${when.slice(0, 10)} ${when.slice(11, 23)} UTC), not microseconds as the format says: every record's ts is read as ${this.tsUnit.name}`,
    });
  }

  /** `numbered`: e.seq is already the next seq (see LineContext.seq). */
  private emit(e: UnsequencedEvent, numbered?: boolean): void {
    if (this.badKey(e)) return;
    if (this.wholeLine !== undefined && e.raw !== undefined) e.raw = this.wholeLine;
    if (numbered !== true) (e as TraceEvent).seq = this.nextSeq;
    this.nextSeq++;
    this.events++;
    if (this.sink) this.sink(e as TraceEvent);
    else this.out.push(e as TraceEvent);
  }

  /**
   * Whether the event's key holds U+FFFD — bytes of the line that were not UTF-8 — and so names
   * no Foo: a stage event is not read (it would make a phantom Foo), a note keeps its text and
   * loses the key. Either way with a diagnostic.
   */
  private badKey(e: UnsequencedEvent): boolean {
    if (this.replacedIn === 0 || e.key.indexOf("\uFFFD") < 0) return false;
    const note = e.stage === "note";
    this.diagnose({
      line: this.replacedIn,
      level: note ? "warn" : "error",
      message: `invalid UTF-8 in the key ${JSON.stringify(e.key)}: ${note ? "the line is kept as a note of no Foo" : "line not read"}`,
    });
    if (!note) return true;
    e.key = "";
    return false;
  }

  private diagnose(d: Diagnostic): void {
    this.diagnosticCount++;
    if (this.diagnostics.length < this.maxDiagnostics) this.diagnostics.push(d);
  }
}

/** The runtimes whose partial records the reader joins (see partial-lines.ts). */
type Runtime = "Docker" | "CRI";

/** The record that ends a line, as a diagnostic names it. */
const LAST_RECORD: Record<Runtime, string> = {
  Docker: "its last Docker partial record",
  CRI: "the CRI record tagged F that ends it",
};

/** What the reader says of a line that held several JSON records (see gluedRecords). */
function gluedDiagnostic(g: GluedRecords, line: number): Diagnostic {
  const n = g.records.length;
  const read =
    g.cut === 0
      ? `${n} JSON records on one line (a newline lost?): ${n === 2 ? "both" : "all"} read`
      : `JSON records on one line after text that is none (a record cut short, then the next written after it?): ${n} read, ${g.cut} cut-short part${g.cut === 1 ? "" : "s"} not read`;
  const message =
    g.unread === undefined
      ? read
      : `${read}; the rest of the line, from character ${g.unread + 1}, was not read (too many cut-short parts to take apart)`;
  return { line, level: "warn", message };
}

/** Line `no` is no JSON value: a bad line, or, unterminated, a last line torn mid-write. */
function notJson(no: number, terminated: boolean): Diagnostic {
  return terminated
    ? { line: no, level: "error", message: "not a JSON record; line skipped" }
    : { line: no, level: "warn", message: "torn last line (the file was cut mid-write); ignored" };
}
