/**
 * The time a STAGE line without a klog header carries before its tag — a learner's
 * `log.Printf` (`2024/05/01 09:46:50 `, with log.Lmicroseconds `09:46:50.123456`), or the
 * wrapper's RFC 3339 time (`kubectl logs --timestamps`, a CRI record's, a Docker record's
 * `time` as the reader puts it in front: see reader/docker-records.ts).
 *
 * Read as a klog header's date and time of day, so that the line takes its year as klog lines do
 * (see KlogParser.timestamp): a log whose klog lines carry no year would otherwise mix the year
 * guessed for them with the one these lines print.
 */

/** A date and time of day a line carries. */
export interface CarriedTime {
  month: number;
  day: number;
  /** Microseconds since midnight. */
  tod: number;
  /** Whether it says only the second (log.Printf's default flags). */
  wholeSecond: boolean;
}

/** log.Printf's LstdFlags time, Lmicroseconds' fraction optional (Go's log package). */
const PRINTF = /(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{6}))? /;
/** RFC 3339, as kubectl, container runtimes and Docker print it (nanoseconds, trailing 0s cut). */
const RFC3339 = /(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)/;

const US_PER_DAY = 86_400_000_000;

/** The log.Printf time in `prefix`, local time as klog's (read as UTC), or undefined. */
export function printfTime(prefix: string): CarriedTime | undefined {
  const m = PRINTF.exec(prefix);
  if (m === null) return undefined;
  return carried(m, 0, m[7] === undefined);
}

/**
 * The RFC 3339 time in `prefix`, or undefined: in UTC, or in the zone `clockEastMin` minutes east
 * of it — the one the log's klog headers are written in (see klogClockEastMin).
 */
export function rfc3339Time(prefix: string, clockEastMin = 0): CarriedTime | undefined {
  const m = RFC3339.exec(prefix);
  if (m === null) return undefined;
  const z = m[8];
  const offsetMin = z === "Z" ? 0 : (z[0] === "-" ? -1 : 1) * (+z.slice(1, 3) * 60 + +z.slice(4));
  return carried(m, offsetMin - clockEastMin, false);
}

/**
 * The time zone, in minutes east of UTC, that a klog header at `headerTod` (µs since midnight)
 * is written in, as its wrapper's RFC 3339 time in `prefix` tells: klog prints the pod's local
 * time, the container runtime UTC. 0 when the prefix says no time. To the quarter hour, as zones
 * are: the runtime stamps the line a little after klog did.
 */
export function klogClockEastMin(prefix: string, headerTod: number): number {
  const w = rfc3339Time(prefix);
  if (w === undefined) return 0;
  const half = US_PER_DAY / 2;
  const diff = ((((headerTod - w.tod + half) % US_PER_DAY) + US_PER_DAY) % US_PER_DAY) - half;
  return Math.round(diff / 60_000_000 / 15) * 15;
}

/** The time the match `m` spells (year to second, fraction), `offsetMin` east of UTC. */
function carried(
  m: RegExpExecArray,
  offsetMin: number,
  wholeSecond: boolean,
): CarriedTime | undefined {
  const [year, month, day, h, min, s] = [1, 2, 3, 4, 5, 6].map((i) => +m[i]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || h > 23 || min > 59 || s > 60)
    return undefined;
  const us = m[7] === undefined ? 0 : Math.floor(+m[7].padEnd(9, "0") / 1000);
  const at = (Date.UTC(year, month - 1, day, h, min, s) - offsetMin * 60_000) * 1000 + us;
  const date = new Date(Math.floor(at / 1000));
  // A date no year has (Feb 30) rolls over in Date.UTC: no time, then.
  if (offsetMin === 0 && date.getUTCDate() !== day) return undefined;
  return {
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    tod: ((at % US_PER_DAY) + US_PER_DAY) % US_PER_DAY,
    wholeSecond,
  };
}
