/**
 * Splits a log message body into `key=value` pairs and positional words, the way klog writes
 * them: values are bare (`len=1`), Go-quoted (`key="default/example-foo"`) or JSON
 * (`obj={"name":"x"}`); positional words are bare or Go-quoted (the InfoS message itself). The
 * one scanner of a klog message: the STAGE reader reads its tokens on the bytes, the pass-end and
 * note readers take them as strings (`scanFields`).
 *
 * Invariants:
 * - `bytes[from, end)` and `text[from, end)` are the same characters at the same offsets (ASCII
 *   bytes, or bytes the decoder replaced one for one); nothing past `end` is read.
 * - A token's value is a span of `text`, unless it was Go-quoted with escapes: then it is the
 *   unquoted string (`decoded`), and its span is [0, -1), which no byte comparison matches.
 * - A name given twice keeps its last value, at its last place (as klog does), and is counted
 *   (`repeats`), so a reader can say so.
 */
import { readGoQuoted } from "./go-quote.ts";
import { shadowBytes } from "./byte-span.ts";

export interface Fields {
  /** Keys in order of appearance; a repeated key keeps its last value (as klog does). */
  keys: string[];
  values: string[];
  words: string[];
  /** Set when a quoted value never closed or held a bad escape; the scan stopped there. */
  error?: string;
}

/** Whether character code `c` may begin a field name (the same test on bytes, for ASCII). */
function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** Whether character code `c` may continue a field name. */
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

/** Per byte: its lower case when it may continue a field name (isKeyChar), else 0. */
const NAME_BYTE = Uint8Array.from({ length: 256 }, (_, c) =>
  isKeyChar(c) ? (c >= 65 && c <= 90 ? c + 32 : c) : 0,
);

/**
 * The hash of the field name bytes[a, b) in any case: what `scan` takes of each name as it reads
 * it (MessageTokens.hashes), so a reader looks a name up without reading it again.
 */
export function nameHash(bytes: Uint8Array, a: number, b: number): number {
  let h = 0;
  for (let i = a; i < b; i++) h = (Math.imul(h, 31) + NAME_BYTE[bytes[i]]) | 0;
  return h;
}

/**
 * The pairs and words of one message, as spans: refilled by each `scan`, so reading a line makes
 * no object but the strings it keeps. Pair `p` is named bytes[nameStart[p], nameEnd[p]) and its
 * value is bytes[valueStart[p], valueEnd[p]) (or `decoded[p]`); a pair whose name came again later
 * is not `live`. Word `w` is bytes[wordStart[w], wordEnd[w]) (or `wordDecoded[w]`).
 */
export class MessageTokens {
  bytes: Uint8Array = new Uint8Array(0);
  text = "";
  pairs = 0;
  words = 0;
  /** Pairs whose name came again later in the scan (each is not `live`). */
  repeats = 0;
  /** Where the latest scan stopped: a token that ends here ended the message. */
  end = 0;
  nameStart: Int32Array = new Int32Array(16);
  nameEnd: Int32Array = new Int32Array(16);
  /** Each pair's nameHash. */
  hashes: Int32Array = new Int32Array(16);
  valueStart: Int32Array = new Int32Array(16);
  valueEnd: Int32Array = new Int32Array(16);
  live: Uint8Array = new Uint8Array(16);
  decoded: (string | undefined)[] = [];
  wordStart: Int32Array = new Int32Array(16);
  wordEnd: Int32Array = new Int32Array(16);
  wordDecoded: (string | undefined)[] = [];
  /**
   * The live pairs by hash of their name (see `place`): a slot holds a pair while its `slotScan`
   * is the current scan's number, so a new scan empties the table by counting, not filling.
   */
  private slotPair: Int32Array = new Int32Array(64);
  private slotScan: Int32Array = new Int32Array(64);
  private scanNo = 0;
  /** Bytes for a message that had to be unquoted first (see `scanText`). */
  private shadow: Uint8Array = new Uint8Array(256);

