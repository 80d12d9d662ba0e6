/**
 * Splits a stream of chunks into lines, in Node and in the browser alike.
 *
 * Invariants:
 * - Chunks may be Uint8Array (UTF-8) or string; both kinds may be mixed.
 * - Bytes are cut at the last "\n" of each chunk and only whole lines are decoded — "\n" never
 *   occurs inside a UTF-8 multi-byte sequence, so no character is split, and the one-shot
 *   TextDecoder path is several times faster than its streaming mode.
 * - A line ends at "\n"; a "\r" right before it is dropped, so CRLF files read like LF files.
 * - An input with no "\n" in its first 64 KiB (WINDOW; or in all of it, if shorter) but a "\r"
 *   there has its lines ended by "\r" (a classic Mac file, or `tr '\n' '\r'`): each "\r", or "\r\n",
 *   is then a line end. Any other input is read as LF, its lone "\r"s kept inside lines; the
 *   check costs nothing once the first "\n" has come.
 * - Lines are numbered from 1 in input order; every line is delivered exactly once.
 * - The text after the last "\n" is delivered by `end()` with `terminated: false` (a torn
 *   last line of a file still being written), never silently dropped.
 * - A UTF-8 byte-order mark at the very start is dropped.
 * - Memory is bounded: a line that grows past `maxLine` (bytes, or UTF-16 units for string
 *   chunks) across chunks is not kept — its text is dropped as it arrives and it is delivered as
 *   "" with `overlong` = its length, still numbered. (A 600 MB gzip bomb of one line would
 *   otherwise be held whole, then fail to become a string at V8's 512 M character limit.) A line
 *   that lies whole inside one chunk is bounded by the chunk's size instead.
 * - Given a ByteLineSink, every line whose text has one character per byte (ASCII, the common
 *   case) goes to it as bytes and text side by side, not cut out as a string; every other line
 *   (and a line that needed joining across chunks after text did) goes to the LineSink. Numbering
 *   and "\r" dropping are the same.
 */
export type LineSink = (
  line: string,
  lineNo: number,
  terminated: boolean,
  /** Length of a line dropped for exceeding the limit (then `line` is ""). */
  overlong?: number,
) => void;

/** Default limit on one line: far above any real log line, far below V8's string limit. */
export const MAX_LINE = 64 * 1024 * 1024;

/**
 * A line handed over as bytes and text at once: bytes[start, end) and text[start, end) are the same
 * characters at the same offsets (ASCII; or bytes the decoder replaced one for one with U+FFFD,
 * which no ASCII comparison matches either). `end` is before the "\n" (and a "\r" before it);
 * both arrays reach past the line, so nothing at or past `end` belongs to it.
 */
export type ByteLineSink = (
  bytes: Uint8Array,
  text: string,
  start: number,
  end: number,
  lineNo: number,
) => void;

/** Decodes UTF-8 bytes that end at a line boundary. */
export type Utf8Decoder = (bytes: Uint8Array) => string;

const NL = 10;
const CR = 13;
const WINDOW = 64 * 1024;

export class LineSplitter {
  private readonly decode: Utf8Decoder;
  /** Undecoded bytes after the last "\n" seen (an incomplete line). */
  private pendingBytes: Uint8Array[] = [];
  private pendingLen = 0;
  /** Length of the current line dropped so far for being over the limit. */
  private overlong = 0;
  /** Decoded text after the last "\n" seen. */
  private carry = "";
  private lineNo = 0;
  private started = false;
  /** What ends a line: undecided until a "\n" or WINDOW bytes without one (see decideEnds). */
  private ends: "lf" | "cr" | undefined;
  /** CR input: the last character was a "\r", so a "\n" first in the next chunk ends no line. */
  private afterCr = false;
  /** Bytes of the input seen while its line ends are undecided (see headBytes). */
  private headLen = 0;

  /**
   * `decode` replaces TextDecoder, e.g. by Node's Buffer, which turns ASCII into a string ~30×
   * faster than Node's TextDecoder does (browsers' TextDecoder is fast already).
   */
  constructor(
    decode?: Utf8Decoder,
    private readonly maxLine = MAX_LINE,
  ) {
    if (decode) this.decode = decode;
    else {
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      this.decode = (bytes) => decoder.decode(bytes);
    }
  }

  /** Number of lines delivered so far. */
  get lines(): number {
    return this.lineNo;
  }

