/**
 * Turns klog text lines into events: STAGE lines become stage events, the controller's
 * pass-end lines become `done` events, other controller lines become `note` events, and
 * client-go's own chatter (reflector, informer, event recorder, HTTP tracing) is dropped as noise
 * so it never reaches per-key statistics — except the line of an Event about a Foo, which is a
 * note of that Foo's (see event-line.ts).
 *
 * Invariants:
 * - A line that contains "STAGE/" but cannot be read yields a diagnostic with its line number;
 *   nothing else about it is guessed.
 * - klog prints no year: the year comes from `year`, else from an RFC 3339 prefix on the line,
 *   else from the current date, and the reader says which (one info diagnostic). A line's year is
 *   the one nearest the line above's: a month more than half a year back (December → January) is
 *   the next year's, one more than half a year on (January → December) the year before's. A date
 *   no year has (Feb 30) is said, the line timed by the line before; it moves no year.
 * - Times are read as UTC (klog prints the controller's local time; the offset is unknowable).
 * - A line's time more than BACKWARDS_US before the line above's gets a diagnostic; goroutine
 *   jitter, far less, does not (see reader/time-back.ts).
 * - A klog header inside a line's message is another line glued into it (see glued): the line is
 *   read as the lines it holds, with a warning.
 * - A STAGE line that ends in its key, where every line of its call site before it went on after
 *   the key (CUT_EVIDENCE of them at least), was cut short inside the key: it is said and not
 *   read (see cutShort).
 * - A STAGE line's warning with a `once` (a repeated name, a reserved one) is said once per file.
 * - A line that ends in klog's `key=<` opens a multi-line value: it and the lines of its value are
 *   read as one line when its ` >` line comes (see multi-line.ts).
 */
import type { UnsequencedEvent } from "../event.ts";
import type { Diagnostic } from "../analysis/model.ts";
import {
  baseFile,
  headerSpan,
  readHeaderBytes,
  readPrefixedHeader,
  yearInPrefix,
} from "./header.ts";
import { mayBeMarker, parseMarker, SYNCED } from "./markers.ts";
import {
  endedInKey,
  hadWords,
  readStageLine,
  structuredAt,
  tagAt,
  type StageWarning,
} from "./stage-line.ts";
import {
  stageEvent,
  stageFields,
  type LineContext,
  type StageFields,
  type StageRowTaker,
} from "./stage-fields.ts";
import { copyAscii, sameSpan, shadowBytes } from "./byte-span.ts";
import { mayHaveField, pick, scanFields } from "./fields.ts";
import { readGoQuoted } from "./go-quote.ts";
import { mayBeEvent, readEventLine, saysWarning, type EventAbout } from "./event-line.ts";
import { BACKWARDS_US, timeWentBack } from "../reader/time-back.ts";
import { MultiLineEntry } from "./multi-line.ts";
import { RepeatedLines } from "./repeated-lines.ts";
import { klogClockEastMin, printfTime, rfc3339Time } from "./line-time.ts";
import { MAX_LINE } from "../lines/splitter.ts";

export interface KlogOptions {
  /** The year klog lines belong to. Default: from the line prefix, else the current year. */
  year?: number;
  /** Keep client-go noise (reflector, event recorder …) as `note` events with key "". */
  keepNoise?: boolean;
  /** Clock for the default year (tests). */
  now?: () => Date;
}

/** Files whose lines are client-go machinery, not the controller talking. */
export const NOISE_FILES = new Set([
  "reflector.go",
  "shared_informer.go",
  "event.go",
  "round_trippers.go",
  "request.go",
  "warnings.go",
  "leaderelection.go",
  "listwatch.go",
  "streamwatcher.go",
  "retrywatcher.go",
  "cert_rotation.go",
  "dynamic_cafile_content.go",
  "tlsconfig.go",
  "envvar.go",
  "loader.go",
  "merged_client_builder.go",
]);

const NOTE_KEYS = ["objectname", "objectreference", "objectref", "resourcename", "key"];

/** A source location ("controller.go:131") once cut from a line, and whether it is noise. */
interface Source {
  text: string;
  /** Its number, one per Source made (see StageFields.srcId). */
  id: number;
  noise: boolean;
  /** Its bytes, when they are ASCII (see freshSource). */
  code: Uint8Array | undefined;
  /**
   * Its STAGE lines, since it was cached or one was found cut short, that went on after their
   * key, counted up to CUT_EVIDENCE; -1 once one ended in its key (the call site's own shape).
   */
  pastKey: number;
}

/** SYNCED's bytes, to compare a line's with (see syncedKey). */
const SYNCED_BYTES = new TextEncoder().encode(SYNCED);

/**
 * What sample-controller's Run prints as it starts, in every version (quoted since v0.27): the
 * controller's own process, before its first STAGE line gives it (see otherProcess).
 */
const STARTING_BYTES = new TextEncoder().encode("Starting Foo controller");

/** `kubectl logs --prefix`'s prefix: `[pod/<pod>/<container>] ` (kubectl's logs.go). */
const POD_PREFIX = /^\[(pod\/[^/\]\s]+\/[^/\]\s]+)\] /;

/**
 * Slots of the source-location cache. A log names a few dozen locations over and over: each
 * line's is looked up here, so it is cut out (and checked against NOISE_FILES) once, not per line.
 * Each cached string may keep the decoded text it was cut from alive: at most this many of them.
 */
const SOURCE_SLOTS = 128;

/** A glued word shown in a diagnostic: at most this many characters of it. */
const SHOWN = 40;

/**
 * The names a file's once-said warnings remember (see StageWarning): as many as the reader keeps
 * diagnostics. A log that repeats new names on every line (a million of them) is said each time
 * past these, counted, not remembered without bound.
 */
const ONCE_KEPT = 1000;

