import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { OtlpTraceWriter } from "./otlp-writer.ts";
import { hash64, microsToNanos, otlpProblems, type OtlpSpan } from "./otlp-format.ts";
import { ExportPipeline } from "./export-pipeline.ts";
import { fixtureTrace, recreatedFooTrace } from "./fixture-trace.test-util.ts";
import { readFileSync } from "node:fs";
import { readTraceText } from "../reader/read-trace.ts";

function toOtlp(events: TraceEvent[]): {
  doc: Record<string, unknown>;
  spans: OtlpSpan[];
  writer: OtlpTraceWriter;
} {
  const chunks: string[] = [];
  const writer = new OtlpTraceWriter((c) => chunks.push(c), { source: "fixture" });
  const pipe = new ExportPipeline(writer);
  pipe.pushAll(events);
  pipe.end();
  const doc = JSON.parse(chunks.join("")) as Record<string, unknown>;
  const spans = (doc as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] })
    .resourceSpans[0].scopeSpans[0].spans;
  return { doc, spans, writer };
}

describe("OTLP/JSON export", () => {
  const events = fixtureTrace();
  const { doc, spans, writer } = toOtlp(events);
  const passSpans = spans.filter((s) => s.name.startsWith("reconcile/"));

  it("has the OTLP JSON shape: resourceSpans/scopeSpans/spans, hex ids of 32 and 16, times as strings of nanos", () => {
    expect(otlpProblems(doc)).toEqual([]);
    for (const s of spans) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(typeof s.startTimeUnixNano).toBe("string");
      expect(s.startTimeUnixNano).toMatch(/^\d+$/);
    }
    const resource = (doc as { resourceSpans: { resource: { attributes: { key: string }[] } }[] })
      .resourceSpans[0].resource;
    expect(resource.attributes.map((a) => a.key)).toContain("service.name");
  });

  it("makes a trace per Foo: a root span and a span per pass from its first trigger to done", () => {
    expect(passSpans.map((s) => s.name)).toEqual([
      "reconcile/external",
      "reconcile/self",
      "reconcile/external",
      "reconcile/retry",
      "reconcile/resync",
    ]);
    const root = spans.find((s) => s.name === "Foo default/example-foo")!;
    expect(root).toBeDefined();
    for (const s of passSpans) {
      expect(s.traceId).toBe(root.traceId);
      expect(s.parentSpanId).toBe(root.spanId);
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    // From the watch event that asked for it (the queue wait before its dequeue, events[2]).
    expect(passSpans[0].startTimeUnixNano).toBe(microsToNanos(events[0].ts));
    expect(passSpans[0].endTimeUnixNano).toBe(microsToNanos(events[8].ts));
    expect(root.startTimeUnixNano).toBe(microsToNanos(events[0].ts));
  });

  it("puts each pass's stage events and its triggers on the span as events", () => {
    const first = passSpans[0].events!.map((e) => e.name);
    expect(first).toEqual([
      "watch Foo add",
      "enqueue",
      "dequeue",
      "read",
      "create deployments/default/example-foo",
      "updateStatus foos/default/example-foo/status",
      "done synced",
    ]);
    // The Deployment echo and the Foo status echo arrived during pass 1: they are pass 2's triggers.
    expect(passSpans[1].events!.map((e) => e.name).slice(0, 4)).toEqual([
      "watch Deployment add",
      "enqueue",
      "watch Foo update",
      "enqueue",
    ]);
    const rv = passSpans[0].events![0].attributes!.find((a) => a.key === "rv");
    expect(rv?.value).toEqual({ stringValue: "1001" });
    // Every event lands on exactly one span: the orphan (no Foo) on the no-Foo trace's.
    const placed = spans.reduce((n, s) => n + (s.events?.length ?? 0), 0);
    expect(placed).toBe(events.length);
    expect(writer.counts.unplaced).toBe(0);
    const noFoo = spans.find((s) => s.name === "controller (no Foo)")!;
    expect(noFoo.events!.map((e) => e.name)).toEqual(["watch Deployment delete"]);
    expect(noFoo.traceId).not.toBe(passSpans[0].traceId);
  });

  it("links a pass to the pass whose write caused it, and a retry to the failed pass", () => {
    const [create, echo, edit, retry, resync] = passSpans;
    expect(create.links).toBeUndefined();
    expect(echo.links?.map((l) => l.spanId)).toContain(create.spanId);
    expect(echo.links?.every((l) => l.traceId === create.traceId)).toBe(true);
    expect(retry.links?.map((l) => l.spanId)).toContain(edit.spanId);
    expect(resync.links).toBeUndefined();
    expect(edit.status).toEqual({ code: 2, message: "Operation cannot be fulfilled" });
  });

  it("links a retry to the pass that asked for it, when an echo's pass ran in between", () => {
    // create-foo: pass 2 is refused (409) and requeued; an echo queues pass 3 at once, and the
    // rate-limited retry is pass 4.
    const text = readFileSync(
      new URL("../../../../public/traces/create-foo.jsonl", import.meta.url),
      "utf8",
    );
    const passes = toOtlp(readTraceText(text).events).spans.filter((s) =>
      s.name.startsWith("reconcile/"),
    );
    const outcome = (s: OtlpSpan) => {
      const v = s.attributes?.find((a) => a.key === "loopscope.pass.outcome")?.value;
      return v && "stringValue" in v ? v.stringValue : undefined;
    };
    const requeued = passes.findIndex((s) => outcome(s) === "requeued");
    const retry = passes.findIndex((s) => s.name === "reconcile/retry");
    expect(retry).toBeGreaterThan(requeued + 1);
    expect(passes[retry]!.links?.map((l) => l.spanId)).toEqual([passes[requeued]!.spanId]);
  });

  it("streams: a span is written when its pass closes", () => {
    const chunks: string[] = [];
    const pipe = new ExportPipeline(new OtlpTraceWriter((c) => chunks.push(c)));
    const firstDone = events.findIndex((e) => e.stage === "done");
    for (const e of events.slice(0, firstDone + 1)) pipe.push(e);
    expect(chunks.join("")).toContain('"name":"reconcile/external"');
    expect(chunks.join("")).not.toContain('"name":"reconcile/self"');
  });

  it("derives stable ids, different for another run of the same Foo", () => {
    const again = toOtlp(events).spans.map((s) => s.spanId);
    expect(again).toEqual(spans.map((s) => s.spanId));
    const later = toOtlp(fixtureTrace(1_800_000_000_000_000)).spans;
    expect(later[0].traceId).not.toBe(spans[0].traceId);
    expect(hash64("")).toMatch(/^[0-9a-f]{16}$/);
  });

  it("makes a trace per life of a key: a Foo deleted and created again is another trace", () => {
    const recreated = recreatedFooTrace();
    const { spans } = toOtlp(recreated);
    const roots = spans.filter((s) => s.name === "Foo default/example-foo");
    expect(roots).toHaveLength(2);
    expect(roots[0].traceId).not.toBe(roots[1].traceId);
    const life = (s: OtlpSpan) => s.attributes?.find((a) => a.key === "loopscope.foo.life")?.value;
    expect(roots.map(life)).toEqual([{ intValue: "1" }, { intValue: "2" }]);
    const [first, second] = spans.filter((s) => s.name.startsWith("reconcile/"));
    expect([first.traceId, first.parentSpanId]).toEqual([roots[0].traceId, roots[0].spanId]);
    expect([second.traceId, second.parentSpanId]).toEqual([roots[1].traceId, roots[1].spanId]);
    const rvs = (s: OtlpSpan) =>
      s.events!.map((e) => e.attributes?.find((a) => a.key === "rv")?.value);
    // The first Foo's pass ended after the second Foo's add: its end is still its own.
    expect(first.events!.map((e) => e.name)).toEqual([
      "watch Foo add",
      "enqueue",
      "dequeue",
      "read",
      "create deployments/default/example-foo",
      "done synced",
    ]);
    expect(rvs(first)[0]).toEqual({ stringValue: "1001" });
    expect(second.events!.map((e) => e.name)).toEqual([
      "watch Foo add",
      "enqueue",
      "dequeue",
      "read",
      "update deployments/default/example-foo",
      "done synced",
    ]);
    expect(rvs(second)[0]).toEqual({ stringValue: "2001" });
    // The delete is the first Foo's last event: its root span's, no pass's.
    expect(roots[0].events!.map((e) => e.name)).toEqual(["watch Foo delete"]);
    expect(roots[1].events).toBeUndefined();
  });

  it("rejects documents with the wrong shape", () => {
    expect(otlpProblems({})).toEqual(["no resourceSpans array"]);
    const bad = structuredClone(doc) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    const s = bad.resourceSpans[0].scopeSpans[0].spans[0];
    s.traceId = "abc";
    s.startTimeUnixNano = 1;
    expect(otlpProblems(bad).slice(0, 2)).toEqual([
      "span 0: traceId is not 32 hex digits",
      "span 0: startTimeUnixNano is not a string of nanoseconds",
    ]);
  });
});
