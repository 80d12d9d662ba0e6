/**
 * A recording that cannot be written, in the real `loopscope up`: said on stderr the moment it
 * fails (it used to be heard of only at Ctrl-C), sent to every dashboard client, and the run
 * goes on; at stop, how many events the file lacks, and exit 1.
 *
 * Two real failures, no mount needed: `--record /dev/full`, where every write fails with ENOSPC;
 * and a file size limit put on the running process (`prlimit --fsize`), so that a write
 * mid-run is cut short and the next fails with EFBIG — the file keeps every whole line before it.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { API, TOKEN_HEADER, type RecordingFailure, type ServerMessage } from "@loopscope/protocol";
import { StreamClient } from "../ws/stream-client.ts";
import { REPO_ROOT } from "../up/web-build.ts";
import { spawnUp, type UpProcess } from "../testing/up-process.ts";

const MANIFEST = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-recfail-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function applyFoo(up: UpProcess, name: string): Promise<void> {
  const yaml = (await readFile(MANIFEST, "utf8")).replaceAll("example-foo", name);
  const child = execFile("kubectl", ["apply", "-f", "-"], {
    env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: up.kubeconfig },
  });
  child.stdin!.end(yaml);
  await new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(code) : reject(new Error(`kubectl ${code}`)),
    ),
  );
}

function watch(up: UpProcess) {
  const failures: RecordingFailure[] = [];
  const order: string[] = [];
  const client = new StreamClient({
    baseUrl: up.dashboard,
    token: up.token,
    onMessage: (m: ServerMessage) => {
      order.push(m.type);
      if (m.type === "recording") failures.push(m.failure);
    },
  });
  return { client, failures, order };
}

it("--record /dev/full: ENOSPC said at once, the run goes on, at stop the count of events the file lacks", async () => {
  const up = await spawnUp(["--record", "/dev/full"], dir);
  try {
    // Before any event or Ctrl-C: the header's write failed.
    await vi.waitFor(
      () =>
        expect(up.stderr()).toMatch(
          /loopscope: recording failed at \d\d:\d\d:\d\d: \/dev\/full: ENOSPC: no space left on device, write; the file has no events\. up goes on/,
        ),
      { timeout: 10_000 },
    );
    const { client, failures, order } = watch(up);
    await client.connect();
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    // Told at once on connecting, before any objects (fooApi's and informers' states follow every hello).
    expect(order.filter((t) => t !== "fooApi" && t !== "informers").slice(0, 2)).toEqual([
      "hello",
      "recording",
    ]);
    expect(failures[0]).toMatchObject({
      trace: "full",
      error: "ENOSPC: no space left on device, write",
      savedThrough: 0,
    });

    await applyFoo(up, "on-full-disk");
    await vi.waitFor(
      () =>
        expect(
          client.events.some((e) => e.key === "default/on-full-disk" && e.stage === "done"),
        ).toBe(true),
      { timeout: 30_000, interval: 50 },
    );
    await client.close();
    const code = await up.stop();
    const last = Number(/(\d+) events? \(seq 1–(\d+)\)/.exec(up.stderr())?.[2]);
    expect(code).toBe(1);
    expect(last).toBeGreaterThanOrEqual(client.lastSeq);
    expect(up.stderr()).toContain(
      `loopscope: recording incomplete: /dev/full lacks ${last} events (seq 1–${last}): ENOSPC: no space left on device, write`,
    );
    // Stopping never removes what --record named (a device here).
    expect((await stat("/dev/full")).isCharacterDevice()).toBe(true);
  } finally {
    up.kill();
  }
}, 120_000);

it("a write cut short mid-run (a file size limit): the file keeps its whole lines, the dashboard serves the rest", async () => {
  const file = join(dir, "limited.jsonl");
  const up = await spawnUp(["--record", file], dir);
  try {
    await applyFoo(up, "before-limit");
    const { client, failures } = watch(up);
    await client.connect();
    await vi.waitFor(
      async () => {
        expect(client.lastSeq).toBeGreaterThan(20);
        expect((await stat(file)).size).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    // From now on no write may make the file larger than a few hundred bytes more than it is.
    const size = (await stat(file)).size;
    await new Promise((r) => setTimeout(r, 300)); // let the flush in flight land
    const limit = (await stat(file)).size + 700;
    execFileSync("prlimit", ["--pid", String(up.child.pid), `--fsize=${limit}`]);
    expect(size).toBeGreaterThan(0);
    // On a busy machine a flush may still have landed before the limit took hold, past it: then
    // the file ends there, and the next write fails whole.
    const bound = Math.max(limit, (await stat(file)).size);

    await applyFoo(up, "after-limit");
    await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 30_000, interval: 50 });
    const failure = failures[0]!;
    expect(failure.error).toBe("EFBIG: file too large, write");
    // stderr is a pipe of its own: its line may come after the dashboard's message.
    await vi.waitFor(
      () =>
        expect(up.stderr()).toContain(
          `: EFBIG: file too large, write; the file has events up to seq ${failure.savedThrough} and no later ones. up goes on`,
        ),
      { timeout: 30_000, interval: 50 },
    );

    // The file: a header, then exactly the events 1..savedThrough as whole lines, and at most
    // one torn line (the cut write) after them.
    const text = await readFile(file, "utf8");
    expect(text.length).toBeLessThanOrEqual(bound);
    const lines = text.split("\n");
    const torn = lines.pop()!;
    const seqs = lines.slice(1).map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.at(-1)).toBe(failure.savedThrough);
    expect(() => JSON.parse(torn)).toThrow();

    // The run goes on, and the whole trace is still served: the file's part from disk, the rest
    // from memory.
    await vi.waitFor(
      () =>
        expect(
          client.events.some((e) => e.key === "default/after-limit" && e.stage === "done"),
        ).toBe(true),
      { timeout: 30_000, interval: 50 },
    );
    // The controller may still be at work (the Deployment's rollout is a pass too): ask for, and
    // expect, the events the client has now.
    const upTo = client.lastSeq;
    const res = await fetch(new URL(`${API.trace}?from=1&to=${upTo}`, up.dashboard), {
      headers: { [TOKEN_HEADER]: up.token },
    });
    const served = (await res.text())
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(served).toEqual(Array.from({ length: upTo }, (_, i) => i + 1));
    await client.close();

    expect(await up.stop()).toBe(1);
    const m = /lacks (\d+) events \(seq (\d+)–(\d+)\): EFBIG/.exec(up.stderr());
    expect(m, up.stderr()).not.toBeNull();
    const [missing, from, to] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(from).toBe(failure.savedThrough + 1);
    expect(missing).toBe(to - failure.savedThrough);
    expect(to).toBeGreaterThanOrEqual(client.lastSeq);
  } finally {
    up.kill();
  }
}, 120_000);
