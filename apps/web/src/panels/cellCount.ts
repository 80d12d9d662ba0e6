/**
 * A count in a narrow table column (the Objects list's passes, self, 409): exact while it has at
 * most `digits` digits, else shortened to three characters and a unit (12k, 240k, 1.2M), so it
 * never runs past its column's edge — a clipped 2381 read as 238, a plausible, wrong number. The
 * exact count goes in the cell's title.
 */
export function cellCount(n: number, digits: number): string {
  if (n < 10 ** digits) return String(n);
  for (const [unit, size] of [
    ["M", 1e6],
    ["k", 1e3],
  ] as const) {
    if (n < size) continue;
    const v = n / size;
    // One decimal below 10 (1.2k); whole above it — rounded down, never up past what happened.
    const shown = v < 10 ? Math.floor(v * 10) / 10 : Math.floor(v);
    if (shown < 1000) return `${shown}${unit}`;
  }
  return `${Math.floor(n / 1e9)}G`;
}
