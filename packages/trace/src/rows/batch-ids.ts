import { detach } from "../detach.ts";

/**
 * Dense ids for strings, handed out in order of first use from `first` on — the ids of the
 * store's string tables. A string comes as text (`id`) or as its UTF-8 bytes (`entry`, `idOf`):
 * the worker's JSONL path reads a key or an event's detail straight from the file's bytes, and
 * nearly all of them were seen before, so a byte sequence is found by hashing and comparing its
 * bytes, without building its text. The strings new since the last `take` travel with a batch: a
 * receiver that appends them, in order, to what it holds has the same ids without a table of its
 * own.
 *
 * Invariants:
 * - An id names one string for good, whichever way it came: bytes get the id of their text.
 * - `take` hands out each string once, the first batch's values beginning at `first` and each
 *   next batch's where the one before ended.
 * - A string given an id is kept as a copy (see detach.ts), never as a slice of a log's text.
 * - Each distinct byte sequence looked up is an entry whose bytes are kept in `pool` (a copy: the
 *   chunk they came from is not kept), so a caller may compare against an entry's bytes directly.
 */
export class BatchIds {
  private readonly ids = new Map<string, number>();
  private next: number;
  private fresh: string[] = [];
  private firstFresh: number;

  /** Open addressing over the byte entries: slot → entry + 1 (0 = empty); at most half full. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 11);
  /** Entry → where its bytes are in `pool`, how many, and its string's id. */
  starts = new Int32Array(1 << 11);
  lengths = new Int32Array(1 << 11);
  private entryIds = new Int32Array(1 << 11);
  private entries = 0;
  pool = new Uint8Array(1 << 16);
  private used = 0;
  private readonly decoder = new TextDecoder();

  constructor(first: number) {
    this.next = first;
    this.firstFresh = first;
  }

  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.next++;
      // Kept for good: a copy, not a slice that would keep its whole decoded chunk alive.
      const kept = detach(s);
      this.ids.set(kept, id);
      this.fresh.push(kept);
    }
    return id;
  }

  /** The strings given ids since the last take, and the id of the first of them. */
  take(): { first: number; values: string[] } {
    const out = { first: this.firstFresh, values: this.fresh };
    this.fresh = [];
    this.firstFresh = this.next;
    return out;
  }

  /** The id of the text whose UTF-8 bytes are `bytes[from, to)`. */
  idOfBytes(bytes: Uint8Array, from: number, to: number): number {
    return this.entryIds[this.entry(bytes, from, to, hash(bytes, from, to))];
  }

  /** The id of an entry's text. */
  idOf(entry: number): number {
    return this.entryIds[entry];
  }

  /** The entry of the bytes `bytes[from, to)`, whose `hash` the caller computed; added if new. */
  entry(bytes: Uint8Array, from: number, to: number, h: number): number {
    const mask = this.slots.length - 1;
    const n = to - from;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s] - 1;
      if (e < 0) break;
      if (this.hashes[e] === h && this.lengths[e] === n && this.same(e, bytes, from, n)) return e;
    }
    return this.add(h, bytes, from, n);
  }

  private same(e: number, bytes: Uint8Array, from: number, n: number): boolean {
    const pool = this.pool;
    const at = this.starts[e];
    for (let i = 0; i < n; i++) if (pool[at + i] !== bytes[from + i]) return false;
    return true;
  }

  private add(h: number, bytes: Uint8Array, from: number, n: number): number {
    const id = this.id(this.text(bytes, from, n));
    if (this.used + n > this.pool.length) {
      this.pool = grown(this.pool, this.used + n, this.used);
    }
    this.pool.set(bytes.subarray(from, from + n), this.used);
    const e = this.entries++;
    if (e === this.entryIds.length) {
      this.hashes = grown(this.hashes, e + 1, e);
      this.starts = grown(this.starts, e + 1, e);
      this.lengths = grown(this.lengths, e + 1, e);
      this.entryIds = grown(this.entryIds, e + 1, e);
    }
    this.hashes[e] = h;
    this.starts[e] = this.used;
    this.lengths[e] = n;
    this.entryIds[e] = id;
    this.used += n;
    if (2 * this.entries > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let x = 0; x < this.entries; x++) this.place(x);
    } else this.place(e);
    return e;
  }

  /**
   * The bytes as a string. ASCII (nearly every key and detail) is built from its char codes: in a
   * Chrome worker reading a big file, TextDecoder.decode cost ~10 µs a call, most of the time
   * spent on new entries (64k of them took 0.6–0.7 s of a 1M-line read).
   */
  private text(bytes: Uint8Array, from: number, n: number): string {
    const part = bytes.subarray(from, from + n);
    if (n > MAX_CHAR_CODES) return this.decoder.decode(part);
    for (let i = 0; i < n; i++) if (part[i] >= 0x80) return this.decoder.decode(part);
    return String.fromCharCode.apply(null, part as unknown as number[]);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[e] & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }
}

/** FNV-1a of `bytes[from, to)` (a caller may compute it as it copies: same steps, same seed). */
export function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = HASH_SEED;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}

export const HASH_SEED = 0x811c9dc5 | 0;

/** Longest text built from char codes (one argument each: a bound well below the stack's). */
const MAX_CHAR_CODES = 4096;

function grown<T extends Int32Array | Uint8Array>(a: T, need: number, keep: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  next.set(a.subarray(0, keep));
  return next;
}
