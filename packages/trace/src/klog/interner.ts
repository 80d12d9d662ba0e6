/**
 * One string per distinct short ASCII value read from bytes, with an id: a row taker (the page's
 * reader worker) compares a line's keys and targets by id, and finds most of its rows' details
 * without building them. A reader whose events are consumed as they come cuts slices (SLICES).
 *
 * Invariants:
 * - `get` returns a string equal to text[a, b) — always, whatever the table holds.
 * - Stored strings are fresh copies, never slices of `text`: a slice would keep the whole
 *   decoded window it came from alive for as long as the table holds it.
 * - Bounded: at most MAX_ENTRIES strings of at most MAX_LENGTH bytes each; when full, the table
 *   starts over. Values with a byte ≥ 0x80 (not ASCII: the text's characters differ from the
 *   bytes) are never stored.
 * - A lookup touches little memory: a slot (entry, hash) is two int32s side by side, an entry's
 *   span (where its bytes are, how many) two more, and the bytes sit in one arena — a table of
 *   strings or byte arrays would cost a cache miss per object visited, more than the comparison
 *   itself. The bytes are compared four at a time (see sameSpan); the string is read only once
 *   they matched.
 */
import { sameSpan, viewOf } from "./byte-span.ts";

const MAX_LENGTH = 256;
const MAX_ENTRIES = 1 << 16;

/**
 * No table: each value is cut from the text anew, and has no id. For a reader whose events are
 * consumed as they come (the CLI's): at 100k Foos most values are met a handful of times, and the
 * table cost more than it saved — reading a 1M-line log took twice as long (see
 * docs/performance.md). A slice keeps its decoded window alive while it lives; what is kept for
 * good is copied (see detach.ts).
 */
export const SLICES: StringTable = {
  lastId: -1,
  key: (_bytes, text, a, b) => text.slice(a, b),
  keyPart: (_bytes, text, a, b) => text.slice(a, b),
  keyed: (_bytes, text, a, b) => text.slice(a, b),
  get: (_bytes, text, a, b) => text.slice(a, b),
};

/** Where the reader's strings come from: the Interner, or SLICES. */
export type StringTable = Pick<Interner, "lastId" | "key" | "keyPart" | "keyed" | "get">;

export class Interner implements StringTable {
  /**
   * Open addressing, linear probing: slot i is slots[2i] (0: empty, else entry + 1) and
   * slots[2i + 1] (the value's hash), side by side so a probe reads one cache line.
   */
  private slots = new Int32Array(0);
  private mask = 0;
  /** Entry e's string, and where its bytes are: arena[spans[2e], spans[2e] + spans[2e + 1]). */
  private strings: string[] = [];
  private spans = new Int32Array(0);
  private arena = new Uint8Array(1 << 16);
  private arenaView = viewOf(this.arena);
  private used = 0;
  /** The bytes looked up last, and a view of them: a log's lines come 64 KB at a time. */
  private bytes: Uint8Array | undefined;
  private view = viewOf(this.arena);
  /** The key looked up last (see `key`). */
  private last = -1;
  /**
   * What goes with entry e when it is a key, each as an entry + 1 (0: none yet): parts[3e] the part
   * before its first "/", parts[3e + 1] the part after (see `keyPart`), parts[3e + 2] the value
   * `keyed` answered with it last.
   */
  private parts = new Int32Array(0);
  /** The entry `get` answered from, or -1 (a value not stored). */
  private found = -1;
  /**
   * Added to an entry's index to make its id: a fresh start begins a new range, so an id names one
   * value for good (until 2^31 values have been interned, when the ranges begin again at 0).
   */
  private base = -MAX_ENTRIES;

  /**
   * The id of the value the last `get` or `key` returned, or -1 when it is not stored (too long,
   * not ASCII): equal ids, equal values — a reader can compare ids where it would compare strings.
   */
  get lastId(): number {
    return this.found < 0 ? -1 : this.base + this.found;
  }

  constructor() {
    this.reset(1 << 12);
  }

  /**
   * `get` for a workqueue key: the lines of a pass name the same key one after another, so the
   * previous key is tried first.
   */
  key(bytes: Uint8Array, text: string, a: number, b: number): string {
    const last = this.last;
    const len = b - a;
    if (bytes !== this.bytes) this.see(bytes);
    if (last >= 0 && this.same(last, a, len)) {
      this.found = last;
      return this.strings[last];
    }
    const s = this.get(bytes, text, a, b);
    this.last = this.found;
    return s;
  }

  /**
   * `get` for a part of the key the last `key` call returned, bytes[a, b): its namespace (`which`
   * 0, before its first "/") or its name (1, after). Remembered with the key's entry: a watch line
   * derives both from its key, and a key's parts are the same every time.
   */
  keyPart(bytes: Uint8Array, text: string, a: number, b: number, which: 0 | 1): string {
    const key = this.last;
    if (key < 0) return this.get(bytes, text, a, b);
    const known = this.parts[3 * key + which] - 1;
    if (known >= 0) {
      this.found = known;
      return this.strings[known];
    }
    return this.getFor(key, 3 * key + which, bytes, text, a, b);
  }

