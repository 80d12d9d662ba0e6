/**
 * A restart recording to the same file continues it: a torn last line left by a crash is cut at
 * the last clean line boundary, numbering goes on after the file's last seq, and the hub serves
 * the earlier run's events from the file too. The file reads back as one trace: seqs 1..n, no
 * problems.
 */
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { readTraceText, type UnsequencedEvent } from "@loopscope/trace";
import { NotARecordingError, Recording } from "../hub/recording.ts";
import { TraceHub } from "../hub/trace-hub.ts";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const note = (i: number): UnsequencedEvent => ({
  stage: "note",
  ts: 1_764_666_000_000_000 + i,
  key: "default/x",
  text: `n${i}`,
});

it("continues a crashed recording after a clean boundary, seqs unbroken", async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-restart-"));
  const file = join(dir, "run.jsonl");
  const first = new TraceHub({
    recording: await Recording.create(file, { source: "live", created: "1" }, { indexEvery: 100 }),
  });
  for (let i = 0; i < 3000; i++) first.push(note(i));
  await first.close();
  await appendFile(file, '{"seq":3001,"ts":1,"key":"default/x","stage":"no'); // torn by a crash

  const { recording, lastSeq } = await Recording.openAppend(
    file,
    { source: "live", created: "2" },
    { indexEvery: 100 },
  );
  expect(lastSeq).toBe(3000);
  const second = new TraceHub({ recording, afterSeq: lastSeq, ringCapacity: 100 });
  for (let i = 3000; i < 3500; i++) second.push(note(i));
  expect(second.lastSeq).toBe(3500);
  // Earlier events come from the file, newer from memory, as one sequence.
  const all = await second.range(2990, 3010);
  expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => 2990 + i));
  await second.close();

  const { events, reader } = readTraceText(await readFile(file, "utf8"));
  expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 3500 }, (_, i) => i + 1));
  expect(events.map((e) => (e as { text?: string }).text)).toEqual(
    Array.from({ length: 3500 }, (_, i) => `n${i}`),
  );

  // A missing file is created with its header, as by `create`.
  const fresh = await Recording.openAppend(join(dir, "new.jsonl"), {
    source: "live",
    created: "3",
  });
  expect(fresh.lastSeq).toBe(0);
  await fresh.recording.close();
  expect(await readFile(join(dir, "new.jsonl"), "utf8")).toMatch(/^\{"loopscope":"trace"/);
});

it("refuses to continue a file that is not a recording, and leaves it as it was", async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-restart-"));
  const klog = join(dir, "controller.log");
  const text =
    "I1202 09:00:00.000087   48211 controller.go:133] STAGE/watch kind=Foo event=add key=default/x\n";
  const notes = join(dir, "notes.txt");
  for (const [file, body] of [
    [klog, text],
    [notes, "remember the milk"], // one line, no newline: not a torn header either
  ] as const) {
    await writeFile(file, body);
    await expect(Recording.openAppend(file, { source: "live", created: "1" })).rejects.toThrow(
      NotARecordingError,
    );
    expect(await readFile(file, "utf8")).toBe(body);
  }
});