/**
 * The passes the reader keeps open at most (see openPasses): far more than a controller's workers,
 * so more means a log whose pass ends are not in it.
 */
const OPEN_KEPT = 64;

const DAY_MS = 86_400_000;

/**
 * Lines of a call site, each going on after its key, before one that ends in its key is taken for
 * cut short (see cutShort). One klog call prints one format, so one such line would do; a call
 * site that prints its fields in any order (the bench's `reordered` shape: the key last on about
 * one line in five) goes on after the key on this many lines in a row about once in a million.
 */
const CUT_EVIDENCE = 64;

/**
 * The same, for a log's last line without its "\n": klog ends every line, so that one was cut
 * mid-write (a log saved while its controller ran) and a few lines of its call site are evidence
 * enough. Read, a key cut to `default/example-fo` is a Foo that is not, and takes its event from the
 * one that is.
 */
const UNENDED_CUT_EVIDENCE = 3;

export class KlogParser {
  private year: number | undefined;
  private lastMonth = 0;
  private dayKey = -1;
  private dayMs = 0;
  private lastTs = 0;
  private headerlessNoted = false;
  /**
   * The date klog's own log file header gives (`Log file created at: 2024/12/02 09:14:00`, the
   * first line of a file written with --log_file or --log_dir): the year its lines do not say.
   */
  private fileCreated: { year: number; month: number; day: number } | undefined;
  /** Times a line's time went back more than BACKWARDS_US (see wentBack). */
  private timeJumps = 0;
  private jsonNoted = false;
  /** Lines read as klog: with a header, or header-less STAGE lines. */
  klogLines = 0;
  /** Lines with a klog header that were dropped as client-go noise. */
  noiseLines = 0;
  /** Lines that carried neither a klog header nor a STAGE tag (continuations, other output). */
  foreignLines = 0;
  /** The header of the current line (one record, refilled per line). */
  private readonly header = headerSpan();
  private readonly sources: (Source | undefined)[] = new Array(SOURCE_SLOTS);
  private sourceCount = 0;
  /** Where the current STAGE line is read, and its fields (records refilled per line). */
  private readonly where: LineContext = { ts: 0, src: "", line: 0, seq: 0 };
  private readonly fields: StageFields = stageFields();
  /** Warnings of the current STAGE line (see readStageLine), emptied as they are said. */
  private readonly warnings: StageWarning[] = [];
  /** The `once` of each warning said (see StageWarning), the first ONCE_KEPT of them. */
  private readonly saidOnce = new Set<string>();
  /**
   * Whether the current line ends where its writer ended it: not a log's last line without its
   * "\n" (read as it is, with its own warning), nor the part of a line before a glued one (its
   * last word was left out). Only such a line is judged cut short (see cutShort).
   */
  private wholeEnd = true;
  /** Whether the current line is a log's last one, without its "\n" (see UNENDED_CUT_EVIDENCE). */
  private unended = false;
  /** The next "STAGE/" in `tagText` at or after `tagFrom` (-1: none). */
  private tagText = "";
  private tagFrom = 0;
  private tagAt = -1;
  /** The shadowBytes of lines that came as text, refilled line after line. */
  private shadow: Uint8Array = new Uint8Array(256);
  /** The header of a line glued into the current one (see glued), refilled. */
  private readonly gluedHeader = headerSpan();
  /** The entry whose multi-line value is being gathered (see multi-line.ts). */
  private entry: MultiLineEntry | undefined;
  /** The shadowBytes of a gathered entry, refilled (see readEntry). */
  private entryShadow: Uint8Array = new Uint8Array(256);
  /** Whether the line being read is a gathered entry (see readEntry). */
  private inEntry = false;
  /** The first line of that entry, its events' `raw` (see emit). */
  private entryRaw: string | undefined;
  /**
   * The time zone klog's headers are written in, as the first wrapped klog line tells (0 when
   * its wrapper says no time): a header-less line's wrapper time is read in it (see carriedTs).
   */
  private klogClockEastMin: number | undefined;

  constructor(
    private readonly opts: KlogOptions,
    /** Hands on an event, numbered by the caller — or already, with `numbered` (see LineContext.seq). */
    private readonly emitEvent: (e: UnsequencedEvent, numbered?: boolean) => void,
    private readonly diag: (d: Diagnostic) => void,
    /** Takes canonical lines as rows instead of events (see StageRowTaker). */
    private readonly rowTaker?: StageRowTaker,
    /**
     * The seq the next event takes (the caller numbers them): asked for each line glued into a
     * line, after the parts before it, which may have made an event or not (see glued). Without
     * it, the line's seq.
     */
    private readonly nextSeq?: () => number,
  ) {}

  /** The writer of the latest STAGE line or controller start (see otherProcess). */
  private stageWriter: number | undefined;
  /** The writers a `kubectl logs --prefix` pod names, by prefix and pid (see prefixedWriter). */
  private readonly podWriters = new Map<string, number>();
  /** Their names, writer -1 first (see writerName). */
  private readonly podNames: string[] = [];
  /** Whether a pass end of another process was said (see otherProcessLine). */
  private otherNoted = false;
  /**
   * The keys of the passes open — dequeued, their pass end not yet read — for a STAGE/read or
   * write line that names no key (the exercise's read line prints only the resourceVersion): it
   * is the open pass's when one is open; with more (two workers at once) whose it is cannot be
   * told. Null once more than OPEN_KEPT are open: a log without pass ends says nothing of them.
   */
  private openPasses: string[] | null = [];
  /** Lines written twice (see repeated-lines.ts). */
  private readonly repeated = new RepeatedLines();

