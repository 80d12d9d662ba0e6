/**
 * Go's encoding/json syntax errors (its scanner's words), for bodies the real server parses with
 * Go: a malformed patch's 400 then reads as a cluster's (`invalid character 'o' in literal null
 * (expecting 'u')`), not as JavaScript's JSON.parse message. Only the message is made here, for
 * text JSON.parse refused; it recurses, so nesting deeper than the stack finds nothing.
 */

class SyntaxProblem extends Error {}

/** strconv.Quote of one character, in single quotes, as the scanner's quoteChar writes it. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\" };
  if (escapes[c]) return `'${escapes[c]}'`;
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, "0")}'`;
  return `'${c}'`;
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

class Scanner {
  #i = 0;
  readonly #s: string;
  constructor(s: string) {
    this.#s = s;
  }

  #peek(): string | undefined {
    return this.#s[this.#i];
  }

  #fail(context: string): never {
    const c = this.#peek();
    if (c === undefined) throw new SyntaxProblem("unexpected end of JSON input");
    throw new SyntaxProblem(`invalid character ${quoteChar(c)} ${context}`);
  }

  #skipSpace(): void {
    while (isSpace(this.#peek())) this.#i++;
  }

  document(): void {
    this.#value();
    this.#skipSpace();
    if (this.#peek() !== undefined) this.#fail("after top-level value");
  }

  #value(): void {
    this.#skipSpace();
    const c = this.#peek();
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string();
    if (c === "-" || isDigit(c)) return this.#number();
    for (const word of ["true", "false", "null"]) if (c === word[0]) return this.#literal(word);
    this.#fail("looking for beginning of value");
  }

  #object(): void {
    this.#i++;
    this.#skipSpace();
    if (this.#peek() === "}") return void this.#i++;
    for (;;) {
      if (this.#peek() !== '"') this.#fail("looking for beginning of object key string");
      this.#string();
      this.#skipSpace();
      if (this.#peek() !== ":") this.#fail("after object key");
      this.#i++;
      this.#value();
      this.#skipSpace();
      if (this.#peek() === "}") return void this.#i++;
      if (this.#peek() !== ",") this.#fail("after object key:value pair");
      this.#i++;
      this.#skipSpace();
    }
  }

  #array(): void {
    this.#i++;
    this.#skipSpace();
    if (this.#peek() === "]") return void this.#i++;
    for (;;) {
      this.#value();
      this.#skipSpace();
      if (this.#peek() === "]") return void this.#i++;
      if (this.#peek() !== ",") this.#fail("after array element");
      this.#i++;
    }
  }

  #string(): void {
    this.#i++;
    for (;;) {
      const c = this.#peek();
      if (c === undefined) this.#fail("");
      if (c === '"') return void this.#i++;
      if (c < " ") this.#fail("in string literal");
      this.#i++;
      if (c !== "\\") continue;
      const e = this.#peek();
      if (e === undefined || !'"\\/bfnrtu'.includes(e)) this.#fail("in string escape code");
      this.#i++;
      if (e !== "u") continue;
      for (let k = 0; k < 4; k++) {
        if (!isHex(this.#peek())) this.#fail("in \\u hexadecimal character escape");
        this.#i++;
      }
    }
  }

  #number(): void {
    if (this.#peek() === "-") this.#i++;
    if (this.#peek() === "0") this.#i++;
    else if (isDigit(this.#peek())) while (isDigit(this.#peek())) this.#i++;
    else this.#fail("in numeric literal");
    if (this.#peek() === ".") {
      this.#i++;
      if (!isDigit(this.#peek())) this.#fail("after decimal point in numeric literal");
      while (isDigit(this.#peek())) this.#i++;
    }
    if (this.#peek() === "e" || this.#peek() === "E") {
      this.#i++;
      if (this.#peek() === "+" || this.#peek() === "-") this.#i++;
      if (!isDigit(this.#peek())) this.#fail("in exponent of numeric literal");
      while (isDigit(this.#peek())) this.#i++;
    }
  }

  #literal(word: string): void {
    this.#i++;
    for (const expected of word.slice(1)) {
      if (this.#peek() !== expected) this.#fail(`in literal ${word} (expecting '${expected}')`);
      this.#i++;
    }
  }
}

/** Go's syntax error for `text`, or undefined when it is one valid JSON value. */
export function goJsonSyntaxError(text: string): string | undefined {
  try {
    new Scanner(text).document();
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxProblem) return e.message;
    // Nesting deeper than the stack: the caller says so in its own words.
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
