/**
 * JSON values printed as the Go code behind a cluster's messages prints them: apimachinery's
 * field.Error (`Invalid value: <value>`: a string `%q`, a number `%v`) and kube-openapi's
 * messages (`should be less than or equal to %v`). A custom resource's JSON number decodes to an
 * int64 when it is whole, else to a float64 — whose `%v` turns to an exponent from 1e+06 on.
 */

/** A JSON number as Go prints the int64 or float64 it decodes to. */
export function goNumber(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : goFloat(n);
}

/** Go's `%v` of a float64: the shortest digits, with an exponent below 1e-4 and from 1e+06 on. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : "-Inf";
  if (n === 0) return Object.is(n, -0) ? "-0" : "0";
  const [mantissa = "", e = "0"] = n.toExponential().split("e");
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** Runes Go's unicode.IsPrint takes as printable: letters, marks, numbers, punctuation, symbols. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const SHORT_ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  '"': '\\"',
  "\\": "\\\\",
};

/** Go's strconv.Quote (`%q`): a double-quoted string, non-printable runes escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (SHORT_ESCAPES[ch]) out += SHORT_ESCAPES[ch];
    else if (ch === " " || PRINTABLE.test(ch)) out += ch;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code >= 0xd800 && code <= 0xdfff)
      out += "\ufffd"; // a lone surrogate: Go's JSON decoder made it U+FFFD
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/**
 * A bad value as field.Error's ErrorBody prints it: a string quoted, a number or a boolean as
 * is, null as "null" (quoted: ErrorBody turns nil into the string "null").
 */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return goQuote("null");
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number") return goNumber(v);
  if (typeof v === "boolean") return String(v);
  // An object or array: Go prints its map or slice with %#v, which no client reads; JSON will do.
  return JSON.stringify(v);
}
