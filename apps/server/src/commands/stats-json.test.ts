/**
 * `stats --json` is written as it is made (writeStatsJson): its text must be what
 * JSON.stringify(statsJson(…), null, 2) makes of the same analysis, byte for byte — with no key,
 * one, thousands (several pieces), findings and more diagnostics than are kept.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Analyzer, TraceReader } from "@loopscope/trace";
import { statsJson, writeStatsJson } from "./stats.ts";

const STAGE = fileURLToPath(new URL("../../../../packages/trace/fixtures/stage/", import.meta.url));

function analysed(text: string) {
  const reader = new TraceReader({ year: 2026 });
  const analyzer = new Analyzer();
  const take = (e: Parameters<Analyzer["push"]>[0]) => void analyzer.push(e);
  reader.push(new TextEncoder().encode(text), take);
  reader.end(take);
  return { reader, analyzer };
}

async function streamed(text: string): Promise<{ out: string; pieces: number; whole: string }> {
  const { reader, analyzer } = analysed(text);
  const pieces: string[] = [];
  await writeStatsJson(reader, analyzer, (s) => void pieces.push(s));
  const whole = JSON.stringify(statsJson(reader, analyzer), null, 2) + "\n";
  return { out: pieces.join(""), pieces: pieces.length, whole };
}

/** A klog log of `n` Foos, one create pass each, and `bad` unreadable STAGE lines. */
function manyFoos(n: number, bad = 0): string {
  const lines: string[] = [];
  const h = (i: number) =>
    `I1202 09:00:${String(10 + (i % 50)).padStart(2, "0")}.${String(i % 1e6).padStart(6, "0")}   4242 controller.go:1] `;
  for (let i = 0; i < n; i++) {
    const key = `ns-${i % 7}/foo-${i}`;
    lines.push(`${h(i)}STAGE/watch kind=Foo event=add key=${key} rv=${1000 + i}`);
    lines.push(`${h(i)}STAGE/enqueue key=${key} len=1`);
    lines.push(`${h(i)}STAGE/dequeue key=${key} len=0 worker=1`);
    lines.push(`${h(i)}STAGE/read key=${key} rv=${1000 + i}`);
    lines.push(`${h(i)}STAGE/write verb=create target=deployments/${key} code=201`);
    lines.push(`${h(i)}"Successfully synced" objectName="${key}"`);
  }
  for (let i = 0; i < bad; i++) lines.push(`${h(i)}STAGE/wacth key=a/b`);
  return lines.join("\n") + "\n";
}

describe("stats --json, streamed", () => {
  for (const f of readdirSync(STAGE).filter((f) => f.endsWith(".log"))) {
    it(`is JSON.stringify's text for ${f}`, async () => {
      const { out, whole } = await streamed(readFileSync(STAGE + f, "utf8"));
      expect(out).toBe(whole);
    });
  }

  it("is the same with no key at all", async () => {
    const { out, whole } = await streamed("nothing here\n");
    expect(out).toBe(whole);
    expect(JSON.parse(out).keys).toEqual({});
  });

  it("comes in pieces for thousands of Foos, and says how many problems it did not keep", async () => {
    const { out, pieces, whole } = await streamed(manyFoos(5000, 1500));
    expect(pieces).toBeGreaterThan(1);
    expect(out).toBe(whole);
    const j = JSON.parse(out);
    expect(Object.keys(j.keys)).toHaveLength(5000);
    expect(j.diagnostics.at(-1).message).toMatch(/and \d+ more problems/);
  });
});