  /**
   * Reads a line that came as text (not ASCII, or from a string chunk) on its shadowBytes, as
   * lineAt reads a line of bytes — into events only: the reader checks such a line's events (a key
   * with invalid UTF-8, the whole line of one cut by NULs) where it takes them. `seq`: the seq the
   * line's event would take.
   */
  line(text: string, lineNo: number, seq: number, terminated = true): void {
    this.shadow = shadowBytes(text, this.shadow);
    if (
      this.repeated.again(text, 0, text.length) &&
      this.twice(this.shadow, text, 0, text.length, lineNo)
    ) {
      return;
    }
    this.wholeEnd = terminated;
    this.unended = !terminated;
    this.read(this.shadow, text, 0, text.length, lineNo, seq, undefined);
    this.wholeEnd = true;
    this.unended = false;
  }

  /**
   * Reads the line text[start, end), whose bytes are bytes[start, end) at the same offsets (see
   * ByteLineSink): canonical STAGE and success lines are offered to the row taker, if any.
   */
  lineAt(
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    lineNo: number,
    /** The seq the line's event would take. */
    seq: number,
  ): void {
    if (this.repeated.again(text, start, end) && this.twice(bytes, text, start, end, lineNo))
      return;
    this.read(bytes, text, start, end, lineNo, seq, this.rowTaker);
  }

  /**
   * Line `lineNo`, the same as the line before: skipped if it is a klog line, whose header's time
   * no honest second line has (see repeated-lines.ts).
   */
  private twice(
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    lineNo: number,
  ): boolean {
    const h = this.header;
    if (!readHeaderBytes(bytes, start, end, h) && !readPrefixedHeader(bytes, text, start, end, h)) {
      return false;
    }
    this.repeated.skipped(lineNo);
    return true;
  }

  /**
   * The header, the STAGE tag and the canonical STAGE line are read on the bytes, noise lines
   * dropped without cutting them out; what else the line says is cut out and read as text.
   */
  private read(
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    lineNo: number,
    seq: number,
    rows: StageRowTaker | undefined,
  ): void {
    if (this.entry !== undefined) {
      if (this.entryLine(bytes, text, start, end, seq)) return;
      seq = this.nextSeq?.() ?? seq;
    }
    const h = this.header;
    // The process that wrote the line (see otherProcess): its pid, and the pod a prefix names.
    let writer: number;
    if (readHeaderBytes(bytes, start, end, h)) writer = h.pid;
    else if (readPrefixedHeader(bytes, text, start, end, h)) {
      // STAGE text before the header: a program's print without a newline, klog's line after it.
      if (this.findTag(bytes, text, start, h.start) >= 0) {
        const headerAt = h.start;
        this.headerless(bytes, text, start, headerAt, lineNo, seq, true);
        this.read(bytes, text, headerAt, end, lineNo, this.nextSeq?.() ?? seq, rows);
        return;
      }
      writer = this.prefixedWriter(text, start, h.start, h.pid);
      if (this.klogClockEastMin === undefined)
        this.klogClockEastMin = klogClockEastMin(text.slice(start, h.start), h.timeOfDayUs);
    } else {
      this.headerless(bytes, text, start, end, lineNo, seq);
      return;
    }
    // klog's `key=<`: the lines after it hold the value (see multi-line.ts). Not in a line that
    // ends where its writer did not end it: its value lines cannot follow; nor in an entry read.
    if (bytes[end - 1] === 60 && bytes[end - 2] === 61 && this.wholeEnd && !this.inEntry) {
      this.entry = new MultiLineEntry(text, start, h.start, end, lineNo, MAX_LINE);
      return;
    }
    this.klogLines++;
    const ts = this.timestamp(h.month, h.day, h.timeOfDayUs, text, start, h.start, lineNo);
    if (ts < this.lastTs - BACKWARDS_US) this.wentBack(ts, lineNo);
    this.lastTs = ts;
    const source = this.source(bytes, text, h.srcStart, h.srcEnd);
    const src = source.text;
    const msgStart = h.msgStart;
    const at = structuredAt(bytes, msgStart, end)
      ? msgStart
      : this.findTag(bytes, text, msgStart, end);
    if (at >= 0) {
      this.stageWriter = writer;
      const f = this.fields;
      f.srcId = source.id;
      this.stage(
        bytes,
        text,
        start,
        msgStart,
        at,
        end,
        this.at(ts, src, lineNo, seq),
        source,
        rows,
      );
      return;
    }
    // The event recorder's line of an Event about a Foo is the controller telling of that Foo;
    // client-go's own (noise otherwise) only when it is a Warning (see event-line.ts).
    if (startsController(bytes, msgStart, end)) this.stageWriter = writer;
    const event =
      mayBeEvent(bytes, msgStart, end) && (!source.noise || saysWarning(bytes, msgStart, end))
        ? readEventLine(text, msgStart, end)
        : undefined;
    if (!this.opts.keepNoise) {
      if (this.otherProcess(writer)) {
        this.otherProcessLine(text, start, msgStart, end, writer, lineNo);
        return;
      }
      if (source.noise && event === undefined) {
        this.noiseLines++;
        return;
      }
    }
    const synced = this.syncedKey(bytes, text, msgStart, end);
    if (synced !== undefined) {
      this.closed(synced);
      if (rows !== undefined) {
        const f = this.fields;
        f.key = synced;
        f.srcId = source.id;
        if (rows.takeSynced(f, this.at(ts, src, lineNo, seq), text, start, end)) return;
      }
      this.emitSynced(synced, ts, src, text.slice(start, end), lineNo);
      return;
    }
    const line = text.slice(start, end);
    // A klog line glued into this one has a "]" in it: only then is one looked for.
    if (
      line.indexOf("]", msgStart - start) >= 0 &&
      this.glued(bytes, text, start, msgStart, end, lineNo, seq, rows)
    ) {
      return;
    }
    this.message(line, msgStart - start, h.level, ts, src, lineNo, event);
  }

