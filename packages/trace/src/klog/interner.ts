/**
 * One string per distinct short ASCII value read from bytes: a log names the same few thousand
 * keys and targets over and over, and each event can share its key's string instead of cutting
 * a new one per line.
 *
 * Invariants:
 * - `get` returns a string equal to text[a, b) — always, whatever the table holds.
 * - Stored strings are fresh copies, never slices of `text`: a slice would keep the whole
 *   decoded window it came from alive for as long as the table holds it.
 * - Bounded: at most MAX_ENTRIES strings of at most MAX_LENGTH bytes each; when full, the table
 *   starts over. Values with a byte ≥ 0x80 (not ASCII: the text's characters differ from the
 *   bytes) are never stored.
 */
const MAX_LENGTH = 256;
const MAX_ENTRIES = 1 << 16;

export class Interner {
  /** Open addressing, linear probing; a slot is empty while its string is undefined. */
  private strings: (string | undefined)[] = [];
  private hashes = new Int32Array(0);
  private mask = 0;
  private count = 0;

  constructor() {
    this.reset(1 << 12);
  }

  /**
   * text[a, b), where bytes[a, b) are its bytes at the same offsets (ASCII-aligned). `likely`, when
   * equal, comes back itself: a pass's lines name the previous line's key again.
   */
  get(bytes: Uint8Array, text: string, a: number, b: number, likely?: string): string {
    const len = b - a;
    // startsWith compares in one call what a loop would compare a character at a time.
    if (likely !== undefined && likely.length === len && text.startsWith(likely, a)) return likely;
    if (len > MAX_LENGTH) return text.slice(a, b);
    let h = len;
    let high = 0;
    for (let i = a; i < b; i++) {
      const c = bytes[i];
      h = (Math.imul(h, 31) + c) | 0;
      high |= c;
    }
    if (high >= 0x80) return text.slice(a, b);
    h ^= h >>> 15;
    const mask = this.mask;
    let slot = Math.imul(h, 0x2c1b3c6d) >>> 0;
    for (;;) {
      slot &= mask;
      const s = this.strings[slot];
      if (s === undefined) break;
      if (this.hashes[slot] === h && s.length === len && text.startsWith(s, a)) return s;
      slot++;
    }
    const fresh = copyAscii(bytes, a, b);
    if (2 * (this.count + 1) > mask + 1) {
      this.grow();
      this.put(fresh, h);
    } else {
      this.strings[slot] = fresh;
      this.hashes[slot] = h;
      this.count++;
    }
    return fresh;
  }

  private put(s: string, h: number): void {
    let slot = Math.imul(h, 0x2c1b3c6d) >>> 0;
    for (;;) {
      slot &= this.mask;
      if (this.strings[slot] === undefined) break;
      slot++;
    }
    this.strings[slot] = s;
    this.hashes[slot] = h;
    this.count++;
  }

  /** Doubles the table, or empties it once it holds MAX_ENTRIES. */
  private grow(): void {
    const size = this.mask + 1;
    if (this.count >= MAX_ENTRIES) {
      this.reset(size);
      return;
    }
    const strings = this.strings;
    const hashes = this.hashes;
    this.reset(size * 2);
    for (let i = 0; i < size; i++) {
      const s = strings[i];
      if (s !== undefined) this.put(s, hashes[i]);
    }
  }

  private reset(size: number): void {
    this.strings = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    this.count = 0;
  }
}

/** A new flat string of the ASCII bytes[a, b) (short: its char codes are one argument list). */
export function copyAscii(bytes: Uint8Array, a: number, b: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(a, b) as unknown as number[]);
}
