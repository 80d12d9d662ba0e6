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
 * - A name given twice keeps its last value, at its last place (as klog does).
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

/** isKeyChar of every byte, as a table: a name's bytes are tested one load each. */
const KEY_CHAR = Uint8Array.from({ length: 256 }, (_, c) => (isKeyChar(c) ? 1 : 0));

/**
 * The pairs and words of one message, as spans: refilled by each `scan`, so reading a line makes
 * no object but the strings it keeps. Pair `p` is named bytes[nameStart[p], nameEnd[p]) and its
 * value is bytes[valueStart[p], valueEnd[p]) (or `decoded[p]`); a pair whose name came again later
 * is not `live`. Words are pairs without a name (nameStart = nameEnd = valueStart).
 */
export class MessageTokens {
  bytes: Uint8Array = new Uint8Array(0);
  text = "";
  pairs = 0;
  words = 0;
  nameStart: Int32Array = new Int32Array(16);
  nameEnd: Int32Array = new Int32Array(16);
  valueStart: Int32Array = new Int32Array(16);
  valueEnd: Int32Array = new Int32Array(16);
  live: Uint8Array = new Uint8Array(16);
  decoded: (string | undefined)[] = [];
  wordStart: Int32Array = new Int32Array(16);
  wordEnd: Int32Array = new Int32Array(16);
  wordDecoded: (string | undefined)[] = [];
  /** A bit per (name length + first byte) % 32 of the pairs so far (see `pair`). */
  private signatures = 0;
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
    if (fresh) this.pairs = this.words = this.signatures = 0;
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
      // A key: letters/digits/_.- then "=".
      let j = i;
      if (isKeyStart(c)) {
        j++;
        while (j < end && KEY_CHAR[bytes[j]] === 1) j++;
      }
      if (j > i && j < end && bytes[j] === 61) {
        const k = j + 1;
        c = k < end ? bytes[k] : 32;
        if (c === 34) {
          const q = this.quoted(k, end);
          if (q < 0) return `unterminated quoted value for "${text.slice(i, j)}"`;
          this.pair(i, j, this.qStart, this.qEnd, this.qDecoded);
          i = q;
        } else {
          const stop = c === 123 || c === 91 ? skipJson(bytes, k, end) : -1;
          const e = stop < 0 ? nextSpace(bytes, k, end) : stop;
          this.pair(i, j, k, e, undefined);
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

  /** A new pair named bytes[a, b), valued bytes[va, vb) or `decoded`; an earlier pair of that
   * name is no longer live. */
  private pair(a: number, b: number, va: number, vb: number, decoded: string | undefined): void {
    const p = this.pairs++;
    if (p === this.live.length) this.grow();
    const { bytes, nameStart, nameEnd } = this;
    // Names of a length and first byte seen before are compared; most lines have none.
    const signature = 1 << ((b - a + bytes[a]) & 31);
    const again = (this.signatures & signature) !== 0;
    this.signatures |= signature;
    for (let o = 0; again && o < p; o++) {
      if (nameEnd[o] - nameStart[o] !== b - a || this.live[o] === 0) continue;
      let same = true;
      for (let i = 0; i < b - a && same; i++) same = bytes[nameStart[o] + i] === bytes[a + i];
      if (same) this.live[o] = 0;
    }
    nameStart[p] = a;
    nameEnd[p] = b;
    this.valueStart[p] = va;
    this.valueEnd[p] = vb;
    if (vb < 0) this.decoded[p] = decoded;
    this.live[p] = 1;
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
