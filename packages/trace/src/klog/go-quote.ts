/**
 * Go string literals as klog prints them (strconv.Quote): "…" with \" \\ \n \t \r \a \b \f \v,
 * \xHH and \ooo for bytes that are not valid UTF-8, \uHHHH and \UHHHHHHHH for runes.
 */

const SIMPLE: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "'": "'",
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
};

const byteDecoder = new TextDecoder("utf-8");

/**
 * Reads the Go-quoted string starting at `text[start]` (which must be `"`).
 * Returns the unquoted value and the index just past the closing quote, or undefined when the
 * literal is unterminated or holds an invalid escape.
 */
export function readGoQuoted(
  text: string,
  start: number,
): { value: string; end: number } | undefined {
  let i = start + 1;
  const n = text.length;
  // Fast path: no escapes before the closing quote.
  const close = text.indexOf('"', i);
  if (close < 0) return undefined;
  const firstEscape = text.indexOf("\\", i);
  if (firstEscape < 0 || firstEscape > close) {
    return { value: text.slice(i, close), end: close + 1 };
  }
  let out = "";
  let bytes: number[] | undefined;
  const flushBytes = () => {
    if (bytes) {
      out += byteDecoder.decode(new Uint8Array(bytes));
      bytes = undefined;
    }
  };
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      flushBytes();
      return { value: out, end: i + 1 };
    }
    if (c !== "\\") {
      flushBytes();
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) return undefined;
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      flushBytes();
      out += simple;
      i += 2;
      continue;
    }
    if (e === "x" || (e >= "0" && e <= "7")) {
      const hex = e === "x";
      const digits = hex ? text.slice(i + 2, i + 4) : text.slice(i + 1, i + 4);
      const ok = hex ? /^[0-9a-fA-F]{2}$/.test(digits) : /^[0-7]{3}$/.test(digits);
      if (!ok) return undefined;
      (bytes ??= []).push(parseInt(digits, hex ? 16 : 8));
      i += 4; // \xHH and \ooo are both four characters
      continue;
    }
    if (e === "u" || e === "U") {
      const len = e === "u" ? 4 : 8;
      const digits = text.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(digits)) return undefined;
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) return undefined;
      flushBytes();
      out += String.fromCodePoint(cp);
      i += 2 + len;
      continue;
    }
    return undefined;
  }
  return undefined;
}

/** Unquotes a whole Go string literal; returns the text unchanged when it is not one. */
export function unquoteGo(text: string): string {
  if (text.length < 2 || text[0] !== '"') return text;
  const r = readGoQuoted(text, 0);
  return r && r.end === text.length ? r.value : text;
}
