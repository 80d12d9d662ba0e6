/**
 * The step-through narrates every event of the shipped scenario traces, and says of each pass
 * what the session's analysis (the one the lanes and the findings draw from) classified: its
 * number, whether it is self-triggered, the echoes that triggered it, and a hot loop exactly
 * where the Analyzer's run reaches its threshold.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HOT_LOOP_THRESHOLD, readTraceText } from "@loopscope/trace";
import { TraceSession } from "../store/session.ts";
import { stepSeqs, workshopData } from "./workshopData.ts";

const TRACES = ["hot-loop.jsonl", "fix-hot-loop.jsonl", "create-foo.jsonl", "burst.jsonl"];

function session(name: string): TraceSession {
  const url = new URL(`../../../../public/traces/${name}`, import.meta.url);
  const s = new TraceSession({ kind: "replay", name });
  s.push(readTraceText(readFileSync(fileURLToPath(url), "utf8")).events);
  return s;
}

describe("the workshop's narration of the scenario traces", () => {
  it.each(TRACES)("%s: every event told, every pass as the analysis classified it", (name) => {
    const s = session(name);
    const data = workshopData(s, undefined);
    expect(data.narrations.map((n) => n.seq)).toEqual(data.events.map((e) => e.seq));
    expect(data.narrations.every((n) => n.text.length > 20)).toBe(true);
    const at = (seq: number) => data.narrations[data.indexOf.get(seq)!]!;
    const keys = new Set(data.events.map((e) => e.key).filter((k) => k !== ""));
    let passes = 0;
    for (const key of keys) {
      for (const p of s.passesOf(key)) {
        if (p.dequeueSeq === undefined) continue;
        passes++;
        const told = at(p.dequeueSeq);
        expect(told.pass).toBe(p.number);
        expect(told.self === true).toBe(p.cause === "self");
        expect(told.text.includes("— a hot loop"), `${key} pass ${p.number}`).toBe(
          p.loopRun >= HOT_LOOP_THRESHOLD,
        );
        for (const t of p.triggers) {
          if (t.cause !== "self" || t.inferred || t.watchSeq === undefined) continue;
          expect(at(t.watchSeq).text).toContain(`echo of our own`);
          expect(at(t.watchSeq).text).toContain(`seq ${t.writeSeq}`);
        }
      }
    }
    expect(passes).toBeGreaterThan(0);
  });

  it("hot-loop.jsonl: the narration calls the loop one where the finding does", () => {
    const s = session("hot-loop.jsonl");
    const key = "default/example-foo";
    const data = workshopData(s, key);
    expect(s.findings().some((f) => f.kind === "hot-loop" && f.key === key)).toBe(true);
    const first = s.passesOf(key).find((p) => p.loopRun === HOT_LOOP_THRESHOLD)!;
    const told = data.narrations[data.indexOf.get(first.dequeueSeq!)!]!;
    // The sample's two workers stumble on 409s inside the run: bridged, as the finding says.
    expect(s.findings().find((f) => f.kind === "hot-loop")!.detail).toContain("refused with 409");
    expect(told.text).toMatch(
      /— a hot loop: 5 self-triggered passes that each changed something, with \d+ refused with 409 between them \(not counted\); the Analyzer's threshold is 5\.$/,
    );
    expect(HOT_LOOP_THRESHOLD).toBe(5);
  });
});

describe("steps", () => {
  it("begin, for each Foo of a burst, at the scenario's note though it names the first Foo", () => {
    const s = new TraceSession({ kind: "replay", name: "burst-4" });
    const note = (seq: number, ts: number, key: string, text: string) =>
      ({ stage: "note", key, ts, level: "I", src: "scenario", text, seq }) as const;
    const add = (seq: number, ts: number, name: string) =>
      ({
        stage: "watch",
        key: `default/${name}`,
        ts,
        kind: "Foo",
        event: "add",
        ns: "default",
        name,
        seq,
      }) as const;
    s.push([
      note(1, 1_000_000, "default/other", "scenario: kubectl apply Foo other"),
      add(2, 1_001_000, "other"),
      // An hour later: a burst, its note tied to the first of its Foos.
      note(3, 3_601_000_000, "default/burst-01", "scenario: kubectl apply 8 Foos at once"),
      add(4, 3_601_001_000, "burst-01"),
      add(5, 3_601_002_000, "burst-05"),
    ]);
    const data = workshopData(s, undefined);
    const steps = (key: string) => stepSeqs(data, key, s.summaryOf(key)?.firstTs);
    expect(steps("default/burst-05")).toEqual([3, 5]);
    expect(steps("default/burst-01")).toEqual([3, 4]);
    // A scenario note of another Foo long before is not this one's story.
    s.push([add(6, 7_200_000_000, "late")]);
    expect(
      stepSeqs(workshopData(s, undefined), "default/late", s.summaryOf("default/late")?.firstTs),
    ).toEqual([6]);
  });

  it("are none, not a crash, for a Foo whose events have not come yet (a reload with the workshop open)", () => {
    const empty = workshopData(new TraceSession({ kind: "live", name: "live" }), undefined);
    expect(stepSeqs(empty, "default/example-foo", 1_000_000)).toEqual([]);
  });
});

describe("the diagram's worker rows", () => {
  it("are the live controller's workers, idle ones too; a replay's are the workers its trace shows", () => {
    const live = new TraceSession({ kind: "live" });
    // No event yet: a live controller with two workers shows both, idle.
    expect(workshopData(live, undefined, 2).workers).toBe(2);
    expect(workshopData(live, undefined).workers).toBe(1);
    // A file opened in the live dashboard is not that controller's trace.
    const replay = session("create-foo.jsonl");
    const seen = Math.max(
      ...workshopData(replay, undefined).events.map((e) => ("worker" in e ? (e.worker ?? 1) : 1)),
    );
    expect(workshopData(replay, undefined, 8).workers).toBe(seen);
  });
});
