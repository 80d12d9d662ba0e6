/**
 * A JSONL trace's `ts` is microseconds since the Unix epoch. A file written by another tool (or
 * by hand) may count seconds (Python's `time.time()`), milliseconds (`Date.now()`) or nanoseconds
 * (Go's `UnixNano`); read as microseconds its times are off by a factor of 1000 or more, its
 * passes millennia long or a millisecond wide. The first record's `ts` tells which:
 * - with the header's `created`, the unit that puts it within two days of that time;
 * - without, the unit in which it is a date from 2000 to 2100 (the units are 1000 apart, so it is
 *   one in at most one of them). Times from a start (tests, hand-written traces: small values) are
 *   read as they are.
 */

export interface TsUnit {
  /** What the file's `ts` counts: "seconds", "milliseconds" or "nanoseconds". */
  name: string;
  /** Multiplies a `ts` of this unit into microseconds. */
  toMicros: number;
}

const UNITS: readonly TsUnit[] = [
  { name: "seconds", toMicros: 1e6 },
  { name: "milliseconds", toMicros: 1e3 },
  { name: "nanoseconds", toMicros: 1e-3 },
];

const Y2000_US = Date.UTC(2000, 0, 1) * 1000;
const Y2100_US = Date.UTC(2100, 0, 1) * 1000;
const TWO_DAYS_US = 2 * 86_400e6;

/**
 * The unit `ts` is in when it is not microseconds; undefined when it is, or is no date.
 * `createdMs`: the header's `created`, when it has one.
 */
export function foreignTsUnit(ts: number, createdMs?: number): TsUnit | undefined {
  const near =
    createdMs !== undefined && Number.isFinite(createdMs)
      ? (us: number) => Math.abs(us - createdMs * 1000) <= TWO_DAYS_US
      : (us: number) => us >= Y2000_US && us < Y2100_US;
  if (near(ts)) return undefined;
  return UNITS.find((u) => near(ts * u.toMicros));
}