  /**
   * The line text[start, end) after a line that opened a multi-line value (see multi-line.ts): true
   * when it was the entry's, which is read once its ` >` line comes. A line that is not ends the
   * entry: read as far as it came, and said when it had value lines. `seq`: the seq the entry's
   * event takes.
   */
  private entryLine(
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    seq: number,
  ): boolean {
    const e = this.entry!;
    const took = e.take(bytes, text, start, end);
    if (took === "value") return true;
    this.entry = undefined;
    if (took === "done") {
      this.readEntry(e.joined, e.first, e.line, seq);
      return true;
    }
    this.entryCut(e, "the line after it is none of its value", seq);
    return false;
  }

  /** The entry `e`, its ` >` line never come, read as far as it came (see MultiLineEntry.cut). */
  private entryCut(e: MultiLineEntry, why: string, seq: number): void {
    if (e.lines > 0) {
      this.diag({
        line: e.line,
        level: "warn",
        message: `a multi-line value (klog's key=<) without its closing " >" line (${why}): read with the ${e.lines} line${e.lines === 1 ? "" : "s"} of it that came`,
      });
    }
    this.readEntry(e.cut(), e.first, e.line, seq);
  }

  /** Reads a multi-line entry as the one line `text`, on the line of its first, `first`. */
  private readEntry(text: string, first: string, lineNo: number, seq: number): void {
    const bytes = (this.entryShadow = shadowBytes(text, this.entryShadow));
    const { wholeEnd, unended } = this;
    this.wholeEnd = true;
    this.unended = false;
    // An entry cut before its value's lines (see MultiLineEntry.cut) ends in `=<` again.
    this.inEntry = true;
    this.entryRaw = first;
    this.read(bytes, text, 0, text.length, lineNo, seq, undefined);
    this.entryRaw = undefined;
    this.inEntry = false;
    this.wholeEnd = wholeEnd;
    this.unended = unended;
  }

  /** The input ended: an entry still gathering its multi-line value is read as far as it came. */
  end(seq: number): void {
    const twice = this.repeated.diagnostic();
    if (twice !== undefined) this.diag(twice);
    const e = this.entry;
    if (e === undefined) return;
    this.entry = undefined;
    this.entryCut(e, "the log ends first", seq);
  }

  /**
   * Hands an event on; an entry's `raw` is its first line as the file has it (see readEntry), as
   * every klog event's is its line of the file: the replays read it back from there.
   */
  private emit(e: UnsequencedEvent, numbered?: boolean): void {
    if (this.entryRaw !== undefined && e.raw !== undefined) e.raw = this.entryRaw;
    this.emitEvent(e, numbered);
  }

  /** Where the current line is read: this.where, refilled. */
  private at(ts: number, src: string | undefined, line: number, seq: number): LineContext {
    const where = this.where;
    where.ts = ts;
    where.src = src;
    where.line = line;
    where.seq = seq;
    return where;
  }

  /**
   * A line without a klog header: a header-less STAGE line, or a continuation, or other output.
   * `beforeHeader`: the STAGE text of a line that a klog header follows (see read).
   */
  private headerless(
    bytes: Uint8Array,
    text: string,
    start: number,
    end: number,
    lineNo: number,
    seq: number,
    beforeHeader = false,
  ): void {
    const at = this.findTag(bytes, text, start, end);
    if (at < 0) {
      if (end > start) this.foreignLines++;
      if (this.year === undefined && text.startsWith(LOG_FILE_CREATED, start)) {
        const m = /^(\d{4})\/(\d\d)\/(\d\d) /.exec(
          text.slice(start + LOG_FILE_CREATED.length, end),
        );
        if (m) this.fileCreated = { year: +m[1]!, month: +m[2]!, day: +m[3]! };
      }
      // Continuations and other output are ordinary in a log; a JSON record is not: loopscope's
      // own trace appended to a klog file (`up --record` on a log did that) would be lost unsaid.
      if (!this.jsonNoted && text.startsWith('{"', start)) {
        this.jsonNoted = true;
        this.diag({
          line: lineNo,
          level: "warn",
          message:
            "a JSON record in a klog log: not read (a loopscope JSONL trace mixed into the log? read it as a file of its own; noted once)",
        });
      }
      return;
    }
    const ts = this.carriedTs(text, start, at, lineNo);
    if (ts === undefined && !this.headerlessNoted) {
      this.headerlessNoted = true;
      this.diag({
        line: lineNo,
        level: "warn",
        message:
          "STAGE line without a klog header; its time is taken from the line before (noted once)",
      });
    }
    this.klogLines++;
    const where = this.at(ts ?? this.lastTs, undefined, lineNo, seq);
    const next = this.nextRecordTag(bytes, text, at, end);
    if (next < 0 && !beforeHeader) this.stage(bytes, text, start, start, at, end, where, undefined);
    else this.printedTogether(bytes, text, start, at, next, end, where, beforeHeader);
  }

  /**
   * A line that holds several STAGE records, tags at `at` and `next` (-1: none) and on, or one and
   * then a klog line (`beforeHeader`): a program that printed them without a newline (a learner's
   * `fmt.Printf` format without "\n"), each record whole up to the next tag. Each is read as a
   * line of its own, with one warning for the line: a record read with the next glued to it would
   * have its last value run into the next tag (`key=default/example-fooSTAGE/dequeue`), and the
   * records after it would be lost unsaid.
   */
  private printedTogether(
    bytes: Uint8Array,
    text: string,
    start: number,
    at: number,
    next: number,
    end: number,
    where: LineContext,
    beforeHeader: boolean,
  ): void {
    const tags = [at];
    for (let t = next; t >= 0; t = this.nextRecordTag(bytes, text, t, end)) tags.push(t);
    const n = tags.length;
    const records = n === 1 ? "a STAGE record" : `${n} STAGE records`;
    this.diag({
      line: where.line,
      level: "warn",
      message: `${records}${beforeHeader ? " and a klog line" : ""} on one line: the program printed without a newline (a Printf format without "\\n"?); each was read as a line of its own`,
    });
    let from = start;
    for (let i = 0; i < n; i++) {
      let to = i + 1 < n ? tags[i + 1] : end;
      // `[STAGE/watch]`, `(STAGE/read)`: the bracket opens the next record.
      if (i + 1 < n && (bytes[to - 1] === 91 || bytes[to - 1] === 40) && to - 1 > tags[i]) to--;
      if (i > 0) where.seq = this.nextSeq?.() ?? where.seq;
      this.stage(bytes, text, from, from, tags[i], to, where, undefined);
      from = to;
    }
  }

