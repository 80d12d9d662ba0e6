/**
 * klog's multi-line values (klog v2.80+, internal/serialize's writeStringValue): a structured
 * value that holds a newline is not quoted but written `key=<`, then each of its lines after a
 * tab, then a line ` >` — the space tells it from a value line — that the line's other pairs may
 * follow:
 *
 *   E0501 09:46:50.546684       1 controller.go:240] "Error syncing; requeuing for later retry" err=<
 *   <tab>Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": …;
 *   <tab>please apply your changes to the latest version and try again
 *    > logger="UnhandledError" objectReference="default/example-foo"
 *
 * Read line by line, the entry would lose all but its first line: the "Error syncing" line its key
 * and so its pass end. It is read as the one line klog writes for a value without a newline: the
 * value Go-quoted in place of `<` … ` >` (`err="Operation …;\nplease …"`).
 *
 * A wrapper puts its prefix before each of the entry's lines (kubectl logs --timestamps' time, a
 * CRI record's `time stream F`, a Docker record's time, --prefix's `[pod/…] `): a line of the
 * entry is one whose text after as many spaces as came before the header goes on with the tab or
 * the ` >`.
 */

/** What a line is to the entry being gathered (see MultiLineEntry.take). */
export type EntryLine = "value" | "done" | "other";

/**
 * An entry whose line ended in `=<`: its value lines gathered until its ` >` line. Holds at most
 * `limit` characters (the reader's longest line): past them, it is read as far as it came.
 */
export class MultiLineEntry {
  /** Its first line, as the file has it. */
  readonly first: string;
  /** The entry so far, up to the `=` of the value being gathered (its `<` left out). */
  private head: string;
  /** The spaces of the wrapper's prefix before each line (see the file's comment). */
  private readonly prefixSpaces: number;
  /** The lines of that value, without their tab. */
  private readonly value: string[] = [];
  private length: number;
  /** Value lines taken, over all of the entry's values. */
  lines = 0;
  /** The whole entry as one line, once its last ` >` came (see take). */
  joined = "";

  constructor(
    text: string,
    start: number,
    headerAt: number,
    end: number,
    /** The line number of its first line. */
    readonly line: number,
    private readonly limit: number,
  ) {
    this.first = text.slice(start, end);
    this.head = this.first.slice(0, -1);
    this.length = this.head.length;
    let spaces = 0;
    for (let i = start; i < headerAt; i++) if (text.charCodeAt(i) === 32) spaces++;
    this.prefixSpaces = spaces;
  }

  /**
   * Takes the line text[start, end) (bytes[start, end), the same characters) if it is the
   * entry's: "value", a line of the value; "done", its ` >` line, after which `joined` holds the
   * entry (unless its pairs open another value: then "value"); "other", not taken — a line that
   * is no part of it (a `key=<` that was text, not klog's; a log cut inside it).
   */
  take(bytes: Uint8Array, text: string, start: number, end: number): EntryLine {
    let p = start;
    for (let n = this.prefixSpaces; n > 0 && p < end; p++) if (bytes[p] === 32) n--;
    if (p >= end) return "other";
    if (bytes[p] === 9) {
      if (this.length + end - p > this.limit) return "other";
      this.value.push(text.slice(p + 1, end));
      this.length += end - p;
      this.lines++;
      return "value";
    }
    if (bytes[p] !== 32 || bytes[p + 1] !== 62 || p + 1 >= end) return "other";
    const rest = text.slice(p + 2, end);
    const head = this.head + this.quoted();
    if (rest.endsWith("=<")) {
      this.head = head + rest.slice(0, -1);
      this.length = this.head.length;
      return "value";
    }
    this.joined = head + rest;
    return "done";
  }

  /**
   * The entry as far as it came, for a log that ends or goes on without its ` >` line: its value
   * lines quoted as they are, or, when none came, its first line as it was.
   */
  cut(): string {
    return this.value.length === 0 ? `${this.head}<` : this.head + this.quoted();
  }

  /** The value gathered, Go-quoted (a JSON string is one: see go-quote.ts), and forgotten. */
  private quoted(): string {
    const q = JSON.stringify(this.value.join("\n"));
    this.value.length = 0;
    return q;
  }
}
