/**
 * The append-only JSONL file a live run is recorded to, readable while it grows.
 *
 * Invariants:
 * - lines reach the file in append order, whole lines per write; an event is on disk at most
 *   `flushMs` after `append` (or sooner once `flushBytes` are pending), so a crash loses at most
 *   that much and leaves at worst one torn last line (readers skip it);
 * - `readRange` sees every event appended before the call (it flushes first);
 * - memory: pending bytes (≤ flushBytes + one interval's worth) plus a sparse seq→offset index
 *   (one entry per `indexEvery` events);
 * - a failed write (disk full: ENOSPC, an I/O error) ends the recording: `savedThrough` is the
 *   last seq whose line is whole in the file, every later event is counted and dropped, and
 *   each `whenFailed` listener hears of it once, at once — the run goes on without it.
 */
import { open, type FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { decodeEventLine, encodeEvent, type TraceEvent } from "@loopscope/trace";
import { isHeaderLine, recordingHeader, type RecordingMeta } from "./codec.ts";

export interface RecordingOptions {
  flushMs?: number;
  flushBytes?: number;
  indexEvery?: number;
}

/** `--record FILE` named a file that is not a recording to continue. */
export class NotARecordingError extends Error {
  constructor(readonly path: string) {
    super(
      `${path} is not a loopscope recording (its first line is not a loopscope JSONL header): left as it is; record to a new file or to one an earlier run recorded`,
    );
  }
}

/** Why a recording stopped, and what the file holds. */
export interface WriteFailure {
  error: Error;
  /** When the write failed (ms since the epoch). */
  at: number;
  /** The last seq whose line is whole in the file (0: none); later events are not in it. */
  savedThrough: number;
}

export class Recording {
  private pending: string[] = [];
  /** Each pending line's event seq (0 for the header): what a failed write leaves saved. */
  private pendingSeqs: number[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bytes appended so far, flushed or not: the offset the next line starts at. */
  private size = 0;
  private readonly index: { seq: number; offset: number }[] = [];
  private sinceIndex = Infinity;
  private writes: Promise<void> = Promise.resolve();
  private failed: WriteFailure | undefined;
  private readonly failureListeners: ((f: WriteFailure) => void)[] = [];
  /** The last seq whose line is whole in the file. */
  private saved = 0;
  /** The last seq appended, saved or not. */
  private lastAppended = 0;
  private closed = false;
  private readonly flushMs: number;
  private readonly flushBytes: number;
  private readonly indexEvery: number;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    /**
     * A regular file: it can be read back (`readRange`), cut and synced. `--record /dev/full`
     * or a pipe is written only.
     */
    readonly regularFile: boolean,
    opts: RecordingOptions,
  ) {
    this.flushMs = opts.flushMs ?? 100;
    this.flushBytes = opts.flushBytes ?? 256 * 1024;
    this.indexEvery = opts.indexEvery ?? 1024;
  }

  /** Creates (or truncates) `path` and writes the header line at once. */
  static async create(path: string, meta: RecordingMeta, opts: RecordingOptions = {}) {
    const fh = await open(path, "w+", 0o644);
    const rec = new Recording(path, fh, (await fh.stat()).isFile(), opts);
    rec.push(recordingHeader(meta), 0);
    await rec.flush();
    return rec;
  }

  /**
   * Opens `path` to continue it (a restart with --record on the same file): a torn last line (a
   * crash mid-write) is cut off so new lines start at a clean boundary, the events already there
   * are indexed so `readRange` serves them, and `lastSeq` says where the next run's seqs start.
   * A missing or empty file is created with a header, as by `create`. A file that does not begin
   * with a trace header (a klog log, someone's notes) is refused untouched: appending events
   * to it would spoil both.
   */
  static async openAppend(
    path: string,
    meta: RecordingMeta,
    opts: RecordingOptions = {},
  ): Promise<{ recording: Recording; lastSeq: number }> {
    // O_APPEND: every write lands at the end (after the cut below), whatever was read.
    const fh = await open(path, "a+", 0o644);
    const rec = new Recording(path, fh, (await fh.stat()).isFile(), opts);
    if (!rec.regularFile) {
      // A device or a pipe has nothing to continue (/dev/full reads as endless zeros).
      rec.push(recordingHeader(meta), 0);
      await rec.flush();
      return { recording: rec, lastSeq: 0 };
    }
    let lastSeq = 0;
    let offset = 0; // start of the line being scanned
    let clean = 0; // end of the last complete line
    const chunk = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    let first = true;
    for (let pos = 0; ;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      let buf = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
        const line = buf.toString("utf8", 0, nl);
        if (first && line.trim() !== "") {
          first = false;
          if (!isHeaderLine(line)) {
            await fh.close();
            throw new NotARecordingError(path);
          }
        }
        const e = decodeEventLine(line);
        if (e && e.seq > lastSeq) {
          if (rec.sinceIndex >= rec.indexEvery) {
            rec.index.push({ seq: e.seq, offset });
            rec.sinceIndex = 0;
          }
          rec.sinceIndex++;
          lastSeq = e.seq;
        }
        offset += nl + 1;
        clean = offset;
        buf = buf.subarray(nl + 1);
      }
      carry = Buffer.from(buf);
    }
    // A torn first line is only cut off if it could be a header cut short by a crash.
    const torn = carry.toString("utf8").trim();
    if (first && torn !== "" && !torn.startsWith("{")) {
      await fh.close();
      throw new NotARecordingError(path);
    }
    await fh.truncate(clean);
    rec.size = clean;
    rec.saved = rec.lastAppended = lastSeq;
    if (clean === 0) rec.push(recordingHeader(meta), 0);
    await rec.flush();
    return { recording: rec, lastSeq };
  }

  /** Why the recording stopped, if a write failed; appends after it are dropped. */
  get failure(): WriteFailure | undefined {
    return this.failed;
  }

  /** The last seq whose line is whole in the file. */
  get savedThrough(): number {
    return this.saved;
  }

  /** How many appended events the file lacks (all those after a failed write). */
  get missing(): number {
    return this.lastAppended - this.saved;
  }

  /** Calls `listener` once when a write fails (soon, if one has failed already). */
  whenFailed(listener: (f: WriteFailure) => void): void {
    if (this.failed) {
      const f = this.failed;
      queueMicrotask(() => listener(f));
    } else this.failureListeners.push(listener);
  }

  /** `line` is encodeEvent(e) (the hub computed it already). */
  append(e: TraceEvent, line = encodeEvent(e)): void {
    if (this.closed) return;
    this.lastAppended = e.seq;
    if (this.failed) return;
    if (this.sinceIndex >= this.indexEvery) {
      this.index.push({ seq: e.seq, offset: this.size });
      this.sinceIndex = 0;
    }
    this.sinceIndex++;
    this.push(line, e.seq);
    if (this.pendingBytes >= this.flushBytes) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Resolves when everything appended so far is written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length > 0) {
      const buf = Buffer.from(this.pending.join(""), "utf8");
      const seqs = this.pendingSeqs;
      this.pending = [];
      this.pendingSeqs = [];
      this.pendingBytes = 0;
      this.writes = this.writes.then(() => this.write(buf, seqs));
    }
    return this.writes;
  }

  /** Writes one batch whole (a write may take part of it), or records why it could not. */
  private async write(buf: Buffer, seqs: number[]): Promise<void> {
    if (this.failed) return;
    let written = 0;
    try {
      while (written < buf.length) {
        const { bytesWritten } = await this.fh.write(buf, written, buf.length - written);
        if (bytesWritten <= 0) throw new Error("the file took no bytes");
        written += bytesWritten;
      }
    } catch (err) {
      // The lines wholly written before the error are in the file (a torn one may follow).
      let lines = 0;
      for (let at = buf.indexOf(10); at >= 0 && at < written; at = buf.indexOf(10, at + 1)) lines++;
      this.markSaved(seqs, lines);
      this.fail(err);
      return;
    }
    this.markSaved(seqs, seqs.length);
  }

  private markSaved(seqs: number[], lines: number): void {
    for (let i = lines - 1; i >= 0; i--) {
      if (seqs[i] > 0) {
        this.saved = seqs[i];
        return;
      }
    }
  }

  private fail(err: unknown): void {
    this.failed = {
      error: err instanceof Error ? err : new Error(String(err)),
      at: Date.now(),
      savedThrough: this.saved,
    };
    for (const l of this.failureListeners.splice(0)) l(this.failed);
  }

  /**
   * Events with seq in [from, to] from the file, in order: those up to `savedThrough` (what a
   * failed recording lacks is not there). Only for a regular file.
   */
  async readRange(from: number, to: number): Promise<TraceEvent[]> {
    if (!this.regularFile) throw new Error(`${this.path} is not a file to read back`);
    await this.flush();
    const out: TraceEvent[] = [];
    if (to < from || this.index.length === 0) return out;
    let offset = this.index[0].offset;
    for (const entry of this.index) {
      if (entry.seq > from) break;
      offset = entry.offset;
    }
    const chunk = Buffer.alloc(256 * 1024);
    const text = new StringDecoder("utf8");
    let carry = "";
    for (;;) {
      const { bytesRead } = await this.fh.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      const lines = (carry + text.write(chunk.subarray(0, bytesRead))).split("\n");
      carry = lines.pop() ?? "";
      for (const line of lines) {
        const e = decodeEventLine(line);
        if (!e || e.seq < from) continue;
        if (e.seq > to) return out;
        out.push(e);
      }
    }
    return out;
  }

  /** Flushes, syncs and closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return this.writes;
    await this.flush();
    this.closed = true;
    try {
      // A device or pipe has no disk copy to sync (fsync answers EINVAL).
      if (this.regularFile && !this.failed) await this.fh.sync();
    } catch (err) {
      this.fail(err);
    } finally {
      await this.fh.close();
    }
  }

  private push(line: string, seq: number): void {
    const bytes = Buffer.byteLength(line, "utf8");
    this.pending.push(line);
    this.pendingSeqs.push(seq);
    this.pendingBytes += bytes;
    this.size += bytes;
  }
}