  push(chunk: Uint8Array | string, sink: LineSink, byteSink?: ByteLineSink): void {
    if (typeof chunk === "string") {
      this.flushBytes();
      this.text(this.ends === "cr" ? this.crText(chunk) : chunk, sink);
      if (this.ends === undefined && this.carry.length >= WINDOW) this.decideEnds(sink, byteSink);
      return;
    }
    // One kind of byte array whatever the caller's (Node's Buffer is a subclass): the byte
    // readers downstream stay monomorphic, and slice() below copies — Buffer's slice() is a view,
    // which would change under the pending bytes when the caller refills its buffer.
    if (chunk.constructor !== Uint8Array) {
      chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    // Decode at most WINDOW bytes at a time: a string that big stays in V8's young generation,
    // where it dies cheaply; a 1 MB one goes to the large-object space and every one of them
    // pushes the collector towards a full mark of the heap (which holds all the passes).
    for (let at = 0; at < chunk.length; at += WINDOW) {
      const piece = at === 0 && chunk.length <= WINDOW ? chunk : chunk.subarray(at, at + WINDOW);
      // Piece by piece: the input may turn out CR at any piece of its first WINDOW bytes.
      this.bytes(this.ends === "cr" ? this.crBytes(piece) : piece, sink, byteSink);
    }
  }

  private bytes(chunk: Uint8Array, sink: LineSink, byteSink: ByteLineSink | undefined): void {
    if (this.ends === undefined && this.headBytes(chunk, sink, byteSink)) return;
    const last = chunk.lastIndexOf(NL);
    if (last < 0) {
      if (chunk.length > 0) this.keepPending(chunk.slice());
      return;
    }
    let from = 0;
    if (this.pendingBytes.length > 0) {
      // Finish the line that straddles the chunk boundary on its own, so the rest of the chunk
      // is decoded in place rather than copied.
      from = chunk.indexOf(NL) + 1;
      this.pendingBytes.push(chunk.subarray(0, from));
      const line = concat(this.pendingBytes);
      this.pendingBytes = [];
      this.pendingLen = 0;
      this.deliver(line, sink, byteSink);
    }
    if (from <= last) this.deliver(chunk.subarray(from, last + 1), sink, byteSink);
    if (last + 1 < chunk.length) this.keepPending(chunk.slice(last + 1));
  }

  /** Decodes whole lines (`bytes` ends with "\n") and delivers them. */
  private deliver(bytes: Uint8Array, sink: LineSink, byteSink: ByteLineSink | undefined): void {
    // Line by line on the bytes only where no unfinished line, over-long line or byte-order mark
    // needs the text path's care.
    if (
      byteSink === undefined ||
      this.carry.length > 0 ||
      this.overlong > 0 ||
      (!this.started && bytes[0] === 0xef)
    ) {
      this.text(this.decode(bytes), sink);
      return;
    }
    const text = this.decode(bytes);
    if (text.length === bytes.length) this.byteLines(bytes, text, byteSink);
    else this.mixed(bytes, sink, byteSink);
  }

  /** Whole lines whose bytes are their characters, `text` decoded from them. */
  private byteLines(bytes: Uint8Array, text: string, byteSink: ByteLineSink): void {
    this.started = true;
    const n = text.length;
    let start = 0;
    while (start < n) {
      const nl = text.indexOf("\n", start);
      const end = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
      byteSink(bytes, text, start, end, ++this.lineNo);
      start = nl + 1;
    }
  }

  /**
   * Whole lines, some of them not ASCII (a "µs", a name in another script, an invalid byte): those
   * go as text, and the runs of ASCII lines between them still as bytes — a character now and then
   * does not send a whole window down the text path.
   */
  private mixed(bytes: Uint8Array, sink: LineSink, byteSink: ByteLineSink): void {
    const n = bytes.length;
    let run = 0;
    for (let start = 0; start < n;) {
      const nl = bytes.indexOf(NL, start);
      let i = start;
      while (i < nl && bytes[i] < 0x80) i++;
      if (i < nl) {
        if (run < start) {
          const ascii = bytes.subarray(run, start);
          this.byteLines(ascii, this.decode(ascii), byteSink);
        }
        this.text(this.decode(bytes.subarray(start, nl + 1)), sink);
        run = nl + 1;
      }
      start = nl + 1;
    }
    if (run < n) {
      const ascii = bytes.subarray(run, n);
      this.byteLines(ascii, this.decode(ascii), byteSink);
    }
  }

  /** Holds the start of an unfinished line — or drops it once it is over the limit. */
  private keepPending(bytes: Uint8Array): void {
    this.pendingBytes.push(bytes);
    this.pendingLen += bytes.length;
    if (this.pendingLen + this.carry.length > this.maxLine) {
      this.overlong += this.pendingLen + this.carry.length;
      this.pendingBytes = [];
      this.pendingLen = 0;
      this.carry = "";
    }
  }

  /** Delivers a final unterminated line, if any. */
  end(sink: LineSink): void {
    if (this.ends === undefined) this.decideEnds(sink, undefined);
    this.flushBytes();
    if (this.carry.length > 0 || this.overlong > 0) {
      const line = this.carry;
      this.carry = "";
      this.emit(line, sink, false);
    }
  }

  /** Turns pending bytes into pending text (a string chunk follows, or the input ends). */
  private flushBytes(): void {
    if (this.pendingBytes.length === 0) return;
    const text = this.decode(concat(this.pendingBytes));
    this.pendingBytes = [];
    this.pendingLen = 0;
    this.text(text, () => undefined);
  }

  private text(text: string, sink: LineSink): void {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    let nl = text.indexOf("\n");
    if (nl < 0) {
      this.carry += text;
      this.capCarry();
      return;
    }
    this.ends ??= "lf";
    if (this.carry.length > 0) {
      this.emit(this.carry + text.slice(0, nl), sink, true);
      this.carry = "";
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    while (nl >= 0) {
      this.emit(text.slice(start, nl), sink, true);
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    this.carry = start < text.length ? text.slice(start) : "";
    this.capCarry();
  }

  /**
   * A chunk of the input's first WINDOW bytes, its line ends still undecided: a "\n" among those
   * bytes makes it LF input; none in all of them, CR input if they hold a "\r" (see decideEnds).
   * True when the chunk was taken here (held, or read as CR input).
   */
  private headBytes(
    chunk: Uint8Array,
    sink: LineSink,
    byteSink: ByteLineSink | undefined,
  ): boolean {
    const room = WINDOW - this.headLen;
    const nl = chunk.indexOf(NL);
    if (nl >= 0 && nl < room) {
      this.ends = "lf";
      return false;
    }
    if (chunk.length < room) {
      this.headLen += chunk.length;
      if (chunk.length > 0) this.keepPending(chunk.slice());
      return true;
    }
    // The first WINDOW bytes are in, without a "\n".
    if (chunk.subarray(0, room).indexOf(CR) < 0 && !this.holdsCr()) {
      this.ends = "lf";
      return false;
    }
    this.keepPending(chunk.slice());
    this.decideEnds(sink, byteSink);
    return true;
  }

  /** Whether the text and bytes held of the first line have a "\r". */
  private holdsCr(): boolean {
    return this.carry.indexOf("\r") >= 0 || this.pendingBytes.some((b) => b.indexOf(CR) >= 0);
  }

  /**
   * No "\n" came in the first WINDOW bytes, or the input ended without one: it is CR input if
   * what is held of its first line has a "\r" — then that is split again at its "\r"s.
   */
  private decideEnds(sink: LineSink, byteSink: ByteLineSink | undefined): void {
    const cr = this.holdsCr();
    this.ends = cr ? "cr" : "lf";
    if (!cr) return;
    const carry = this.carry;
    const pending = this.pendingBytes;
    this.carry = "";
    this.pendingBytes = [];
    this.pendingLen = 0;
    if (carry.length > 0) this.text(this.crText(carry), sink);
    if (pending.length > 0) this.bytes(this.crBytes(concat(pending)), sink, byteSink);
  }

  /** CR input's bytes with each "\r" or "\r\n" made one "\n". */
  private crBytes(chunk: Uint8Array): Uint8Array {
    const out = new Uint8Array(chunk.length);
    let n = 0;
    let afterCr = this.afterCr;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === NL && afterCr) {
        afterCr = false;
        continue;
      }
      afterCr = b === CR;
      out[n++] = afterCr ? NL : b;
    }
    this.afterCr = afterCr;
    return out.subarray(0, n);
  }

  /** CR input's text with each "\r" or "\r\n" made one "\n". */
  private crText(text: string): string {
    if (text.length === 0) return text;
    if (this.afterCr && text.charCodeAt(0) === NL) text = text.slice(1);
    this.afterCr = text.charCodeAt(text.length - 1) === CR;
    return text.replace(/\r\n?/g, "\n");
  }

  private capCarry(): void {
    if (this.carry.length + this.pendingLen > this.maxLine) {
      this.overlong += this.carry.length;
      this.carry = "";
    }
  }

  private emit(line: string, sink: LineSink, terminated: boolean): void {
    if (this.overlong > 0) {
      const n = this.overlong + line.length;
      this.overlong = 0;
      sink("", ++this.lineNo, terminated, n);
      return;
    }
    const n = line.length;
    if (n > 0 && line.charCodeAt(n - 1) === 13) line = line.slice(0, n - 1);
    sink(line, ++this.lineNo, terminated);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
