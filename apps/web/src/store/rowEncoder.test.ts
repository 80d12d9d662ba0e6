import { describe, expect, it } from "vitest";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RowDecoder } from "./rowDecoder.ts";
import { RowEncoder } from "./rowEncoder.ts";

const events = (rel: string): TraceEvent[] =>
  readTraceText(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), "utf8")).events.map(
    ({ raw: _raw, ...e }) => e,
  );

describe("RowEncoder", () => {
  it("fills recycled columns again, with nothing of the batch before showing", () => {
    // Two traces with different fields: rows of the second must not keep the first's numbers.
    const a = events("../../../../public/traces/burst.jsonl");
    const b = events("../../../../packages/trace/fixtures/stage/create-canonical.log");
    const encoder = new RowEncoder();
    const decoder = new RowDecoder();
    const n = Math.min(a.length, b.length, 200);
    expect(n).toBeGreaterThan(20);
    const first = encoder.encode(a.slice(0, n));
    expect(decoder.decode(first)).toEqual(a.slice(0, n));
    const buffers = Object.values(first)
      .filter((v) => ArrayBuffer.isView(v))
      .map((v) => (v as Uint32Array).buffer);
    encoder.recycle(first);
    // Same size and smaller: both fit the recycled set.
    for (const part of [b.slice(0, n), b.slice(n, n + 7)]) {
      const next = encoder.encode(part);
      const reused = Object.values(next)
        .filter((v) => ArrayBuffer.isView(v))
        .map((v) => (v as Uint32Array).buffer);
      expect(reused).toEqual(buffers);
      expect(decoder.decode(next)).toEqual(part);
      encoder.recycle(next);
    }
  });

  it("takes back only whole sets of its own shape", () => {
    const encoder = new RowEncoder();
    const batch = encoder.encode(events("../../../../public/traces/burst.jsonl").slice(0, 10));
    encoder.recycle({ ...batch, ts: new Float64Array(3) });
    const next = encoder.encode(events("../../../../public/traces/burst.jsonl").slice(10, 20));
    expect(next.seq.buffer).not.toBe(batch.seq.buffer);
  });
});
