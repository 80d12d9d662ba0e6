/**
 * Test helper: the recorded create (public/traces/create-foo.jsonl), then the same Foo deleted
 * and created again a minute later — new seqs, times and resourceVersions — loaded as a session.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TraceSession } from "../store/session.ts";
import { sessionFromText } from "./fixtureSession.ts";

const TRACE = fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url));

/** The session, and how many events the first life has (the second's seqs are those + n). */
export function twoLivesSession(): { session: TraceSession; n: number } {
  const [header, ...lines] = readFileSync(TRACE, "utf8").trim().split("\n");
  const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const n = events.length;
  const later = events.map((e) => {
    const x: Record<string, unknown> = {
      ...e,
      seq: (e.seq as number) + n,
      ts: (e.ts as number) + 60e6,
    };
    for (const f of ["rv", "oldRv"]) if (typeof x[f] === "string") x[f] = `9${x[f] as string}`;
    if (typeof x.causeSeq === "number") x.causeSeq = x.causeSeq + n;
    return x;
  });
  const text = [header, ...[...events, ...later].map((e) => JSON.stringify(e))].join("\n") + "\n";
  return { session: sessionFromText(text, "two-lives.jsonl"), n };
}
