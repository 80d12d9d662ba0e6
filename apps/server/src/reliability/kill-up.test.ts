/**
 * `kill -9` of the real `loopscope up --record FILE` while Foos are being created: the file must
 * read back with no error, seqs 1..n in order, and at most the last second lost — every event a
 * dashboard client had received more than a second before the kill is in the file.
 * Then `loopscope up --record` on the same file again: the file continues after a clean line
 * boundary and reads back as one trace, seqs 1..n, the first run unchanged.
 * (recording-crash.test.ts kills a bare recording writer; this kills the whole CLI.)
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { TOKEN_META } from "@loopscope/protocol";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "@loopscope/controller";
import { StreamClient } from "../ws/stream-client.ts";
import { REPO_ROOT } from "../up/web-build.ts";

const BIN = join(REPO_ROOT, "apps", "server", "bin", "loopscope.mjs");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-kill-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it(
  "kill -9 of `loopscope up` mid-run loses at most the last second; a restart continues the file",
  { timeout: 150_000 },
  async () => {
    const file = join(dir, "run.jsonl");
    const child = spawn(
      process.execPath,
      [BIN, "up", "--port", "0", "--record", file, "--no-build", "--resync", "0"],
      { cwd: dir, env: { ...process.env, HOME: dir }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) =>
      child.once("exit", (_c, sig) => r(sig)),
    );
    let client: StreamClient | undefined;
    try {
      const kubeconfig = await vi.waitFor(
        () => {
          const m = /export KUBECONFIG=(\S+)/.exec(stdout);
          if (!m) throw new Error(`not up yet: ${stderr}`);
          return m[1];
        },
        { timeout: 100_000, interval: 50 },
      );
      const url = /^dashboard {2}(http:\/\/\S+)$/m.exec(stdout)![1];
      // The page served to a loopback client carries the owner token.
      const page = await (await fetch(url)).text();
      const token = new RegExp(`name="${TOKEN_META}" content="([^"]+)"`).exec(page)?.[1];
      expect(token, "owner token in index.html").toBeDefined();
      const received = new Map<number, number>(); // seq → time received
      client = new StreamClient({
        baseUrl: url,
        token: token!,
        onEvent: (e: TraceEvent) => received.set(e.seq, Date.now()),
      });
      await client.connect();

      const kc = new KubeConfig();
      kc.loadFromFile(resolve(dir, kubeconfig)); // printed relative to the CLI's cwd, or absolute
      const co = kc.makeApiClient(CustomObjectsApi);
      let created = 0;
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        await co.createNamespacedCustomObject({
          group: FOO_GROUP,
          version: FOO_VERSION,
          plural: FOO_PLURAL,
          namespace: "default",
          body: {
            apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
            kind: "Foo",
            metadata: { name: `kill-${created}` },
            spec: { deploymentName: `kill-${created}`, replicas: 1 },
          },
        });
        created++;
        await new Promise((r) => setTimeout(r, 30));
      }
      await vi.waitFor(() => expect(received.size).toBeGreaterThan(50), { timeout: 20_000 });
      const killedAt = Date.now();
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      client.cut();

      const { events, reader } = readTraceText(await readFile(file, "utf8"));
      expect(reader.diagnostics.filter((d) => d.level === "error")).toEqual([]);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const onDisk = new Set(events.map((e) => e.seq));
      const olderThanASecond = [...received].filter(([, t]) => t <= killedAt - 1000);
      const missing = olderThanASecond.filter(([seq]) => !onDisk.has(seq));
      const lostOverall = [...received.keys()].filter((s) => !onDisk.has(s)).length;
      console.log(
        `kill -9: ${created} Foos created, ${received.size} events streamed, ${events.length} on disk; ` +
          `lost ${lostOverall} (all within the last second: ${missing.length === 0})`,
      );
      expect(olderThanASecond.length).toBeGreaterThan(0);
      expect(missing).toEqual([]);

      // Restart on the same file: it continues after a clean boundary, seqs unbroken.
      const again = spawn(
        process.execPath,
        [BIN, "up", "--port", "0", "--record", file, "--no-build", "--resync", "0"],
        { cwd: dir, env: { ...process.env, HOME: dir }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out2 = "";
      again.stdout.on("data", (b: Buffer) => (out2 += b.toString()));
      again.stderr.on("data", (b: Buffer) => (out2 += b.toString()));
      const exited2 = new Promise<number | null>((r) => again.once("exit", (c) => r(c)));
      try {
        const kubeconfig2 = await vi.waitFor(
          () => {
            const m = /export KUBECONFIG=(\S+)/.exec(out2);
            if (!m) throw new Error(`not up yet: ${out2}`);
            return m[1];
          },
          { timeout: 100_000, interval: 50 },
        );
        const kc2 = new KubeConfig();
        kc2.loadFromFile(resolve(dir, kubeconfig2));
        await kc2.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
          group: FOO_GROUP,
          version: FOO_VERSION,
          plural: FOO_PLURAL,
          namespace: "default",
          body: {
            apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
            kind: "Foo",
            metadata: { name: "after-restart" },
            spec: { deploymentName: "after-restart", replicas: 1 },
          },
        });
        await vi.waitFor(
          async () => expect(await readFile(file, "utf8")).toContain("default/after-restart"),
          { timeout: 20_000, interval: 50 },
        );
        again.kill("SIGINT");
        expect(await exited2).toBe(0);
      } finally {
        if (again.exitCode === null) again.kill("SIGKILL");
      }
      const after = readTraceText(await readFile(file, "utf8"));
      expect(after.reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
      expect(after.events.map((e) => e.seq)).toEqual(after.events.map((_, i) => i + 1));
      expect(after.events.length).toBeGreaterThanOrEqual(events.length);
      expect(after.events.slice(0, events.length)).toEqual(events);
      expect(after.events.length).toBeGreaterThan(events.length);
      console.log(
        `restart with --record on the same file: ${events.length} kept, ${after.events.length - events.length} appended, seqs 1..${after.events.length}`,
      );
    } finally {
      client?.cut();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  },
);
