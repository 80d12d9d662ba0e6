/**
 * The append-only JSONL file a live run is recorded to, readable while it grows.
 *
 * Invariants:
 * - lines reach the file in append order, whole lines per write; an event is on disk at most
 *   `flushMs` after `append` (or sooner once `flushBytes` are pending), so a crash loses at most
 *   that much and leaves at worst one torn last line (readers skip it);
 * - `readRange` sees every event appended before the call (it flushes first);
 * - memory: pending bytes (≤ flushBytes + one interval's worth) plus a sparse seq→offset index
 *   (one entry per `indexEvery` events).
 */
import { open, type FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import type { TraceEvent } from "@loopscope/trace";
import { jsonlCodec, type RecordingMeta, type TraceCodec } from "./codec.ts";

export interface RecordingOptions {
  flushMs?: number;
  flushBytes?: number;
  indexEvery?: number;
  codec?: TraceCodec;
}

/** `--record FILE` named a file that is not a recording to continue. */
export class NotARecordingError extends Error {
  constructor(readonly path: string) {
    super(
      `${path} is not a loopscope recording (its first line is not a loopscope JSONL header): left as it is; record to a new file or to one an earlier run recorded`,
    );
  }
}

export class Recording {
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bytes appended so far, flushed or not: the offset the next line starts at. */
  private size = 0;
  private readonly index: { seq: number; offset: number }[] = [];
  private sinceIndex = Infinity;
  private writes: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private closed = false;
  private readonly flushMs: number;
  private readonly flushBytes: number;
  private readonly indexEvery: number;
  private readonly codec: TraceCodec;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    opts: RecordingOptions,
  ) {
    this.flushMs = opts.flushMs ?? 100;
    this.flushBytes = opts.flushBytes ?? 256 * 1024;
    this.indexEvery = opts.indexEvery ?? 1024;
    this.codec = opts.codec ?? jsonlCodec;
  }

  /** Creates (or truncates) `path` and writes the header line at once. */
  static async create(path: string, meta: RecordingMeta, opts: RecordingOptions = {}) {
    const fh = await open(path, "w+", 0o644);
    const rec = new Recording(path, fh, opts);
    rec.push(rec.codec.header(meta));
    await rec.flush();
    return rec;
  }

  /**
   * Opens `path` to continue it (a restart with --record on the same file): a torn last line (a
   * crash mid-write) is cut off so new lines start at a clean boundary, the events already there
   * are indexed so `readRange` serves them, and `lastSeq` says where the next run's seqs start.
   * A missing or empty file is created with a header, as by `create`. A file that does not begin
   * with the codec's header (a klog log, someone's notes) is refused untouched: appending events
   * to it would spoil both.
   */
  static async openAppend(
    path: string,
    meta: RecordingMeta,
    opts: RecordingOptions = {},
  ): Promise<{ recording: Recording; lastSeq: number }> {
    // O_APPEND: every write lands at the end (after the cut below), whatever was read.
    const fh = await open(path, "a+", 0o644);
    const rec = new Recording(path, fh, opts);
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
          if (!rec.codec.isHeader(line)) {
            await fh.close();
            throw new NotARecordingError(path);
          }
        }
        const e = rec.codec.decode(line);
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
    if (clean === 0) rec.push(rec.codec.header(meta));
    await rec.flush();
    return { recording: rec, lastSeq };
  }

  /** The first write error, if any; appends after it are dropped. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** `json`, when given, is JSON.stringify(e) (the hub computed it already). */
  append(e: TraceEvent, json?: string): void {
    if (this.closed || this.failure) return;
    if (this.sinceIndex >= this.indexEvery) {
      this.index.push({ seq: e.seq, offset: this.size });
      this.sinceIndex = 0;
    }
    this.sinceIndex++;
    // Without extras the codec's line is exactly the event's JSON (trace's encodeEvent).
    this.push(json !== undefined && !e.extra ? json + "\n" : this.codec.encode(e));
    if (this.pendingBytes >= this.flushBytes) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Resolves when everything appended so far is written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length > 0) {
      const buf = Buffer.from(this.pending.join(""), "utf8");
      this.pending = [];
      this.pendingBytes = 0;
      this.writes = this.writes.then(async () => {
        if (this.failure) return;
        try {
          await this.fh.write(buf);
        } catch (err) {
          this.failure = err instanceof Error ? err : new Error(String(err));
        }
      });
    }
    return this.writes;
  }

  /** Events with seq in [from, to] from the file, in order. */
  async readRange(from: number, to: number): Promise<TraceEvent[]> {
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
        const e = this.codec.decode(line);
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
      await this.fh.sync();
    } finally {
      await this.fh.close();
    }
  }

  private push(line: string): void {
    const bytes = Buffer.byteLength(line, "utf8");
    this.pending.push(line);
    this.pendingBytes += bytes;
    this.size += bytes;
  }
}
