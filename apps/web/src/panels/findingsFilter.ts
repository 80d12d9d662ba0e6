/**
 * Which findings the list shows. A million-event trace can hold thousands (a conflict and a retry
 * finding per Foo that met them): the list narrows by kind and to the selected Foo, most serious
 * kinds first, and draws only the first SHOWN_FINDINGS of what is left.
 */
import type { Finding, FindingKind } from "@loopscope/trace";

export const SHOWN_FINDINGS = 300;

/** Most serious first: the order of the kind buttons. */
export const FINDING_KINDS: readonly FindingKind[] = [
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
  if (filter.kind === undefined && filter.key === undefined) return findings;
  return findings.filter(
    (f) =>
      (filter.kind === undefined || f.kind === filter.kind) &&
      (filter.key === undefined || f.key === filter.key),
  );
}