  /**
   * The time a STAGE line without a klog header carries before its tag text[at…) (see
   * line-time.ts), or undefined: its log.Printf time, else its wrapper's. log.Printf's default
   * says only the second: a finer time within it — the wrapper's, else the line before's — is
   * taken instead, so that the line does not go back before the lines it follows.
   */
  private carriedTs(text: string, start: number, at: number, lineNo: number): number | undefined {
    const prefix = text.slice(start, at);
    const printf = printfTime(prefix);
    const wrapper = rfc3339Time(prefix, this.klogClockEastMin ?? 0);
    const t = printf ?? wrapper;
    if (t === undefined) return undefined;
    let ts = this.timestamp(t.month, t.day, t.tod, text, start, at, lineNo);
    if (t.wholeSecond) {
      const w =
        wrapper && this.timestamp(wrapper.month, wrapper.day, wrapper.tod, text, start, at, lineNo);
      if (w !== undefined && w >= ts && w < ts + 1_000_000) ts = w;
      else if (this.lastTs >= ts && this.lastTs < ts + 1_000_000) ts = this.lastTs;
    }
    if (ts < this.lastTs - BACKWARDS_US) this.wentBack(ts, lineNo);
    this.lastTs = ts;
    return ts;
  }

  /**
   * Whether a line comes from another process than the latest STAGE line's: in a log several
   * processes write to (a node's, a terminal's, `kubectl logs --prefix` of several pods), another
   * controller's "Successfully synced" would pass for a pass end of ours. A restarted controller's
   * STAGE lines carry its new pid; so does its "Starting Foo controller" line, which comes before
   * them (another process's pass ends between the two are not ours either). A process is its
   * pid, and the pod its line's `kubectl logs --prefix` names (see prefixedWriter).
   */
  private otherProcess(writer: number): boolean {
    return this.stageWriter !== undefined && writer !== this.stageWriter;
  }

  /**
   * A line of another process than the latest STAGE line's (see otherProcess), dropped as noise.
   * The first such pass end is said: several controllers at once in one log (`kubectl logs -f
   * --prefix` of two pods' replicas) have their STAGE lines read as one controller's, and the
   * pass ends of all but the latest STAGE line's writer are not read.
   */
  private otherProcessLine(
    text: string,
    start: number,
    msgStart: number,
    end: number,
    writer: number,
    lineNo: number,
  ): void {
    this.noiseLines++;
    if (this.otherNoted) return;
    const line = text.slice(start, end);
    const msg = msgStart - start;
    const marker = mayBeMarker(line, msg) ? parseMarker(line, msg) : undefined;
    if (marker === undefined) return;
    this.otherNoted = true;
    this.diag({
      line: lineNo,
      level: "warn",
      message: `${marker.key}'s pass end by ${this.writerName(writer)} not read: ${this.writerName(this.stageWriter!)} wrote the latest STAGE line (or started last). Controllers writing to one log at once have their STAGE lines read as one controller's: read each one's log alone (kubectl logs POD) (noted once)`,
    });
  }

  /** "pid 48211", or "pod/sample-controller-abc/sample-controller (pid 1)". */
  private writerName(writer: number): string {
    return writer >= 0 ? `pid ${writer}` : this.podNames[-1 - writer];
  }

  /**
   * The process that wrote a line whose header, with `pid`, comes after text[start, headerAt):
   * its pid, unless the prefix is `kubectl logs --prefix`'s `[pod/<pod>/<container>] ` — then
   * that container and pid, numbered -1, -2, … (a pid is ≥ 0). Each pod's controller runs as pid
   * 1 more often than not: by their pids alone, two pods' logs would be one process's.
   */
  private prefixedWriter(text: string, start: number, headerAt: number, pid: number): number {
    if (text.charCodeAt(start) !== 91) return pid; // "["
    const pod = POD_PREFIX.exec(text.slice(start, headerAt));
    if (pod === null) return pid;
    const name = `${pod[0]}${pid}`;
    let writer = this.podWriters.get(name);
    if (writer === undefined) {
      writer = -1 - this.podWriters.size;
      this.podWriters.set(name, writer);
      this.podNames.push(`${pod[1]} (pid ${pid})`);
    }
    return writer;
  }

  /**
   * The key of the v0.31+ success line in its exact form, read on the bytes of text[from, end):
   * `"Successfully synced" objectName="<key>"` ending the line, the key free of quotes,
   * backslashes and apostrophes. Else undefined, and parseMarker decides (see message); where
   * this answers, parseMarker finds the same key, outcome "synced".
   */
  private syncedKey(
    bytes: Uint8Array,
    text: string,
    from: number,
    end: number,
  ): string | undefined {
    const a = from + SYNCED.length;
    const last = end - 1;
    if (a >= last || bytes[last] !== 34) return undefined;
    if (!sameSpan(bytes, from, SYNCED_BYTES, 0, SYNCED.length)) return undefined;
    for (let i = a; i < last; i++) {
      const c = bytes[i];
      if (c === 34 || c === 92 || c === 39) return undefined; // " \ '
    }
    return text.slice(a, last);
  }

