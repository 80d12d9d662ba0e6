/**
 * A container runtime's partial records, joined into the lines they split. Docker's json-file
 * driver (docker-records.ts) and the CRI runtimes, containerd and CRI-O (cri-records.ts), both
 * write a line of a container's output longer than their 16 KiB buffer as several records of its
 * stream, each but the last marked as a piece; stdout's and stderr's records come between each
 * other's. Each format says what a record's piece is; the join is this one.
 *
 * The joined line is the first record's head (its time, and whatever the format writes before a
 * line) then the pieces, and is read on the line of the first record.
 */

/** A line joined from its records, and where in the file it began. */
export interface JoinedLine {
  /** The first record's head, then the pieces, without the line's end. */
  text: string;
  /** The file's line of its first record. */
  line: number;
}

/** The line a stream's partial records began, and its pieces so far. */
interface Partial {
  /** The first record's head, then the pieces. */
  pieces: string[];
  length: number;
  line: number;
  /** Over the limit: its pieces are no longer kept (see PartialLines.take). */
  overlong: boolean;
}

/**
 * Joins the pieces of each stream into their lines: a stream's are kept until its record that
 * ends the line. Memory is bounded as the line splitter's is: a line whose pieces grow past
 * `maxLine` characters is not kept, only counted.
 */
export class PartialLines {
  private readonly open = new Map<string, Partial>();

  constructor(private readonly maxLine: number) {}

  /** How many streams have a line begun whose last record has not come. */
  get openLines(): number {
    return this.open.size;
  }

  /** Whether `stream` has a line begun whose last record has not come. */
  has(stream: string): boolean {
    return this.open.size > 0 && this.open.has(stream);
  }

  /**
   * The line that the record on line `no` — `piece` of `stream`'s output, the line's last if
   * `ends` — ends, or undefined while it is a piece of one; or a number: the length of a line
   * dropped for being over the limit. `head` goes before the line if this record begins it.
   */
  take(
    stream: string,
    head: string,
    piece: string,
    ends: boolean,
    no: number,
  ): JoinedLine | number | undefined {
    const p = this.open.get(stream);
    if (p === undefined && ends) return { text: head + piece, line: no };
    const open = p ?? { pieces: [head], length: 0, line: no, overlong: false };
    open.length += piece.length;
    if (open.length > this.maxLine) {
      open.overlong = true;
      open.pieces = [];
    } else open.pieces.push(piece);
    if (!ends) {
      this.open.set(stream, open);
      return undefined;
    }
    this.open.delete(stream);
    return joined(open);
  }

  /** Lines whose last record never came (the log ends inside them), in the order they began. */
  rest(): (JoinedLine | number)[] {
    const open = [...this.open.values()].sort((a, b) => a.line - b.line);
    this.open.clear();
    return open.map(joined);
  }
}

/** A line joined: one new string, no slice of the text its records were read from (see detach). */
function joined(p: Partial): JoinedLine | number {
  return p.overlong ? p.length : { text: p.pieces.join(""), line: p.line };
}
