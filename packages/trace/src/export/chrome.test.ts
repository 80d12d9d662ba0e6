import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { ChromeTraceWriter } from "./chrome-writer.ts";
import { ChromeTraceReader, looksLikeChromeTrace } from "./chrome-reader.ts";
import { chromeEventProblem, type ChromeEvent } from "./chrome-format.ts";
import { ExportPipeline } from "./export-pipeline.ts";
import { fixtureTrace, recreatedFooTrace } from "./fixture-trace.test-util.ts";
import { readFileSync } from "node:fs";
import { readTraceText } from "../reader/read-trace.ts";
import type { TraceHeader } from "../jsonl/format.ts";

function toChrome(events: TraceEvent[]): { text: string; writer: ChromeTraceWriter } {
  const chunks: string[] = [];
  const writer = new ChromeTraceWriter((c) => chunks.push(c), { source: "fixture" });
  const pipe = new ExportPipeline(writer);
  pipe.pushAll(events);
  pipe.end();
  return { text: chunks.join(""), writer };
}

function readBack(
  text: string,
  chunkSize: number,
): { events: TraceEvent[]; reader: ChromeTraceReader } {
  const reader = new ChromeTraceReader();
  const events: TraceEvent[] = [];
  for (let i = 0; i < text.length; i += chunkSize)
    events.push(...reader.push(text.slice(i, i + chunkSize)));
  events.push(...reader.end());
  return { events, reader };
}

