/**
 * What a scenario's run came to, per Foo, in one line: "default/example-foo: 3 passes
 * (2 external, 1 self-triggered), quiescent". The dashboard says it after a scenario that found
 * nothing to say of its own (create-foo, scale, slow-api …), and `loopscope run` after each.
 */
import { PASS_CAUSES, type Analyzer, type KeySummary, type PassCause } from "@loopscope/trace";
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
 * The line for the Foos a scenario applied (`keys`, in order), or undefined when none had a
 * pass. Other Foos on the cluster that had passes meanwhile (a resync, another test's) are not
 * the scenario's.
 */
export function outcomeLine(analyzer: Analyzer, keys: Iterable<string>): string | undefined {
  const touched = [...keys]
    .map((k) => analyzer.summary(k))
    .filter((s): s is KeySummary => s !== undefined && s.passes > 0);
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
