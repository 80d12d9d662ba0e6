/**
 * A CRD's `pattern` as a JS RegExp that matches what Go's regexp matches. OpenAPI calls patterns
 * ECMA 262, but a cluster compiles them with Go's regexp (RE2 syntax; kube-openapi's
 * validate.Pattern, unanchored MatchString), and refuses a CRD whose pattern Go cannot compile.
 * Where the two read the same text differently, this follows Go:
 *
 * - `.` is any character but `\n` (JS also stops at `\r`, U+2028, U+2029); `\s` is
 *   `[\t\n\f\r ]` (JS adds `\v` and Unicode spaces); `\A`, `\z`, `\Q…\E`, `\x{…}`, octal `\123`,
 *   `\pL`, `\p{Greek}`, `[[:alpha:]]`, `(?P<name>…)` and a leading `(?i)`, `(?s)`, `(?m)`;
 * - an escaped punctuation character is itself; a `{` that starts no repetition, a `]` or `}`
 *   outside a class are literal; a `]` first in a class is literal (JS: an empty class).
 *
 * Not judged (undefined: the value is not checked against it): what Go refuses — lookaround,
 * backreferences, `\Z` — and what has no JS form: flags other than a leading group (`(?i:…)`,
 * `(?U)`), `\S` or a negated POSIX class inside a class. Left different: with `(?m)`, JS also
 * ends a line at `\r`, U+2028 and U+2029. JS backtracks where RE2 runs in linear time, so a
 * pathological pattern is slow here and not on a cluster.
 */

const cache = new Map<string, RegExp | null>();
const CACHE_LIMIT = 500;

/** The pattern's RegExp; undefined when it cannot be judged as Go would. */
export function goRegExp(pattern: string): RegExp | undefined {
  let re = cache.get(pattern);
  if (re === undefined) {
    re = compile(pattern);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, re);
  }
  return re ?? undefined;
}