  /**
   * Scans bytes[from, end) (`text` the same characters), adding to the tokens so far unless
   * `fresh`. Returns undefined, or why the scan stopped (a quoted value never closed or held a
   * bad escape); columns count from `origin`.
   */
  scan(
    bytes: Uint8Array,
    text: string,
    from: number,
    end: number,
    origin: number,
    fresh = true,
  ): string | undefined {
    this.bytes = bytes;
    this.text = text;
    this.end = end;
    if (fresh) {
      this.pairs = this.words = this.repeats = 0;
      if (++this.scanNo === 0x40000000) {
        this.scanNo = 1;
        this.slotScan.fill(0);
      }
    }
    let i = from;
    while (i < end) {
      let c = bytes[i];
      if (c === 32 || c === 9) {
        i++;
        continue;
      }
      if (c === 34) {
        const q = this.quoted(i, end);
        if (q < 0) return `unterminated quoted text at column ${i - origin + 1}`;
        this.word(this.qStart, this.qEnd, this.qDecoded);
        i = q;
        continue;
      }
      // A key: letters/digits/_.- then "=", hashed as it is read (see nameHash).
      let j = i;
      let h = 0;
      if (isKeyStart(c)) {
        h = NAME_BYTE[c];
        for (j++; j < end && (c = NAME_BYTE[bytes[j]]) !== 0; j++) h = (Math.imul(h, 31) + c) | 0;
      }
      if (j > i && j < end && bytes[j] === 61) {
        const k = j + 1;
        c = k < end ? bytes[k] : 32;
        if (c === 34) {
          const q = this.quoted(k, end);
          if (q < 0) return `unterminated quoted value for "${text.slice(i, j)}"`;
          this.pair(i, j, h, this.qStart, this.qEnd, this.qDecoded);
          i = q;
        } else {
          const stop = c === 123 || c === 91 ? skipJson(bytes, k, end) : -1;
          const e = stop < 0 ? nextSpace(bytes, k, end) : stop;
          this.pair(i, j, h, k, e, undefined);
          i = e;
        }
        continue;
      }
      const stop = nextSpace(bytes, i, end);
      this.word(i, stop, undefined);
      i = stop;
    }
    return undefined;
  }

  /** Scans `text` from `from`: a message that is no span of a line's bytes (an unquoted one). */
  scanText(text: string, from: number): string | undefined {
    this.shadow = shadowBytes(text, this.shadow);
    return this.scan(this.shadow, text, from, text.length, from);
  }

  /** Pair `p`'s value as a string. */
  value(p: number): string {
    const b = this.valueEnd[p];
    return b < 0 ? this.decoded[p]! : this.text.slice(this.valueStart[p], b);
  }

  /** Word `w` as a string. */
  wordAt(w: number): string {
    const b = this.wordEnd[w];
    return b < 0 ? this.wordDecoded[w]! : this.text.slice(this.wordStart[w], b);
  }

  /** Pair `p`'s name, as written. */
  name(p: number): string {
    return this.text.slice(this.nameStart[p], this.nameEnd[p]);
  }

  /**
   * A new pair named bytes[a, b) (`h` its nameHash), valued bytes[va, vb) or `decoded`; an
   * earlier pair of that name is no longer live. Names are found again through a hash table, so
   * a line of a million pairs costs a million lookups, not a million squared comparisons.
   */
  private pair(
    a: number,
    b: number,
    h: number,
    va: number,
    vb: number,
    decoded: string | undefined,
  ): void {
    const p = this.pairs++;
    if (p === this.live.length) this.grow();
    if (2 * this.pairs > this.slotPair.length) this.rehash();
    this.nameStart[p] = a;
    this.nameEnd[p] = b;
    this.hashes[p] = h;
    this.valueStart[p] = va;
    this.valueEnd[p] = vb;
    if (vb < 0) this.decoded[p] = decoded;
    this.live[p] = 1;
    this.place(p);
  }

  /** Puts pair `p` in the name table: in the slot of an earlier pair of its name, if any. */
  private place(p: number): void {
    const { bytes, nameStart, nameEnd, slotPair, slotScan, scanNo } = this;
    const h = this.hashes[p];
    const a = nameStart[p];
    const n = nameEnd[p] - a;
    const mask = slotPair.length - 1;
    let slot = (h ^ (h >>> 15)) & mask;
    while (slotScan[slot] === scanNo) {
      const o = slotPair[slot];
      const c = nameStart[o];
      let same = nameEnd[o] - c === n;
      for (let i = 0; i < n && same; i++) same = bytes[c + i] === bytes[a + i];
      if (same) {
        this.live[o] = 0;
        this.repeats++;
        break;
      }
      slot = (slot + 1) & mask;
    }
    slotScan[slot] = scanNo;
    slotPair[slot] = p;
  }