  /**
   * Where "STAGE/" starts in text[from, end), or -1. One search serves many lines: it finds the
   * next tag in the rest of the decoded text, and lines before it need no search of their own.
   */
  /**
   * The tag of the record printed after the one whose tag is at `at` (-1: none): a "STAGE/" inside
   * a quoted value (`err="… annotation STAGE/read is reserved"`) is the value's text, not a record.
   */
  private nextRecordTag(bytes: Uint8Array, text: string, at: number, end: number): number {
    let quoted = false;
    let i = at + 6;
    for (
      let t = this.findTag(bytes, text, i, end);
      t >= 0;
      t = this.findTag(bytes, text, t + 6, end)
    ) {
      for (; i < t; i++) {
        const c = bytes[i];
        if (c === 92 && quoted)
          i++; // \" inside the quotes
        else if (c === 34) quoted = !quoted;
      }
      if (!quoted) return t;
    }
    return -1;
  }

  private findTag(bytes: Uint8Array, text: string, from: number, end: number): number {
    if (tagAt(bytes, from, end, true)) return from;
    // Valid while it is the first tag at or after `from`: the same text, searched from no later
    // than `from`, and no tag found before `from`.
    if (this.tagText !== text || this.tagFrom > from || (this.tagAt >= 0 && this.tagAt < from)) {
      this.tagText = text;
      this.tagFrom = from;
      this.tagAt = text.indexOf("STAGE/", from);
    }
    // A tag that starts before `end` lies whole in the line: it holds no "\r" or "\n".
    return this.tagAt >= 0 && this.tagAt < end ? this.tagAt : -1;
  }

  /**
   * A header line's message that is not a STAGE line, nor a success line syncedKey read: a pass
   * end, or a note — of the Foo an Event line (`event`) is about, at the level of its type.
   */
  private message(
    text: string,
    msgStart: number,
    level: "I" | "W" | "E" | "F",
    ts: number,
    src: string,
    lineNo: number,
    event: EventAbout | undefined,
  ): void {
    if (event === undefined && mayBeMarker(text, msgStart)) {
      const m = parseMarker(text, msgStart);
      if (m) {
        this.closed(m.key);
        const e: UnsequencedEvent = {
          stage: "done",
          ts,
          key: m.key,
          outcome: m.outcome,
          src,
          raw: text,
          line: lineNo,
        };
        if (m.error !== undefined) e.error = m.error;
        this.emit(e);
        return;
      }
    }
    let key = event?.key ?? "";
    let body = text.slice(msgStart);
    if (event === undefined && body.indexOf("=") >= 0 && mayHaveField(body, NOTE_KEYS)) {
      key = pick(scanFields(body), NOTE_KEYS) ?? "";
    }
    // A structured line's message is Go-quoted: the note shows it as the controller wrote it.
    if (body.charCodeAt(0) === 34) {
      const q = readGoQuoted(body, 0);
      if (q) body = q.value + body.slice(q.end);
    }
    this.emit({
      stage: "note",
      ts,
      key,
      level: event?.level ?? level,
      text: body,
      src,
      raw: text,
      line: lineNo,
    });
  }

  /** The pass of `key` began (see openPasses). */
  private opened(key: string): void {
    const open = this.openPasses;
    if (open === null || open.includes(key)) return;
    if (open.length === OPEN_KEPT) this.openPasses = null;
    else open.push(key);
  }

  /** The key of the one pass open, or undefined (see openPasses). */
  private soleOpen(): string | undefined {
    const open = this.openPasses;
    return open !== null && open.length === 1 ? open[0] : undefined;
  }

  /** The pass of `key` ended (see openPasses). */
  private closed(key: string): void {
    const open = this.openPasses;
    if (open === null) return;
    const i = open.indexOf(key);
    if (i < 0) return;
    open[i] = open[open.length - 1];
    open.pop();
  }

  /** A pass's end: the controller's "Successfully synced" line about `key`. */
  private emitSynced(key: string, ts: number, src: string, raw: string, lineNo: number): void {
    this.emit({ stage: "done", ts, key, outcome: "synced", src, raw, line: lineNo });
  }

  /**
   * The source location text[a, b), whose bytes are bytes[a, b): cut out once per distinct
   * location (see SOURCE_SLOTS).
   */
  private source(bytes: Uint8Array, text: string, a: number, b: number): Source {
    const len = b - a;
    const slot =
      (len * 31 + bytes[b - 1] * 7 + bytes[b - 2] * 3 + bytes[b - 3] + bytes[a]) &
      (SOURCE_SLOTS - 1);
    const hit = this.sources[slot];
    // Compared on bytes: String.prototype.startsWith cuts a substring to compare with.
    if (
      hit?.code !== undefined &&
      hit.code.length === len &&
      sameSpan(hit.code, 0, bytes, a, len)
    ) {
      return hit;
    }
    return this.freshSource(bytes, text, a, b, slot);
  }

  /** A location not in the cache (see source): cut out, and cached in `slot`. */
  private freshSource(bytes: Uint8Array, text: string, a: number, b: number, slot: number): Source {
    const len = b - a;
    // A copy, not a slice: a slice would keep its whole decoded window alive.
    let high = 0;
    for (let i = a; i < b; i++) high |= bytes[i];
    const ascii = high < 0x80 && len <= 256;
    if (!ascii) return this.cache(slot, text.slice(a, b), undefined);
    return this.cache(slot, copyAscii(bytes, a, b), bytes.slice(a, b));
  }

  /** A new Source for the location `text` (its bytes: `code`), cached in `slot`. */
  private cache(slot: number, text: string, code: Uint8Array | undefined): Source {
    const fresh: Source = {
      text,
      id: this.sourceCount++,
      noise: NOISE_FILES.has(baseFile(text)),
      code,
      pastKey: 0,
    };
    this.sources[slot] = fresh;
    return fresh;
  }

