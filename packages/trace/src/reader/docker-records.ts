/**
 * Docker's json-file log: a node running Docker keeps a container's output in
 * /var/lib/docker/containers/<id>/<id>-json.log (and a dockershim-era kubelet linked
 * /var/log/containers/*.log to it), one JSON record a line:
 *
 *   {"log":"I1202 10:00:00.123456       1 controller.go:123] STAGE/watch …\n","stream":"stderr","time":"2026-12-02T10:00:00.123456789Z"}
 *
 * `log` is one line of the program's output, its "\n" included; a line longer than Docker's
 * 16 KB buffer comes as several records, each but the last without the "\n" (a partial record),
 * joined by partial-lines.ts.
 * The reader reads the line of a record, its pieces joined, as `docker logs --timestamps` prints
 * it: the record's time, a space, the line — so that the klog reader takes the year from the time
 * as it does from `kubectl logs --timestamps`'s or a container runtime's prefix.
 */
import type { JoinedLine, PartialLines } from "./partial-lines.ts";

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

/**
 * Takes the record `r`, on line `no`, into `lines`: the line it ends, its pieces joined — `time line`
 * without the "\n" (see the file's comment) — or see PartialLines.take.
 */
export function takeDockerRecord(
  lines: PartialLines,
  r: DockerRecord,
  no: number,
): JoinedLine | number | undefined {
  const ends = r.log.endsWith("\n");
  const piece = ends ? r.log.slice(0, r.log.endsWith("\r\n") ? -2 : -1) : r.log;
  return lines.take(r.stream, r.time === undefined ? "" : `${r.time} `, piece, ends, no);
}
