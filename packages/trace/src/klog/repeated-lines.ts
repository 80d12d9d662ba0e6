/**
 * klog lines written twice: a log with each line the same as the line before it (`tee -a` into
 * the --log_file, the same pod's log saved twice into one file) would count every pass twice. A
 * klog header has the time to the microsecond, so a line the same as the one before it, byte for
 * byte, is never an honest second line: it is skipped, and one warning counts them all.
 *
 * Cheap on every line: lines of different lengths are not compared, and two lines of one length
 * differ within their header's time, in the first 21 characters.
 */
import type { Diagnostic } from "../analysis/model.ts";

export class RepeatedLines {
  /** The line before: prevText[prevStart, prevEnd), held by reference (no copy). */
  private prevText = "";
  private prevStart = 0;
  private prevEnd = 0;
  /** Lines skipped as the line before again, and the number of the first. */
  count = 0;
  first = 0;

  /** Whether text[start, end) is the line before it again; it becomes the line before. */
  again(text: string, start: number, end: number): boolean {
    const n = end - start;
    let same = n > 0 && n === this.prevEnd - this.prevStart;
    if (same) {
      const prev = this.prevText;
      const d = this.prevStart - start;
      for (let i = start; i < end; i++) {
        if (text.charCodeAt(i) !== prev.charCodeAt(i + d)) {
          same = false;
          break;
        }
      }
    }
    this.prevText = text;
    this.prevStart = start;
    this.prevEnd = end;
    return same;
  }

  /** Line `lineNo`, the line before again, was skipped. */
  skipped(lineNo: number): void {
    if (this.count++ === 0) this.first = lineNo;
  }

  /** The one warning for them all, once the log has ended; undefined if there were none. */
  diagnostic(): Diagnostic | undefined {
    if (this.count === 0) return undefined;
    const n = this.count;
    return {
      line: this.first,
      level: "warn",
      message: `${n} klog line${n === 1 ? "" : "s"} the same as the line before, byte for byte (a log written twice, as \`tee -a\` into klog's --log_file makes?): skipped, from this line on`,
    };
  }
}
