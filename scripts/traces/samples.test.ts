/**
 * The shipped samples as the dashboard and users meet them: every file public/traces/index.json
 * lists exists, stays under the size budget, reads without errors, and its Perfetto/OTLP exports
 * are conversions of that very trace (not of an older run).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ChromeTraceReader,
  otlpProblems,
  readTraceText,
  type TraceEvent,
} from "../../packages/trace/src/index.ts";
import type { IndexEntry } from "./generate.ts";

const DIR = fileURLToPath(new URL("../../public/traces/", import.meta.url));
const index = JSON.parse(readFileSync(join(DIR, "index.json"), "utf8")) as { traces: IndexEntry[] };

function read(file: string): TraceEvent[] {
  const { events, reader } = readTraceText(readFileSync(join(DIR, file), "utf8"), { year: 2026 });
  expect(reader.diagnostics.filter((d) => (d.level ?? "error") === "error")).toEqual([]);
  return events;
}

describe("public/traces", () => {
  it("lists samples with a title and a description, create-foo, hot-loop and burst among them", () => {
    const files = index.traces.map((t) => t.file);
    expect(files).toEqual(
      expect.arrayContaining([
        "create-foo.jsonl",
        "create-foo.klog.log",
        "hot-loop.jsonl",
        "burst.jsonl",
      ]),
    );
    for (const t of index.traces) {
      expect(t.title, t.file).toBeTruthy();
      expect(t.description, t.file).toBeTruthy();
    }
  });

  for (const t of index.traces) {
    it(`${t.file}: small, readable, and its exports convert this very trace`, () => {
      expect(statSync(join(DIR, t.file)).size).toBeLessThan(200 * 1024);
      const events = read(t.file);
      expect(events.length).toBeGreaterThan(10);
      if (t.exports?.chrome) {
        const text = readFileSync(join(DIR, t.exports.chrome), "utf8");
        expect(text.length).toBeLessThan(200 * 1024);
        const reader = new ChromeTraceReader();
        const back = [...reader.push(text), ...reader.end()];
        expect(reader.diagnostics).toEqual([]);
        expect(back).toEqual(events);
      }
      if (t.exports?.otlp) {
        const text = readFileSync(join(DIR, t.exports.otlp), "utf8");
        expect(text.length).toBeLessThan(200 * 1024);
        const doc = JSON.parse(text) as {
          resourceSpans: { scopeSpans: { spans: { events?: unknown[] }[] }[] }[];
        };
        expect(otlpProblems(doc)).toEqual([]);
        const spanEvents = doc.resourceSpans[0].scopeSpans[0].spans.reduce(
          (n, s) => n + (s.events?.length ?? 0),
          0,
        );
        expect(spanEvents).toBe(events.length);
      }
    });
  }
});
