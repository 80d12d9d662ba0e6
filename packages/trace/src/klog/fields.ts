/**
 * Splits a log message body into `key=value` pairs and positional words, the way klog writes
 * them: values are bare (`len=1`), Go-quoted (`key="default/example-foo"`) or JSON
 * (`obj={"name":"x"}`); positional words are bare or Go-quoted (the InfoS message itself).
 */
import { readGoQuoted } from "./go-quote.ts";

export interface Fields {
  /** Keys in order of appearance; a repeated key keeps its last value (as klog does). */
  keys: string[];
  values: string[];
  words: string[];
  /** Set when a quoted value never closed or held a bad escape; the scan stopped there. */
  error?: string;
}

/** Whether character code `c` may begin a field name (the same test on bytes, for ASCII). */
export function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** Whether character code `c` may continue a field name. */
export function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

/** Index just past a balanced JSON object/array starting at `start`, or -1. */
function skipJson(text: string, start: number): number {
  let depth = 0;
  let i = start;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i++;
      while (i < n && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

export function scanFields(text: string, from = 0): Fields {
  const keys: string[] = [];
  const values: string[] = [];
  const words: string[] = [];
  const n = text.length;
  let i = from;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (c === 34) {
      const q = readGoQuoted(text, i);
      if (!q) return { keys, values, words, error: `unterminated quoted text at column ${i + 1}` };
      words.push(q.value);
      i = q.end;
      continue;
    }
    // A key: letters/digits/_.- then "=".
    let j = i;
    if (isKeyStart(c)) {
      j++;
      while (j < n && isKeyChar(text.charCodeAt(j))) j++;
    }
    if (j > i && j < n && text.charCodeAt(j) === 61) {
      const key = text.slice(i, j);
      let k = j + 1;
      c = k < n ? text.charCodeAt(k) : 32;
      let value: string;
      if (c === 34) {
        const q = readGoQuoted(text, k);
        if (!q) return { keys, values, words, error: `unterminated quoted value for "${key}"` };
        value = q.value;
        k = q.end;
      } else if (c === 123 || c === 91) {
        const end = skipJson(text, k);
        const stop = end < 0 ? nextSpace(text, k) : end;
        value = text.slice(k, stop);
        k = stop;
      } else {
        const stop = nextSpace(text, k);
        value = text.slice(k, stop);
        k = stop;
      }
      const prev = keys.indexOf(key);
      if (prev >= 0) {
        keys.splice(prev, 1);
        values.splice(prev, 1);
      }
      keys.push(key);
      values.push(value);
      i = k;
      continue;
    }
    const stop = nextSpace(text, i);
    words.push(text.slice(i, stop));
    i = stop;
  }
  return { keys, values, words };
}

function nextSpace(text: string, from: number): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) break;
    i++;
  }
  return i;
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
