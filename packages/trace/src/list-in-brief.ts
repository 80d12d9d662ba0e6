/**
 * A list of names in one line of prose: "a, b, c", or its first few and how many more. A write may
 * name thousands of changed fields (a controller that reports a map's keys); a finding, a
 * narration sentence, an excerpt's note or a tooltip that named them all ran to hundreds of KB.
 */

/** How many names a brief list names. */
export const NAMED_IN_BRIEF = 8;

export function listInBrief(names: readonly string[], max = NAMED_IN_BRIEF): string {
  if (names.length <= max) return names.join(", ");
  const more = names.length - max;
  return `${names.slice(0, max).join(", ")} and ${more.toLocaleString("en-US")} more`;
}