function compile(pattern: string): RegExp | null {
  try {
    const { source, flags } = translate(pattern);
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

class Unsupported extends Error {}

/** Characters a JS `u` RegExp takes escaped only (outside a class). */
const JS_SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
/** …and inside a class, `-` too. */
const JS_CLASS_SYNTAX = new Set([...JS_SYNTAX, "-"]);

const GO_SPACE = "\\t\\n\\f\\r ";

/** Go's POSIX classes, all ASCII. */
const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7f",
  blank: "\\t ",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`\\{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

function translate(pattern: string): { source: string; flags: string } {
  const chars = [...pattern];
  let i = 0;
  let flags = "u";
  const leading = /^\(\?([ims]+)\)/.exec(pattern);
  if (leading) {
    flags += [...new Set(leading[1])].join("");
    i = leading[0].length;
  }
  const dotAll = flags.includes("s");
  let out = "";
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === "\\") {
      const [text, next] = escape(chars, i + 1, false);
      out += text;
      i = next;
    } else if (c === "[") {
      const [text, next] = charClass(chars, i + 1);
      out += text;
      i = next;
    } else if (c === "(") {
      const [text, next] = group(chars, i + 1);
      out += text;
      i = next;
    } else if (c === "{") {
      const repeat = /^\{(\d+)(?:,(\d*))?\}/.exec(chars.slice(i).join(""));
      if (repeat && [repeat[1], repeat[2]].some((n) => n && Number(n) > 1000))
        throw new Unsupported(); // Go: invalid repeat count
      out += repeat ? repeat[0] : "\\{";
      i += repeat ? [...repeat[0]].length : 1;
    } else {
      out += c === "." ? (dotAll ? "." : "[^\\n]") : c === "]" || c === "}" ? `\\${c}` : c;
      i++;
    }
  }
  return { source: out, flags };
}

/** A group's opening, after its `(`. */
function group(chars: string[], i: number): [string, number] {
  if (chars[i] !== "?") return ["(", i];
  const rest = chars.slice(i, i + 3).join("");
  if (rest.startsWith("?:")) return ["(?:", i + 2];
  if (rest === "?P<") return ["(?<", i + 3];
  if (rest.startsWith("?<") && /[A-Za-z_]/.test(chars[i + 2] ?? "")) return ["(?<", i + 2];
  // Lookaround (Go refuses it) and flags inside the pattern (JS has none on Node 20).
  throw new Unsupported();
}

/** One escape, after its `\`; `inClass` inside `[…]`. */
function escape(chars: string[], i: number, inClass: boolean): [string, number] {
  const d = chars[i];
  if (d === undefined) throw new Unsupported(); // Go: trailing backslash
  switch (d) {
    case "A":
      if (inClass) throw new Unsupported();
      return ["(?<![\\s\\S])", i + 1];
    case "z":
      if (inClass) throw new Unsupported();
      return ["(?![\\s\\S])", i + 1];
    case "b":
    case "B":
      if (inClass) throw new Unsupported();
      return [`\\${d}`, i + 1];
    case "d":
    case "D":
    case "w":
    case "W":
    case "f":
    case "n":
    case "r":
    case "t":
    case "v":
      return [`\\${d}`, i + 1];
    case "a":
      return ["\\x07", i + 1];
    case "s":
      return [inClass ? GO_SPACE : `[${GO_SPACE}]`, i + 1];
    case "S":
      if (inClass) throw new Unsupported();
      return [`[^${GO_SPACE}]`, i + 1];
    case "p":
    case "P":
      return unicodeClass(chars, i);
    case "Q": {
      let text = "";
      let j = i + 1;
      while (j < chars.length && !(chars[j] === "\\" && chars[j + 1] === "E"))
        text += literal(chars[j++]!, inClass);
      return [text, j < chars.length ? j + 2 : j];
    }
    case "x": {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(chars.slice(i + 1, i + 12).join(""));
      if (braced) return [`\\u{${braced[1]}}`, i + 1 + braced[0].length];
      const two = chars.slice(i + 1, i + 3).join("");
      if (/^[0-9A-Fa-f]{2}$/.test(two)) return [`\\x${two}`, i + 3];
      throw new Unsupported();
    }
  }
  if (/[0-7]/.test(d)) {
    // Octal: \0, \012, \123 (a lone \1–\7 would be a backreference, which Go refuses).
    const digits = /^[0-7]{1,3}/.exec(chars.slice(i, i + 3).join(""))![0];
    if (d !== "0" && digits.length === 1) throw new Unsupported();
    return [`\\u{${parseInt(digits, 8).toString(16)}}`, i + digits.length];
  }
  if (d.codePointAt(0)! < 0x80 && !/[A-Za-z0-9]/.test(d)) return [literal(d, inClass), i + 1];
  throw new Unsupported(); // \Z, \C, \G, \e, … : Go refuses them.
}

/** `\pL`, `\p{Lu}`, `\p{Greek}`, `\p{^Greek}` (after the `\`, at the p or P). */
function unicodeClass(chars: string[], i: number): [string, number] {
  let negated = chars[i] === "P";
  let name: string;
  let next: number;
  if (chars[i + 1] === "{") {
    const close = chars.indexOf("}", i + 2);
    if (close < 0) throw new Unsupported();
    name = chars.slice(i + 2, close).join("");
    next = close + 1;
  } else {
    name = chars[i + 1] ?? "";
    next = i + 2;
  }
  if (name.startsWith("^")) {
    negated = !negated;
    name = name.slice(1);
  }
  if (!/^[A-Za-z_]+$/.test(name)) throw new Unsupported();
  // A general category (L, Lu, Nd, …) or Any keeps its name; anything else is a script.
  const property = /^([A-Z][a-z]?|Any)$/.test(name) ? name : `Script=${name}`;
  return [`\\${negated ? "P" : "p"}{${property}}`, next];
}

/** A `[…]` class, after its `[`. */
function charClass(chars: string[], i: number): [string, number] {
  let out = "[";
  if (chars[i] === "^") {
    out += "^";
    i++;
  }
  let first = true;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === "]" && !first) return [`${out}]`, i + 1];
    first = false;
    if (c === "\\") {
      const [text, next] = escape(chars, i + 1, true);
      out += text;
      i = next;
    } else if (c === "[" && chars[i + 1] === ":") {
      const close = chars.indexOf("]", i);
      const name = /^\[:(\^?)([a-z]+):\]$/.exec(chars.slice(i, close + 1).join(""));
      if (!name || name[1] || !POSIX[name[2]!]) throw new Unsupported();
      out += POSIX[name[2]!];
      i = close + 1;
    } else {
      out += c === "-" ? "-" : literal(c, true);
      i++;
    }
  }
  throw new Unsupported(); // Go: missing closing ]
}

/** A character that stands for itself. */
function literal(c: string, inClass: boolean): string {
  return (inClass ? JS_CLASS_SYNTAX : JS_SYNTAX).has(c) ? `\\${c}` : c;
}
