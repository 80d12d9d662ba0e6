/**
 * Which objects the objects table renders. A trace can hold 10k Foos; rendering (and laying out)
 * every row on each throttled refresh while a 1M-event file loads cost most of the load time
 * (scripts/bench/load.ts profile). The table shows the first `max` matches in first-seen order,
 * plus any selected key past them (a deep link can select one), and says how many it left out;
 * the filter box narrows to any of them.
 */
export const MAX_OBJECT_ROWS = 500;

export function visibleRows(
  keys: readonly string[],
  selected: readonly string[],
  max = MAX_OBJECT_ROWS,
): { shown: string[]; hidden: number } {
  if (keys.length <= max) return { shown: [...keys], hidden: 0 };
  const shown = keys.slice(0, max);
  const head = new Set(shown);
  const all = new Set(keys);
  for (const k of selected) if (!head.has(k) && all.has(k)) shown.push(k);
  return { shown, hidden: keys.length - shown.length };
}
