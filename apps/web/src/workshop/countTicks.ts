/**
 * Ticks for an axis that counts things (keys in the queue): whole numbers only. d3's ticks for a
 * domain of [0, 1] are 0, 0.5, 1 — and "0.5 keys" is not a queue depth anyone has seen.
 */
export function countTicks(scale: { ticks(n?: number): number[] }, n: number): number[] {
  return scale.ticks(n).filter((t) => Number.isInteger(t));
}
