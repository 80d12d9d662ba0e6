import { mkdtemp, readFile, rm, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decodeEventLine, type UnsequencedEvent } from "@loopscope/trace";
import { Recording } from "./recording.ts";
import { RangeGoneError, TraceHub } from "./trace-hub.ts";

const note = (i: number): UnsequencedEvent => ({
  stage: "note",
  ts: 1_700_000_000_000_000 + i,
  key: "default/example-foo",
  text: `event ${i} ünïcødé`,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-hub-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("TraceHub", () => {
  it("numbers events 1, 2, 3 … and tells listeners in order", () => {
    const hub = new TraceHub({ ringCapacity: 10 });
    const seen: number[] = [];
    hub.subscribe((e) => seen.push(e.seq));
    for (let i = 0; i < 25; i++) hub.push(note(i));
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(hub.lastSeq).toBe(25);
  });

  it("serves ranges older than the ring from the recording, exactly", async () => {
    const rec = await Recording.create(
      join(dir, "r.jsonl"),
      { source: "live", created: "now" },
      {
        indexEvery: 7,
        flushBytes: 1000,
      },
    );
    const hub = new TraceHub({ ringCapacity: 50, recording: rec });
    for (let i = 0; i < 1000; i++) hub.push(note(i));
    for (const [from, to] of [
      [1, 1],
      [1, 1000],
      [13, 700],
      [940, 990],
      [999, 2000],
      [500, 499],
    ]) {
      const got = (await hub.range(from, to)).map((e) => e.seq);
      const want: number[] = [];
      for (let s = Math.max(1, from); s <= Math.min(to, 1000); s++) want.push(s);
      expect(got).toEqual(want);
    }
    const [e] = await hub.range(321, 321);
    expect(e).toMatchObject({ seq: 321, stage: "note", text: "event 320 ünïcødé" });
    await hub.close();
  });

  it("serves download lines in the trace file's encoding, extras flattened, from memory or disk", async () => {
    const rec = await Recording.create(join(dir, "x.jsonl"), { source: "live", created: "t" });
    const hub = new TraceHub({ ringCapacity: 3, recording: rec });
    for (let i = 0; i < 6; i++) hub.push({ ...note(i), extra: { gpu: i } });
    const lines = await hub.rangeLines(1, 6);
    expect(lines).toHaveLength(6);
    for (const [i, line] of lines.entries()) {
      expect(line.endsWith("\n")).toBe(true);
      expect(JSON.parse(line)).toMatchObject({ seq: i + 1, gpu: i });
      expect(JSON.parse(line)).not.toHaveProperty("extra");
    }
    expect((await hub.range(5, 5))[0]).toMatchObject({ seq: 5, extra: { gpu: 4 } });
    expect((await hub.range(1, 1))[0]).toMatchObject({ seq: 1, extra: { gpu: 0 } });
    await hub.close();
  });

  it("without a recording, says plainly that evicted events are gone", async () => {
    const hub = new TraceHub({ ringCapacity: 10 });
    for (let i = 0; i < 30; i++) hub.push(note(i));
    await expect(hub.range(1, 30)).rejects.toBeInstanceOf(RangeGoneError);
    expect((await hub.range(21, 30)).length).toBe(10);
  });
});

describe("Recording", () => {
  it("is on disk within the flush interval without close, and whole after close", async () => {
    const path = join(dir, "live.jsonl");
    const rec = await Recording.create(path, { source: "live", created: "t" }, { flushMs: 20 });
    const hub = new TraceHub({ recording: rec });
    for (let i = 0; i < 5; i++) hub.push(note(i));
    // No flush or close: the timer alone must bring the lines to disk.
    const early = await vi.waitFor(async () => {
      const lines = (await readFile(path, "utf8")).trim().split("\n");
      expect(lines).toHaveLength(6);
      return lines;
    });
    expect(JSON.parse(early[0])).toMatchObject({ loopscope: "trace", source: "live" });
    for (let i = 5; i < 3000; i++) hub.push(note(i));
    await hub.close();
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    const seqs = lines.map((l) => decodeEventLine(l)?.seq).filter((s) => s !== undefined);
    expect(seqs).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
  });

  it("skips a torn last line when reading back", async () => {
    const path = join(dir, "torn.jsonl");
    await writeFile(path, "");
    const rec = await Recording.create(path, { source: "live", created: "t" });
    const hub = new TraceHub({ ringCapacity: 2, recording: rec });
    for (let i = 0; i < 10; i++) hub.push(note(i));
    await rec.flush();
    await appendFile(path, '{"seq":11,"stage":"no');
    expect((await hub.range(1, 20)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await hub.close();
  });
});