  /**
   * Reads the STAGE line text[start, end) (its message from `msgStart`, its tag at `at`), read
   * `where` (its call site `source`, if it has a header): its event, or its row when `rows` takes
   * it — or the diagnostic of why not.
   */
  private stage(
    bytes: Uint8Array,
    text: string,
    start: number,
    msgStart: number,
    at: number,
    end: number,
    where: LineContext,
    source: Source | undefined,
    rows?: StageRowTaker,
  ): void {
    const f = this.fields;
    const warnings = this.warnings;
    const problem = readStageLine(bytes, text, msgStart, at, end, f, warnings, this.soleOpen());
    const keyLast = endedInKey();
    const lineNo = where.line;
    // A klog line glued into this one (see glued) is looked for only in a line that was refused,
    // has words (its time, its pid, its `file:line]`: a canonical line has none) or text before
    // its tag (it came after the glued header): a canonical line costs nothing.
    if (
      (problem !== undefined || hadWords() || at - msgStart > (bytes[msgStart] === 34 ? 1 : 0)) &&
      this.glued(bytes, text, start, msgStart, end, lineNo, where.seq, rows)
    ) {
      return;
    }
    if (problem !== undefined) {
      // A refused line is said as refused: what its values lacked is no news then.
      warnings.length = 0;
      const open = this.openPasses?.length ?? 0;
      this.diag({
        line: lineNo,
        level: "error",
        message:
          open > 1 && problem.includes(" without a key")
            ? `${problem}: ${open} passes were open, whose it is cannot be told`
            : problem,
      });
      return;
    }
    if (source !== undefined && this.wholeEnd) {
      const n = source.pastKey;
      if (!keyLast) {
        if (n >= 0 && n < CUT_EVIDENCE) source.pastKey = n + 1;
      } else if (n === CUT_EVIDENCE) {
        warnings.length = 0;
        this.cutShort(source, f.stage, f.key, lineNo, CUT_EVIDENCE);
        return;
      } else source.pastKey = -1;
    } else if (source !== undefined && this.unended && keyLast) {
      if (source.pastKey >= UNENDED_CUT_EVIDENCE) {
        warnings.length = 0;
        this.cutShort(source, f.stage, f.key, lineNo, UNENDED_CUT_EVIDENCE);
        return;
      }
    }
    if (warnings.length > 0) this.warn(warnings, lineNo);
    if (f.stage === "dequeue") this.opened(f.key);
    // A row holds no extra, causeSeq or delay: such a line goes on as an event.
    const row = f.extra === undefined && f.causeSeq === undefined && f.delayMs === undefined;
    if (row && rows?.take(f, where, text, start, end)) return;
    // Cut only for an event: a row taker that keeps no text spares a string per line.
    this.emit(stageEvent(f, where, text.slice(start, end)), true);
  }

  /** Says the STAGE line's warnings; one whose `once` this file said before is not said again. */
  private warn(warnings: StageWarning[], lineNo: number): void {
    for (const w of warnings) {
      if (w.once !== undefined) {
        if (this.saidOnce.has(w.once)) continue;
        if (this.saidOnce.size < ONCE_KEPT) this.saidOnce.add(w.once);
      }
      this.diag({ line: lineNo, level: "warn", message: w.message });
    }
    warnings.length = 0;
  }

  /**
   * A STAGE line of `source` that ends in the token its key came from, where the lines of that
   * call site before it (CUT_EVIDENCE of them at least; UNENDED_CUT_EVIDENCE for a log's last line
   * without its end) all went on after their key. One klog call
   * prints one format: this one stopped inside its key — a log written across a crash, a line its
   * collector (journald, a container runtime) ended when its writer died mid-line. Its key is cut
   * (`defaul`, `default/exa`): read, it would make a Foo that is not. Said, and not read; the call
   * site needs CUT_EVIDENCE lines again before the next.
   */
  private cutShort(
    source: Source,
    stage: string,
    key: string,
    lineNo: number,
    evidence: number,
  ): void {
    const why = this.unended ? "the log was cut mid-write" : "a log written across a crash";
    this.diag({
      line: lineNo,
      level: "error",
      message: `STAGE/${stage} cut short: it ends in its key ${JSON.stringify(key)}, where the ${evidence} or more STAGE lines of ${source.text} before it all went on after their key; not read (${why}?)`,
    });
    source.pastKey = 0;
  }

  /**
   * A line with other klog lines glued into its message text[msgStart, end) — two writers at
   * once, a "\n" lost — read as the lines it holds, each with its own time and source, and a
   * warning each. The word that runs into a glued header may have been cut short there: a part is
   * read without it, and a STAGE part that cannot be read then is said to be cut short, not read.
   * False, and nothing read, when the message holds no klog header.
   */
  private glued(
    bytes: Uint8Array,
    text: string,
    start: number,
    msgStart: number,
    end: number,
    lineNo: number,
    seq: number,
    rows: StageRowTaker | undefined,
  ): boolean {
    const g = this.gluedHeader;
    if (!readPrefixedHeader(bytes, text, msgStart, end, g)) return false;
    // The line's own warnings were of the lines together.
    this.warnings.length = 0;
    // One part after another, not one call inside another: a line may hold thousands of them.
    let from = start;
    let msg = msgStart;
    for (let more = true; more;) {
      const at = g.start;
      const next = g.msgStart;
      let cut = at;
      while (cut > msg && bytes[cut - 1] !== 32 && bytes[cut - 1] !== 9) cut--;
      let partEnd = cut;
      while (partEnd > msg && (bytes[partEnd - 1] === 32 || bytes[partEnd - 1] === 9)) partEnd--;
      const whole = partEnd > msg && this.readable(bytes, text, msg, partEnd);
      const shown = `("${text.slice(at, at + 20)}…")`;
      const word = text.slice(cut, Math.min(at, cut + SHOWN)) + (at - cut > SHOWN ? "…" : "");
      this.diag({
        line: lineNo,
        level: "warn",
        message: whole
          ? `another log line begins inside it ${shown}: both were read${cut < at ? `, this one without its last word, which may be cut short: ${word}` : ""}`
          : `cut short: another log line begins inside it ${shown}; that line was read, the cut one was not`,
      });
      if (whole) {
        // Its last word was left out: where it ends is not where it was cut.
        const { wholeEnd, unended } = this;
        this.wholeEnd = false;
        this.unended = false;
        this.read(bytes, text, from, partEnd, lineNo, this.nextSeq?.() ?? seq, rows);
        this.wholeEnd = wholeEnd;
        this.unended = unended;
      }
      from = at;
      msg = next;
      more = readPrefixedHeader(bytes, text, msg, end, g);
    }
    this.read(bytes, text, from, end, lineNo, this.nextSeq?.() ?? seq, rows);
    return true;
  }

