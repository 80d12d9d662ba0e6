/**
 * Ticks for an axis of milliseconds (the queue view's, the compare view's), labelled in one unit
 * for the whole axis, as the timeline's axis is: seconds once a tick reaches a second, else ms,
 * to the step's digit. Labelled tick by tick, "0.0 ms" stood beside "10.00 s".
 */
import { tickStep } from "d3";

export function msTicks(
  scale: { domain(): number[]; ticks(n?: number): number[] },
  n: number,
): { ms: number; label: string }[] {
  const [a = 0, b = 0] = scale.domain();
  const ticks = scale.ticks(n);
  const seconds = ticks.some((t) => Math.abs(t) >= 1000);
  const unit = seconds ? 1000 : 1;
  const step = Math.abs(tickStep(a, b, n)) / unit;
  const digits = step > 0 ? Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)) : 0;
  return ticks.map((ms) => ({
    ms,
    label: `${(ms / unit).toFixed(digits)} ${seconds ? "s" : "ms"}`,
  }));
}
