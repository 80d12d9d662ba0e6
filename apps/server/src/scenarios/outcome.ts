/**
 * What a scenario's run came to, per Foo, in one line: "default/example-foo: 3 passes
 * (2 external, 1 self-triggered), quiescent". The dashboard says it after a scenario that found
 * nothing to say of its own (create-foo, scale, slow-api …), and `loopscope run` after each.
 */
import { PASS_CAUSES, type Analyzer, type PassCause } from "@loopscope/trace";
import { count } from "../cli/count.ts";

/** Foos named; more are counted. */
const NAMED = 3;

const CAUSE_WORD: Record<PassCause, string> = {
  external: "external",
  self: "self-triggered",
  resync: "resync",
  retry: "retry",
  unknown: "of unknown cause",
};

/**
 * The line, or undefined when no Foo had a pass. A Foo whose every pass was a resync is left out:
 * the scenario did not touch it (another Foo on the cluster, resynced while it ran).
 */
export function outcomeLine(analyzer: Analyzer): string | undefined {
  const touched = analyzer
    .keys()
    .map((k) => analyzer.summary(k)!)
    .filter((s) => s.passes > s.passCauses.resync);
  if (touched.length === 0) return undefined;
  const parts = touched.slice(0, NAMED).map((s) => {
    const k = s.key;
    const causes = PASS_CAUSES.filter((c) => s.passCauses[c] > 0).map(
      (c) => `${s.passCauses[c]} ${CAUSE_WORD[c]}`,
    );
    // A Foo deleted and created again is summed up from its latest creation.
    const life = analyzer.lives(k) > 1 ? " (since it was created again)" : "";
    const state = s.quiescent ? "quiescent" : "not quiescent";
    return `${k}${life}: ${count(s.passes, "pass", "passes")} (${causes.join(", ")}), ${s.hotLoop ? "a hot loop, " : ""}${state}`;
  });
  if (touched.length > NAMED) parts.push(`and ${count(touched.length - NAMED, "more Foo")}`);
  return parts.join("; ");
}