  /**
   * Whether the part of a line whose message is text[msg, end) can be read: a STAGE line's fields
   * are whole, any other line is.
   */
  private readable(bytes: Uint8Array, text: string, msg: number, end: number): boolean {
    const at = structuredAt(bytes, msg, end) ? msg : this.findTag(bytes, text, msg, end);
    if (at < 0) return true;
    const ok =
      readStageLine(bytes, text, msg, at, end, this.fields, this.warnings, this.soleOpen()) ===
      undefined;
    this.warnings.length = 0;
    return ok;
  }

  /**
   * The line's time. Kept small, its first line's work (settling the year) and a new day's in
   * methods of their own: it is inlined into lineAt, whose budget for inlining is shared with
   * the calls every line makes.
   */
  private timestamp(
    month: number,
    day: number,
    tod: number,
    text: string,
    start: number,
    /** Where the time read begins: the line's text before it may hold a year. */
    timeAt: number,
    lineNo: number,
  ): number {
    if (this.year === undefined) this.settleYear(text.slice(start, timeAt), lineNo, month, day);
    if (month * 100 + day !== this.dayKey && !this.newDay(month, day, lineNo)) return this.lastTs;
    return this.dayMs * 1000 + tod;
  }

  /** The line's time is well before the line above's (see reader/time-back.ts). */
  private wentBack(ts: number, lineNo: number): void {
    const d = timeWentBack(lineNo, ts, this.lastTs, ++this.timeJumps);
    if (d !== undefined) this.diag(d);
  }

  /** Settles the year on the first header line, whose text before the header is `prefix`. */
  private settleYear(prefix: string, lineNo: number, month: number, day: number): void {
    const fromPrefix = yearInPrefix(prefix);
    let how: string;
    let year: number;
    if (this.opts.year !== undefined) {
      year = this.opts.year;
      how = "as given";
    } else if (fromPrefix !== undefined) {
      year = fromPrefix;
      how = "from the timestamp before the klog header";
    } else if (this.fileCreated !== undefined) {
      // Its first line's date is on or after the file's: a month-day before it is next year's.
      const c = this.fileCreated;
      year = month * 100 + day < c.month * 100 + c.day ? c.year + 1 : c.year;
      how = 'from the log file\'s header, "Log file created at"';
    } else {
      const now = this.opts.now?.() ?? new Date();
      year = now.getUTCFullYear();
      how = "the current year; the CLI's --year N reads them as another";
      // A log is read after it was written: a first date after today (a day's slack for time
      // zones) is last year's — a log of Dec 31 read on Jan 2.
      if (Date.UTC(year, month - 1, day) > now.getTime() + DAY_MS) {
        year--;
        how = `last year: its first date, ${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}, is after today; the CLI's --year N reads them as another`;
      }
    }
    this.year = year;
    this.diag({
      line: lineNo,
      level: "info",
      message: `klog lines carry no year: read as ${year} (${how}), times as UTC`,
    });
  }

  /**
   * A line of another day than the line above's, in the year nearest the line above's: a month
   * more than half a year back is the next year's (December → January), one more than half a year
   * on the year before's (January → December: a line of Dec 31 written a few ms after one of
   * Jan 1, goroutines out of order — see reader/time-back.ts; a clock set back across New Year is
   * a time going back, said as such). False for a date that year has not (Feb 30; Feb 29 of a
   * common year): said, and left to the line before — no year and no day moves for it.
   */
  private newDay(month: number, day: number, lineNo: number): boolean {
    const last = this.lastMonth;
    let year = this.year!;
    if (last > 0 && month < last - 6) year++;
    else if (last > 0 && month > last + 6) year--;
    const ms = Date.UTC(year, month - 1, day);
    if (new Date(ms).getUTCDate() !== day) {
      const mmdd = String(month * 100 + day).padStart(4, "0");
      this.diag({
        line: lineNo,
        level: "warn",
        message: `the klog header's date ${mmdd} (month ${month}, day ${day}) is no day of ${year}: its time is taken from the line before`,
      });
      return false;
    }
    this.year = year;
    this.lastMonth = month;
    this.dayKey = month * 100 + day;
    this.dayMs = ms;
    return true;
  }
}

/** Whether the message bytes[msg, end) is sample-controller's start line (STARTING_BYTES). */
function startsController(bytes: Uint8Array, msg: number, end: number): boolean {
  const at = bytes[msg] === 34 ? msg + 1 : msg; // "Starting Foo controller", quoted or not
  return (
    bytes[at] === STARTING_BYTES[0] &&
    end - at >= STARTING_BYTES.length &&
    sameSpan(bytes, at, STARTING_BYTES, 0, STARTING_BYTES.length)
  );
}

/** How klog's log file header begins (glog's createLogDirs / klog's file header). */
const LOG_FILE_CREATED = "Log file created at: ";
