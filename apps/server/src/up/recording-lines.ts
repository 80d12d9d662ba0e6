/**
 * What `loopscope up` (and `proxy`) says on stderr about a recording whose writes failed: once, the moment it
 * fails (a full disk was otherwise heard of only at Ctrl-C), and at stop, how many events the
 * file lacks.
 */
import type { WriteFailure } from "../hub/recording.ts";

/** The line said at once: what failed, what the file still has, that the run goes on. */
export function recordingFailedLine(command: string, file: string, f: WriteFailure): string {
  const has =
    f.savedThrough > 0 ? `events up to seq ${f.savedThrough} and no later ones` : "no events";
  return (
    `recording failed at ${clockTime(new Date(f.at))}: ${file}: ${f.error.message}; ` +
    `the file has ${has}. ${command} goes on: the dashboard shows every event, and says how many the file lacks`
  );
}

/** The line said at stop: how many events the file lacks, and which. */
export function recordingIncompleteLine(file: string, f: WriteFailure, lastSeq: number): string {
  const missing = lastSeq - f.savedThrough;
  const which =
    missing === 0
      ? ""
      : missing === 1
        ? ` (seq ${lastSeq})`
        : ` (seq ${f.savedThrough + 1}–${lastSeq})`;
  return `recording incomplete: ${file} lacks ${missing} event${missing === 1 ? "" : "s"}${which}: ${f.error.message}`;
}

/** Local wall-clock time, as the user's own clock shows it: 15:02:11. */
function clockTime(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
}