describe("Chrome trace export", () => {
  const events = fixtureTrace();
  const { text, writer } = toChrome(events);
  const doc = JSON.parse(text) as { traceEvents: ChromeEvent[] };

  it("writes a JSON Object Format document whose every event has the fields the format requires", () => {
    // Only top-level keys every reader knows; displayTimeUnit is left out (some Perfetto
    // versions take it as the unit of ts).
    expect(Object.keys(doc)).toEqual(["otherData", "traceEvents"]);
    for (const line of text.split("\n").slice(1, -2))
      expect(line).toMatch(/^,?\{"ph":"[A-Za-z]","ts":\d/);
    expect(doc.traceEvents.length).toBeGreaterThan(events.length);
    for (const ev of doc.traceEvents)
      expect(chromeEventProblem(ev), JSON.stringify(ev)).toBeUndefined();
    // Every event, metadata included, lies within the trace's own time range.
    const tss = doc.traceEvents.map((e) => e.ts);
    expect(Math.min(...tss)).toBe(events[0].ts);
    expect(Math.max(...tss)).toBe(events[events.length - 1].ts);
    // One trace event per line, so the file can be read back line by line.
    expect(text.split("\n").length).toBe(doc.traceEvents.length + 3);
  });

  it("draws a process per Foo, a thread per lane, a pass as an X slice and each event as an instant", () => {
    const names = doc.traceEvents
      .filter((e) => e.ph === "M" && e.name === "process_name")
      .map((e) => e.args?.name);
    expect(names).toEqual(["Foo default/example-foo", "workqueue", "(no Foo)"]);
    const fooPid = doc.traceEvents.find((e) => e.args?.name === "Foo default/example-foo")!.pid;
    const threads = doc.traceEvents
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.pid === fooPid)
      .map((e) => e.args?.name);
    expect(threads).toEqual(["passes", "watch", "enqueue", "dequeue", "read", "write", "notes"]);
    const tids = new Set(
      doc.traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => e.tid),
    );
    expect(tids.size).toBe(
      doc.traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name").length,
    );

    const instants = doc.traceEvents.filter((e) => e.ph === "i");
    expect(instants).toHaveLength(events.length);
    const passes = doc.traceEvents.filter((e) => e.ph === "X" && e.cat === "pass");
    expect(passes.map((p) => p.name)).toEqual([
      "reconcile (external)",
      "reconcile (self)",
      "reconcile (external)",
      "reconcile (retry)",
      "reconcile (resync)",
    ]);
    // A pass runs from its dequeue to its done.
    const first = passes[0];
    expect(first.ts).toBe(events[2].ts);
    expect(first.ts + first.dur!).toBe(events[8].ts);
    expect(writer.counts.passes).toBe(5);
  });

  it("draws a Foo deleted and created again as another process, each pass on its own Foo's", () => {
    const recreated = recreatedFooTrace();
    const all = (JSON.parse(toChrome(recreated).text) as { traceEvents: ChromeEvent[] })
      .traceEvents;
    const pidOf = (name: string) =>
      all.find((e) => e.ph === "M" && e.name === "process_name" && e.args?.name === name)?.pid;
    const first = pidOf("Foo default/example-foo");
    const second = pidOf("Foo default/example-foo (life 2)");
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const passes = all.filter((e) => e.ph === "X" && e.cat === "pass");
    expect(passes.map((p) => p.pid)).toEqual([first, second]);
    // The first Foo's pass ended after the second Foo's add: its end is on the first Foo's lane.
    const instants = all.filter((e) => e.ph === "i");
    const seqsOn = (pid: number | undefined) =>
      instants.filter((e) => e.pid === pid).map((e) => (e.args as { seq: number }).seq);
    expect(seqsOn(first)).toEqual([1, 2, 3, 4, 5, 8, 9]);
    expect(seqsOn(second)).toEqual([6, 7, 10, 11, 12, 13]);
    // Each pass's arrow starts on its own Foo's lanes.
    const flows = all.filter((e) => e.bind_id !== undefined);
    for (const f of flows) {
      const end = flows.filter((g) => g.bind_id === f.bind_id).at(-1)!;
      expect(f.pid).toBe(end.pid);
    }
    expect(new Set(flows.map((f) => f.pid))).toEqual(new Set([first, second]));
  });

  it("plots queue length as a counter", () => {
    const counters = doc.traceEvents.filter((e) => e.ph === "C");
    const withLen = events.filter(
      (e) => (e.stage === "enqueue" || e.stage === "dequeue") && e.len !== undefined,
    );
    expect(counters.map((c) => c.args?.ready)).toEqual(
      withLen.map((e) => (e as { len: number }).len),
    );
  });

  it("draws causes as v2 flows that pair up: one start, steps, one end on the pass, forward in time", () => {
    const flows = doc.traceEvents.filter((e) => e.bind_id !== undefined);
    expect(flows.length).toBeGreaterThan(0);
    const byId = new Map<number | string, ChromeEvent[]>();
    for (const f of flows) {
      expect(f.ph).toBe("X");
      byId.set(f.bind_id!, [...(byId.get(f.bind_id!) ?? []), f]);
    }
    const passes = doc.traceEvents.filter((e) => e.ph === "X" && e.cat === "pass");
    for (const chain of byId.values()) {
      expect(chain.length).toBeGreaterThanOrEqual(2);
      expect(chain[0].flow_out).toBe(true);
      expect(chain[0].flow_in).toBeUndefined();
      const end = chain[chain.length - 1];
      expect(end.flow_in).toBe(true);
      expect(end.flow_out).toBeUndefined();
      for (const mid of chain.slice(1, -1))
        expect([mid.flow_in, mid.flow_out]).toEqual([true, true]);
      for (let i = 1; i < chain.length; i++)
        expect(chain[i].ts).toBeGreaterThanOrEqual(chain[i - 1].ts);
      // The arrow ends inside a pass slice, on the passes lane, at the pass's start.
      expect(passes.some((p) => p.pid === end.pid && p.tid === end.tid && p.ts === end.ts)).toBe(
        true,
      );
    }
    // The echo pass is reached from the Deployment create (write → watch → enqueue → pass).
    const selfEnd = flows.find((f) => f.args?.cause === "self")!;
    const selfChain = byId.get(selfEnd.bind_id!)!;
    expect(selfChain.map((f) => f.name)).toEqual(["write", "watch", "enqueue", "trigger: self"]);
    // The retry is reached from the failed pass's end.
    const retryEnd = flows.find((f) => f.args?.cause === "retry")!;
    expect(byId.get(retryEnd.bind_id!)!.map((f) => f.name)).toEqual([
      "requeued",
      "enqueue",
      "trigger: retry",
    ]);
  });

  it("keeps an arrow forward in time when the echo was logged before its write (two workers)", () => {
    const burst = readTraceText(
      readFileSync(new URL("../../../../public/traces/burst.jsonl", import.meta.url), "utf8"),
    ).events;
    const early = burst.filter(
      (e) =>
        e.stage === "watch" &&
        burst.some((w) => w.stage === "write" && w.rv === e.rv && w.key === e.key && w.ts > e.ts),
    );
    expect(early.length).toBeGreaterThan(0); // the shape this is about
    const all = (JSON.parse(toChrome(burst).text) as { traceEvents: ChromeEvent[] }).traceEvents;
    const chains = new Map<number | string, ChromeEvent[]>();
    for (const f of all)
      if (f.bind_id !== undefined) chains.set(f.bind_id, [...(chains.get(f.bind_id) ?? []), f]);
    for (const chain of chains.values())
      for (let i = 1; i < chain.length; i++)
        expect(chain[i].ts).toBeGreaterThanOrEqual(chain[i - 1].ts);
    // Such an arrow still leaves the write's lane, at its echo's time.
    const fromWrites = [...chains.values()].filter((c) => c[0].name === "write");
    expect(fromWrites.some((c) => c[0].ts === c[1].ts && early.some((e) => e.ts === c[1].ts))).toBe(
      true,
    );
  });

  it("streams: a pass is written as soon as its done event arrives, not at the end", () => {
    const chunks: string[] = [];
    const pipe = new ExportPipeline(new ChromeTraceWriter((c) => chunks.push(c)));
    const firstDone = events.findIndex((e) => e.stage === "done");
    for (const e of events.slice(0, firstDone)) pipe.push(e);
    expect(chunks.join("")).not.toContain('"cat":"pass"');
    pipe.push(events[firstDone]);
    expect(chunks.join("")).toContain('"name":"reconcile (external)","cat":"pass"');
  });

  it("reads back every event with its key, fields and order, streamed in small chunks", () => {
    expect(looksLikeChromeTrace(text.slice(0, 64))).toBe(true);
    const { events: back, reader } = readBack(text, 7);
    expect(reader.diagnostics).toEqual([]);
    expect(back).toEqual(events);
  });

  it("reads back an extra named as a field of the event (a STAGE line's seq=7)", () => {
    const e = { ...events[0], extra: { seq: "7", note: "x" } } as TraceEvent;
    const { events: back } = readBack(toChrome([e]).text, 1000);
    expect(back).toEqual([e]);
  });

  it("reads back a file re-serialized on one line (parsed whole)", () => {
    const { events: back, reader } = readBack(JSON.stringify(doc), 1000);
    expect(reader.diagnostics).toEqual([]);
    expect(back).toEqual(events);
  });

  it("carries the JSONL header in otherData and reads it back, streamed or parsed whole", () => {
    const header: TraceHeader = {
      loopscope: "trace",
      version: 1,
      created: "2026-12-02T09:46:52.317Z",
      source: "live",
      extra: { scenario: "create-foo", cluster: "embedded" },
    };
    const chunks: string[] = [];
    const pipe = new ExportPipeline(new ChromeTraceWriter((c) => chunks.push(c), { header }));
    pipe.pushAll(events);
    pipe.end();
    const withHeader = chunks.join("");
    const written = JSON.parse(withHeader) as { otherData: { header: unknown } };
    expect(written.otherData.header).toEqual({
      loopscope: "trace",
      version: 1,
      created: "2026-12-02T09:46:52.317Z",
      source: "live",
      scenario: "create-foo",
      cluster: "embedded",
    });
    expect(readBack(withHeader, 7).reader.header).toEqual(header);
    expect(readBack(JSON.stringify(written), 1000).reader.header).toEqual(header);
    // A file written without one (from a klog log) has none.
    expect(readBack(text, 7).reader.header).toBeUndefined();
  });

  it("reports a broken line by number and still loads the rest", () => {
    const lines = text.split("\n");
    const victim = lines.findIndex((l) => l.includes('"cat":"stage"') && l.includes('"read'));
    lines[victim] = lines[victim].slice(0, 40);
    const { events: back, reader } = readBack(lines.join("\n"), 4096);
    expect(reader.diagnostics).toEqual([
      { line: victim + 1, level: "error", message: "not a JSON trace event; line skipped" },
    ]);
    expect(back).toHaveLength(events.length - 1);
  });

  it("does not take JSONL or klog for Chrome JSON", () => {
    expect(looksLikeChromeTrace('{"loopscope":"trace","version":1}\n{"seq":1}')).toBe(false);
    expect(
      looksLikeChromeTrace("I1202 09:14:06.031344   48211 controller.go:131] STAGE/watch"),
    ).toBe(false);
    expect(looksLikeChromeTrace('[{"ph":"X"}]')).toBe(true);
    expect(looksLikeChromeTrace('[\n  {"ph":"X"}')).toBe(true);
  });

  it("does not take a log whose lines begin with '[' for Chrome JSON (kubectl logs --prefix)", () => {
    const prefixed =
      "[pod/sample-controller-7d9f/sample-controller] I1202 09:14:06.031344   48211 controller.go:131] STAGE/watch kind=Foo event=add key=default/example-foo rv=1001";
    expect(looksLikeChromeTrace(prefixed)).toBe(false);
    expect(looksLikeChromeTrace("[2026-12-02 09:14:06] I1202 09:14:06.031344   1 a.go:1] x")).toBe(
      false,
    );
  });
});
