/**
 * Splits a stream of chunks into lines, in Node and in the browser alike.
 *
 * Invariants:
 * - Chunks may be Uint8Array (decoded as UTF-8, with multi-byte sequences split across chunks
 *   handled by a streaming TextDecoder) or string; both kinds may be mixed.
 * - A line ends at "\n"; a "\r" right before it is dropped, so CRLF files read like LF files.
 * - Lines are numbered from 1 in input order; every line is delivered exactly once.
 * - The text after the last "\n" is delivered by `end()` with `terminated: false` (a torn
 *   last line of a file still being written), never silently dropped.
 * - A UTF-8 byte-order mark at the very start is dropped.
 */
export type LineSink = (line: string, lineNo: number, terminated: boolean) => void;

export class LineSplitter {
  private decoder = new TextDecoder("utf-8");
  private carry = "";
  private lineNo = 0;
  private started = false;

  /** Number of lines delivered so far. */
  get lines(): number {
    return this.lineNo;
  }

  push(chunk: Uint8Array | string, sink: LineSink): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    let nl = text.indexOf("\n");
    if (nl < 0) {
      this.carry += text;
      return;
    }
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
  }

  /** Flushes the decoder and delivers a final unterminated line, if any. */
  end(sink: LineSink): void {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.push(rest, sink);
    if (this.carry.length > 0) {
      const line = this.carry;
      this.carry = "";
      this.emit(line, sink, false);
    }
  }

  private emit(line: string, sink: LineSink, terminated: boolean): void {
    const n = line.length;
    if (n > 0 && line.charCodeAt(n - 1) === 13) line = line.slice(0, n - 1);
    sink(line, ++this.lineNo, terminated);
  }
}
