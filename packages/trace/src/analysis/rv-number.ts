/**
 * A resourceVersion as a number, where that is lossless: the API server hands out decimal rvs,
 * and a number compares and stores cheaper than a string (the analysis's rv rings, the page's
 * rv columns).
 */

/** rvNumber's answer for an rv that is not a canonical decimal. */
export const NOT_DECIMAL = -2;

/**
 * The number a canonical decimal rv spells ("1002"; no sign, no leading zero, at most 15 digits,
 * so exact as a double), else NOT_DECIMAL. Two rvs are equal exactly when both are canonical
 * with equal numbers, or both are not and equal as strings.
 */
export function rvNumber(rv: string): number {
  const n = rv.length;
  if (n === 0 || n > 15 || (n > 1 && rv.charCodeAt(0) === 48)) return NOT_DECIMAL;
  let x = 0;
  for (let i = 0; i < n; i++) {
    const d = rv.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NOT_DECIMAL;
    x = x * 10 + d;
  }
  return x;
}
