/**
 * Docker's json-file log: a node running Docker keeps a container's output in
 * /var/lib/docker/containers/<id>/<id>-json.log (and a dockershim-era kubelet linked
 * /var/log/containers/*.log to it), one JSON record a line:
 *
 *   {"log":"I1202 10:00:00.123456       1 controller.go:123] STAGE/watch …\n","stream":"stderr","time":"2026-12-02T10:00:00.123456789Z"}
 *
 * `log` is one line of the program's output, its "\n" included; a line longer than Docker's
 * 16 KB buffer comes as several records, each but the last without the "\n" (a partial record).
 * The reader reads the line of a record, its pieces joined, as `docker logs --timestamps` prints
 * it: the record's time, a space, the line — so that the klog reader takes the year from the time
 * as it does from `kubectl logs --timestamps`'s or a container runtime's prefix.
 */

/** A record of Docker's json-file log. */
export interface DockerRecord {
  /** A line of the container's output, or a piece of one: ends with "\n" when the line ends. */
  log: string;
  /** "stdout" or "stderr" ("" when the record does not say). */
  stream: string;
  /** RFC 3339 time the daemon stamped the record with, if it has one. */
  time: string | undefined;
}

/**
 * The record `value` is, if it is Docker's: an object with a `log` string. loopscope's JSONL
 * header (`loopscope`) and events (`stage`) are never that (a JSONL event needs a `stage`).
 */
export function dockerRecord(value: unknown): DockerRecord | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.log !== "string" || "stage" in r || "loopscope" in r) return undefined;
  return {
    log: r.log,
    stream: typeof r.stream === "string" ? r.stream : "",
    time: typeof r.time === "string" ? r.time : undefined,
  };
}

/** Whether the first line of an input is a Docker json-file record (see dockerRecord). */
export function isDockerLine(line: string): boolean {
  try {
    return dockerRecord(JSON.parse(line)) !== undefined;
  } catch {
    return false;
  }
}

/** A line of the container's output, as the reader reads it, and where in the file it began. */
export interface DockerLine {
  /** `time line`, the line without its "\n" (see the file's comment). */
  text: string;
  /** The file's line of its first record. */
  line: number;
}

/** The line a stream's partial records began, and its pieces so far. */
interface Partial {
  pieces: string[];
  length: number;
  line: number;
  time: string | undefined;
  /** Over the limit: its pieces are no longer kept (see DockerLines.take). */
  overlong: boolean;
}

/**
 * Joins the partial records of each stream into their lines. A stream's pieces are kept until
 * its record that ends the line (stdout's and stderr's records may come between each other's).
 * Memory is bounded as the line splitter's is: a line that grows past `maxLine` characters is not
 * kept, only counted.
 */
export class DockerLines {
  private readonly partial = new Map<string, Partial>();

  constructor(private readonly maxLine: number) {}

  /**
   * The line `r` (the record on line `no`) ends, or undefined while it is a piece of one — or a
   * number: the length of a line dropped for being over the limit.
   */
  take(r: DockerRecord, no: number): DockerLine | number | undefined {
    const ends = r.log.endsWith("\n");
    const piece = ends ? r.log.slice(0, r.log.endsWith("\r\n") ? -2 : -1) : r.log;
    const p = this.partial.get(r.stream);
    if (p === undefined && ends) return { text: stamped(r.time, piece), line: no };
    const open = p ?? { pieces: [], length: 0, line: no, time: r.time, overlong: false };
    open.length += piece.length;
    if (open.length > this.maxLine) {
      open.overlong = true;
      open.pieces = [];
    } else open.pieces.push(piece);
    if (!ends) {
      this.partial.set(r.stream, open);
      return undefined;
    }
    this.partial.delete(r.stream);
    return this.joined(open);
  }

  /** Lines whose last record never came (the log ends inside them), in the order they began. */
  rest(): (DockerLine | number)[] {
    const open = [...this.partial.values()].sort((a, b) => a.line - b.line);
    this.partial.clear();
    return open.map((p) => this.joined(p));
  }

  private joined(p: Partial): DockerLine | number {
    return p.overlong ? p.length : { text: stamped(p.time, p.pieces.join("")), line: p.line };
  }
}

function stamped(time: string | undefined, line: string): string {
  return time === undefined ? line : `${time} ${line}`;
}
