/**
 * Ids of strings given as UTF-8 bytes, in front of a string interner: a string seen before is
 * found by hashing and comparing its bytes, without building it. The worker's JSONL path reads a
 * key or an event's detail straight from the file's bytes; nearly all of them were seen before.
 *
 * Invariants: `id` returns what `intern` returned for the same text (called once per distinct
 * byte sequence); each distinct sequence is an entry whose bytes are kept in `pool` (a copy: the
 * chunk they came from is not kept), so a caller may compare against an entry's bytes directly.
 */
export class ByteIds {
  /** Open addressing: slot → entry + 1 (0 = empty); kept at most half full. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 11);
  /** Entry → where its bytes are in `pool`, how many, and its id. */
  starts = new Int32Array(1 << 11);
  lengths = new Int32Array(1 << 11);
  private ids = new Int32Array(1 << 11);
  private entries = 0;
  pool = new Uint8Array(1 << 16);
  private used = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly intern: (text: string) => number) {}

  /** The id of the text in `bytes[from, to)`. */
  id(bytes: Uint8Array, from: number, to: number): number {
    return this.ids[this.entry(bytes, from, to, hash(bytes, from, to))];
  }

  /** The id of an entry. */
  idOf(entry: number): number {
    return this.ids[entry];
  }

  /** The entry of the text in `bytes[from, to)`, whose `hash` the caller computed; added if new. */
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
    const id = this.intern(this.text(bytes, from, n));
    if (this.used + n > this.pool.length) {
      this.pool = grown(this.pool, this.used + n, this.used);
    }
    this.pool.set(bytes.subarray(from, from + n), this.used);
    const e = this.entries++;
    if (e === this.ids.length) {
      this.hashes = grown(this.hashes, e + 1, e);
      this.starts = grown(this.starts, e + 1, e);
      this.lengths = grown(this.lengths, e + 1, e);
      this.ids = grown(this.ids, e + 1, e);
    }
    this.hashes[e] = h;
    this.starts[e] = this.used;
    this.lengths[e] = n;
    this.ids[e] = id;
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
