/**
 * Which findings the list shows. A million-event trace can hold thousands (a conflict and a retry
 * finding per Foo that met them): the list narrows by kind and to the selected Foo, most serious
 * kinds first, and draws only the first SHOWN_FINDINGS of what is left.
 */
import type { Finding, FindingKind } from "@loopscope/trace";

export const SHOWN_FINDINGS = 300;

/** Most serious first: the order of the kind buttons. */
export const FINDING_KINDS: readonly FindingKind[] = [
  // Another controller at work on the same Foos: every other finding and pass reads otherwise.
  "other-controller",
  "hot-loop",
  "conflict",
  "retry",
  "error",
  "not-found",
  "orphan",
];

export interface FindingsFilter {
  /** Only findings of this kind (undefined: every kind). */
  kind?: FindingKind;
  /** Only findings about this Foo's key (undefined: every Foo). */
  key?: string;
}

/** How many findings of each kind there are, for the kinds present, most serious first. */
export function countByKind(findings: readonly Finding[]): [FindingKind, number][] {
  const counts = new Map<FindingKind, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  return FINDING_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k)!]);
}

export function filterFindings(
  findings: readonly Finding[],
  filter: FindingsFilter,
): readonly Finding[] {
  const matching =
    filter.kind === undefined && filter.key === undefined
      ? findings
      : findings.filter(
          (f) =>
            (filter.kind === undefined || f.kind === filter.kind) &&
            (filter.key === undefined || f.key === filter.key),
        );
  // Another controller at work comes first, however late it was noticed: after thousands of
  // findings it would be past the few drawn, and it says why passes read as external.
  const others = matching.filter((f) => f.kind === "other-controller");
  if (others.length === 0 || others.length === matching.length) return matching;
  return [...others, ...matching.filter((f) => f.kind !== "other-controller")];
}
