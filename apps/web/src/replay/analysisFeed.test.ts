import { describe, expect, it } from "vitest";
import { Analyzer, readTraceText, type TraceEvent, RowEncoder, RowDecoder } from "@loopscope/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TraceSession } from "../store/session.ts";
import { AnalysisFeed } from "./analysisFeed.ts";

const trace = (rel: string): TraceEvent[] =>
  readTraceText(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), "utf8")).events;

const SOURCES = [
  "../../../../public/traces/hot-loop.jsonl",
  "../../../../public/traces/burst.jsonl",
  "../../../../public/traces/create-foo.jsonl",
  "../../../../packages/trace/fixtures/stage/markers-only.log",
];

/**
 * The traces, plus one whose writes say nothing of their effect (no resourceVersion, no
 * `changed`, no fields), as the unpatched Go controller's: the Analyzer settles those writes
 * when their echo arrives, which changes a pass some events after it was last touched.
 */
const CASES: [string, () => TraceEvent[]][] = [
  ...SOURCES.map((src): [string, () => TraceEvent[]] => [src.split("/").pop()!, () => trace(src)]),
  [
    // Values no numeric column holds exactly go into the detail: the events rebuilt for the
    // Analyzer must take them from there (and not keep a previous row's).
    "create-foo.jsonl, resourceVersions no column holds",
    () =>
      trace(SOURCES[2]).map((e, i) => {
        const odd: Record<string, unknown> = {};
        if ("rv" in e && e.rv !== undefined && i % 2 === 0) odd.rv = `0${e.rv}`;
        if ("worker" in e && e.worker !== undefined && i % 3 === 0) odd.worker = e.worker + 0.5;
        return { ...e, ...odd } as TraceEvent;
      }),
  ],
  [
    "create-foo.jsonl, writes without effects",
    () =>
      trace(SOURCES[2]).map((e) => {
        if (e.stage !== "write") return e;
        const { rv: _rv, changed: _changed, fields: _fields, ...rest } = e;
        return rest;
      }),
  ],
];

/**
 * The replay's path: the reader encodes each batch and posts it (structured clone) to the analysis
 * side, which rebuilds the events from the columns (in reused objects) for the Analyzer and posts
 * the batch on to the page with what it changed.
 * After every batch the page's passes must equal those of an Analyzer fed the same events: a
 * change the feed failed to send would show there even if a later one repaired it.
 */
function viaWorker(events: TraceEvent[], batch: number): TraceSession {
  const session = new TraceSession({ kind: "replay" });
  const encoder = new RowEncoder();
  const decoder = new RowDecoder();
  const feed = new AnalysisFeed();
  const direct = new Analyzer();
  for (let i = 0; i < events.length; i += batch) {
    const part = events.slice(i, i + batch);
    for (const e of part) direct.push(e);
    const columns = encoder.encode(part);
    const rebuilt = decoder.decode(structuredClone(columns));
    expect(rebuilt).toEqual(part.map(({ raw: _r, ...e }) => e));
    feed.pushBatch(structuredClone(columns));
    const final = i + batch >= events.length;
    session.pushColumns(structuredClone(columns), structuredClone(feed.take(i, final)));
    for (const key of direct.keys()) {
      expect(session.passesOf(key), `passes of ${key} after ${i + part.length} events`).toEqual(
        direct.passes(key),
      );
    }
  }
  return session;
}

describe("replay worker batches", () => {
  for (const [name, read] of CASES) {
    for (const batch of [1, 7, 1000]) {
      it(`rebuild the store and the Analyzer's results: ${name} in ${batch}s`, () => {
        const events = read();
        expect(events.length).toBeGreaterThan(5);
        const session = viaWorker(events, batch);
        const direct = new Analyzer();
        direct.pushAll(events);
        expect(session.store.length).toBe(events.length);
        events.forEach((e, i) => expect(session.store.event(i)).toEqual(e));
        for (const key of direct.keys()) {
          expect(session.passesOf(key)).toEqual(direct.passes(key));
          expect(session.summaryOf(key)).toEqual(direct.summary(key));
        }
        expect(session.findings()).toEqual(direct.findings());
      });
    }
  }

  it("a session fed by the worker refuses event batches (one analysis per session)", () => {
    const session = viaWorker(trace(SOURCES[2]), 50);
    expect(() => session.push([{ seq: 1e6, ts: 1, key: "k", stage: "note", text: "x" }])).toThrow();
  });
});
