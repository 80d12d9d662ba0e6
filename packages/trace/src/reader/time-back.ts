/**
 * Time running backwards in a trace file. A little is normal: klog takes a line's time before it
 * takes the lock to write it, so lines of different goroutines come out of time order by
 * microseconds to milliseconds (a GC pause or a loaded node: a few hundred). A line more than
 * BACKWARDS_US before the line above it is something else — a clock stepped back, the log of
 * another run (or machine) joined on, a wrong year guessed for a klog log — and the reader says
 * so, once per jump: the line after a jump is compared with the jump's own line, not with the
 * time before it. The events keep the file's order (`seq`); their `ts` is what the line says.
 */
import type { Diagnostic } from "../analysis/model.ts";

/** How far a line's time may go back before the reader says so: 1 s. */
export const BACKWARDS_US = 1_000_000;

/** Jumps listed; the next one says there are more, and the rest are not listed. */
const LISTED = 20;

/**
 * The diagnostic for line `line`, whose time `us` is more than BACKWARDS_US before `beforeUs`,
 * the line above's; `jumps` counts this one. Undefined once LISTED jumps have been told.
 */
export function timeWentBack(
  line: number,
  us: number,
  beforeUs: number,
  jumps: number,
): Diagnostic | undefined {
  if (jumps > LISTED + 1) return undefined;
  const more = jumps > LISTED ? `; the jumps after the first ${LISTED + 1} are not listed` : "";
  return {
    line,
    level: "warn",
    message: `time goes back ${duration(beforeUs - us)} here, to ${clock(us)} after ${clock(beforeUs)} on the line above (a clock set back, or logs of two runs joined?); read in file order${more}`,
  };
}

/** "2026-12-02 12:04:05.123456" (UTC, as the reader reads klog times). */
function clock(us: number): string {
  const d = new Date(Math.floor(us / 1000));
  if (Number.isNaN(d.getTime())) return String(us);
  const micros = String(((us % 1e6) + 1e6) % 1e6).padStart(6, "0");
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}.${micros}`;
}

/**
 * "2.0 s", "3 min 59 s", "4 min", "1 h 30 min", "12 days". Rounded to the smaller unit shown
 * before it is split into two, so neither shows 60: 239.96 s is "4 min", never "3 min 60 s".
 */
function duration(us: number): string {
  const tenths = Math.round(us / 1e5);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const s = Math.round(us / 1e6);
  if (s < 3600) return twoUnits(Math.floor(s / 60), "min", s % 60, "s");
  const min = Math.round(us / 6e7);
  if (min < 60 * 48) return twoUnits(Math.floor(min / 60), "h", min % 60, "min");
  if (us < 864e8 * 366 * 100) return `${Math.round(us / 864e8)} days`;
  return "over a century";
}

/** "3 min 59 s"; "4 min" when the smaller unit is 0. */
function twoUnits(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}