  /** A name table twice as large, holding the live pairs so far. */
  private rehash(): void {
    this.slotPair = new Int32Array(this.slotPair.length * 2);
    this.slotScan = new Int32Array(this.slotPair.length);
    for (let o = 0; o < this.pairs - 1; o++) if (this.live[o] === 1) this.place(o);
  }

  private word(a: number, b: number, decoded: string | undefined): void {
    const w = this.words++;
    if (w === this.wordStart.length) {
      this.wordStart = grown(this.wordStart);
      this.wordEnd = grown(this.wordEnd);
    }
    this.wordStart[w] = a;
    this.wordEnd[w] = b;
    if (b < 0) this.wordDecoded[w] = decoded;
  }

  /** The latest quoted string's span, or its unquoted text (see `quoted`). */
  private qStart = 0;
  private qEnd = 0;
  private qDecoded: string | undefined;

  /**
   * Reads the Go-quoted string at `i` into qStart, qEnd and qDecoded: the index past its closing
   * quote, or -1 when it never closed or held a bad escape.
   */
  private quoted(i: number, end: number): number {
    const bytes = this.bytes;
    let q = i + 1;
    while (q < end && bytes[q] !== 34 && bytes[q] !== 92) q++;
    if (q >= end) return -1;
    if (bytes[q] === 34) {
      this.qStart = i + 1;
      this.qEnd = q;
      this.qDecoded = undefined;
      return q + 1;
    }
    // An escape: unquoted by the rules of go-quote.ts, on the line's text alone.
    const r = readGoQuoted(this.text.slice(i, end), 0);
    if (r === undefined) return -1;
    this.qStart = 0;
    this.qEnd = -1;
    this.qDecoded = r.value;
    return i + r.end;
  }

  private grow(): void {
    this.nameStart = grown(this.nameStart);
    this.nameEnd = grown(this.nameEnd);
    this.valueStart = grown(this.valueStart);
    this.valueEnd = grown(this.valueEnd);
    this.hashes = grown(this.hashes);
    const live = new Uint8Array(this.live.length * 2);
    live.set(this.live);
    this.live = live;
  }
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Index just past a balanced JSON object/array starting at `start`, or -1. */
function skipJson(bytes: Uint8Array, start: number, end: number): number {
  let depth = 0;
  let i = start;
  while (i < end) {
    const c = bytes[i];
    if (c === 34) {
      i++;
      while (i < end && bytes[i] !== 34) i += bytes[i] === 92 ? 2 : 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

function nextSpace(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && bytes[i] !== 32 && bytes[i] !== 9) i++;
  return i;
}

const tokens = new MessageTokens();

/** The pairs and words of `text` from `from`, as strings. */
export function scanFields(text: string, from = 0): Fields {
  const error = tokens.scanText(text, from);
  const keys: string[] = [];
  const values: string[] = [];
  const words: string[] = [];
  for (let p = 0; p < tokens.pairs; p++) {
    if (tokens.live[p] === 0) continue;
    keys.push(tokens.name(p));
    values.push(tokens.value(p));
  }
  for (let w = 0; w < tokens.words; w++) words.push(tokens.wordAt(w));
  return error === undefined ? { keys, values, words } : { keys, values, words, error };
}

/**
 * Whether `text` may hold a field named one of `names` (lower-case, as `pick` takes them): some
 * "=" follows one of them, in any case. False means `pick(scanFields(text), names)` is undefined,
 * which lets lines without such a field skip the scan (keys are ASCII, so ASCII case folding is
 * all `toLowerCase` could do to them).
 */
export function mayHaveField(text: string, names: readonly string[]): boolean {
  for (let eq = text.indexOf("="); eq >= 0; eq = text.indexOf("=", eq + 1)) {
    for (const name of names) {
      const at = eq - name.length;
      if (at < 0) continue;
      let m = 0;
      for (; m < name.length; m++) {
        const c = text.charCodeAt(at + m);
        const want = name.charCodeAt(m);
        if (c !== want && !(c >= 65 && c <= 90 && c + 32 === want)) break;
      }
      if (m === name.length) return true;
    }
  }
  return false;
}

/** The value of the first of `names` present (case-insensitive match on the key). */
export function pick(f: Fields, names: readonly string[]): string | undefined {
  for (let i = 0; i < f.keys.length; i++) {
    if (names.includes(f.keys[i].toLowerCase())) return f.values[i];
  }
  return undefined;
}
