/**
 * A count and what it counts, as the commands print them: "1 line", "2 lines", "0 events".
 * Singular for exactly one; `many` for nouns that do not just take an "s".
 */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
