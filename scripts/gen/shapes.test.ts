/**
 * Every log shape of the parse bench's matrix (shapes.ts), and the same events as JSONL, read back
 * against recorded results: events, diagnostics, and the Analyzer's whole output. A reader change
 * that alters what any shape gives shows here as a diff
 * (`pnpm exec vitest run scripts/gen/shapes -u` re-records).
 */
import { describe, expect, it } from "vitest";
import { TraceReader, type TraceEvent } from "../../packages/trace/src/index.ts";
import { analysisRecord, readRecord } from "../../packages/trace/src/testing/golden.ts";
import { encodeEvent, encodeHeader } from "../../packages/trace/src/index.ts";
import { scenario } from "./scenario.ts";
import { LOG_SHAPES, shapeWriter } from "./shapes.ts";

const EVENTS = 400;

function text(shape: string): string {
  const events = [...scenario({ events: EVENTS, foos: 10, seed: 7 })];
  if (shape === "jsonl") return encodeHeader({ source: "test" }) + events.map(encodeEvent).join("");
  const w = shapeWriter(shape as (typeof LOG_SHAPES)[number], 7);
  return events.flatMap((e) => w.lines(e).map((l) => l + "\n")).join("");
}

function read(data: Uint8Array, piece: number): string {
  const reader = new TraceReader({ year: 2026 });
  const events: TraceEvent[] = [];
  for (let i = 0; i < data.length; i += piece)
    events.push(...reader.push(data.subarray(i, i + piece)));
  events.push(...reader.end());
  return (
    readRecord({ ...reader, format: reader.format, lines: reader.lines, events }) +
    "--- analysis\n" +
    analysisRecord(events)
  );
}

describe("each log shape, read back", () => {
  // kubectl's shape is the go shape's lines after a prefix: checked against it below.
  for (const shape of [...LOG_SHAPES.filter((s) => s !== "kubectl"), "jsonl"]) {
    it(shape, async () => {
      const data = new TextEncoder().encode(text(shape));
      const got = read(data, 1 << 16);
      await expect(got).toMatchFileSnapshot(`__golden__/shape-${shape}.txt`);
      expect(read(data, 509)).toBe(got);
    });
  }

  it("kubectl --timestamps' prefix changes nothing the go shape's lines say", () => {
    const go = new TextEncoder().encode(text("go"));
    const kubectl = new TextEncoder().encode(text("kubectl"));
    expect(kubectl.length).toBeGreaterThan(go.length);
    expect(read(kubectl, 1 << 16)).toBe(read(go, 1 << 16));
    expect(read(kubectl, 509)).toBe(read(go, 1 << 16));
  });
});
