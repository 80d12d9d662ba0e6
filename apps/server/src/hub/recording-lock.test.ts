import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLive } from "../up/start-live.ts";
import { startProxyRun } from "../proxy/start-proxy.ts";
import { lockRecording, RecordingInUseError } from "./recording-lock.ts";
import { quietLiveOptions } from "../testing/quiet-live.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-lock-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("one writer per recording", () => {
  it("a second `up --record FILE` while the first runs is refused, naming its pid; after it stops, FILE is free", async () => {
    const record = join(dir, "run.jsonl");
    const options = { ...quietLiveOptions(dir, { kind: "embedded" }), record };
    const first = await startLive(options);
    try {
      const second = await startLive(options).then(
        async (l) => {
          await l.stop();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(second).toBeInstanceOf(RecordingInUseError);
      expect((second as Error).message).toBe(
        `${record} is being recorded by another loopscope (pid ${process.pid}): two runs in one file would read back as one; record to another file, or stop that one first`,
      );
    } finally {
      await first.stop();
    }
    const third = await startLive(options);
    await third.stop();
    // One header, then the runs' events: never two runs' lines interleaved.
    const lines = (await readFile(record, "utf8")).trim().split("\n");
    const seqs = lines.slice(1).map((l) => (JSON.parse(l) as { seq?: number }).seq ?? 0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  }, 60_000);

  it("`proxy --record FILE` likewise: one run at a time", async () => {
    const options = {
      upstream: { kind: "embedded" as const },
      port: 0,
      dashboardPort: 0,
      webRoot: dir,
      runsDir: join(dir, "runs"),
      record: join(dir, "proxied.jsonl"),
      primaries: ["samplecontroller.k8s.io/Foo"],
    };
    const first = await startProxyRun(options);
    try {
      await expect(startProxyRun(options)).rejects.toBeInstanceOf(RecordingInUseError);
    } finally {
      await first.stop();
    }
    await (await startProxyRun(options)).stop();
  }, 60_000);

  it("takes over the lock of a process that is gone (a crash)", async () => {
    const record = join(dir, "crashed.jsonl");
    await writeFile(`${record}.lock`, "2147483646");
    const release = await lockRecording(record);
    expect(await readFile(`${record}.lock`, "utf8")).toBe(String(process.pid));
    await release();
    await expect(readFile(`${record}.lock`, "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("locks no device (`--record /dev/full`) and refuses no run where no lock can be written", async () => {
    const release = await lockRecording("/dev/null");
    await expect(readFile("/dev/null.lock")).rejects.toThrow(/ENOENT/);
    await release();
    const release2 = await lockRecording(join(dir, "no-such-folder", "run.jsonl"));
    await release2();
  });
});