  /**
   * `get`, its entry remembered in parts[at] unless get started the table over (then `last` is -1
   * and the key's entry is gone). A method of its own so that keyPart and keyed stay small enough
   * to be inlined where a line is read.
   */
  private getFor(
    key: number,
    at: number,
    bytes: Uint8Array,
    text: string,
    a: number,
    b: number,
  ): string {
    const s = this.get(bytes, text, a, b);
    if (this.found >= 0 && this.last === key) this.parts[at] = this.found + 1;
    return s;
  }

  /**
   * `get` for a value that comes with the key the last `key` call returned, such as a write's
   * target: the value the key came with last time is tried first, compared on its bytes — a
   * Foo's writes name the same target or two, pass after pass.
   */
  keyed(bytes: Uint8Array, text: string, a: number, b: number): string {
    const key = this.last;
    if (key >= 0) {
      if (bytes !== this.bytes) this.see(bytes);
      const e = this.parts[3 * key + 2] - 1;
      if (e >= 0 && this.same(e, a, b - a)) {
        this.found = e;
        return this.strings[e];
      }
    }
    return key >= 0
      ? this.getFor(key, 3 * key + 2, bytes, text, a, b)
      : this.get(bytes, text, a, b);
  }

  /** text[a, b), where bytes[a, b) are its bytes at the same offsets (ASCII-aligned). */
  get(bytes: Uint8Array, text: string, a: number, b: number): string {
    const len = b - a;
    this.found = -1;
    if (len > MAX_LENGTH) return text.slice(a, b);
    let h = len;
    let high = 0;
    for (let i = a; i < b; i++) {
      const c = bytes[i];
      h = (Math.imul(h, 31) + c) | 0;
      high |= c;
    }
    if (high >= 0x80) return text.slice(a, b);
    if (bytes !== this.bytes) this.see(bytes);
    const mask = this.mask;
    let slot = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    for (;;) {
      slot &= mask;
      const e = this.slots[2 * slot] - 1;
      if (e < 0) break;
      if (this.slots[2 * slot + 1] === h && this.same(e, a, len)) {
        this.found = e;
        return this.strings[e];
      }
      slot++;
    }
    const fresh = copyAscii(bytes, a, b);
    if (2 * (this.strings.length + 1) > mask + 1 || this.used + len > this.arena.length) {
      this.grow(len);
      slot = this.free(h);
    }
    const e = this.strings.length;
    this.strings.push(fresh);
    if (2 * e + 2 > this.spans.length) {
      const spans = new Int32Array(Math.max(2 * this.spans.length, 1024));
      spans.set(this.spans);
      this.spans = spans;
      const parts = new Int32Array((spans.length / 2) * 3);
      parts.set(this.parts);
      this.parts = parts;
    }
    this.spans[2 * e] = this.used;
    this.spans[2 * e + 1] = len;
    this.arena.set(bytes.subarray(a, b), this.used);
    this.used += len;
    this.slots[2 * slot] = e + 1;
    this.slots[2 * slot + 1] = h;
    this.found = e;
    return fresh;
  }

  /** Whether entry e is bytes[a, a + len) of the bytes last seen. */
  private same(e: number, a: number, len: number): boolean {
    return (
      this.spans[2 * e + 1] === len &&
      sameSpan(this.arenaView, this.spans[2 * e], this.view, a, len)
    );
  }

  private see(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.view = viewOf(bytes);
  }

  /** The empty slot where a value of hash `h` goes. */
  private free(h: number): number {
    let slot = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    for (;;) {
      slot &= this.mask;
      if (this.slots[2 * slot] === 0) return slot;
      slot++;
    }
  }

  /** Makes room for one more value of `len` bytes: a bigger table and arena, or a fresh start. */
  private grow(len: number): void {
    const n = this.strings.length;
    if (n >= MAX_ENTRIES) {
      this.reset(this.mask + 1);
      return;
    }
    if (this.used + len > this.arena.length) {
      const arena = new Uint8Array(this.arena.length * 2);
      arena.set(this.arena.subarray(0, this.used));
      this.arena = arena;
      this.arenaView = viewOf(arena);
    }
    if (2 * (n + 1) > this.mask + 1) {
      const old = this.slots;
      const size = this.mask + 1;
      this.slots = new Int32Array(size * 4);
      this.mask = size * 2 - 1;
      for (let i = 0; i < size; i++) {
        if (old[2 * i] === 0) continue;
        const slot = this.free(old[2 * i + 1]);
        this.slots[2 * slot] = old[2 * i];
        this.slots[2 * slot + 1] = old[2 * i + 1];
      }
    }
  }

  private reset(size: number): void {
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    this.strings = [];
    this.used = 0;
    this.last = -1;
    this.parts.fill(0);
    this.base = this.base + MAX_ENTRIES < 2 ** 31 ? this.base + MAX_ENTRIES : 0;
  }
}

/** A new flat string of the ASCII bytes[a, b) (short: its char codes are one argument list). */
export function copyAscii(bytes: Uint8Array, a: number, b: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(a, b) as unknown as number[]);
}
