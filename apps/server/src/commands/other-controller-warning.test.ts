/**
 * `up` says on stderr when another controller reconciles the same Foos: here the Go
 * sample-controller, as kubectl would show its Event (source.component only), created with kubectl
 * on the cluster `up` runs. The real process, and the real kubectl.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { spawnUp, type UpProcess } from "../testing/up-process.ts";

const run = promisify(execFile);
let dir: string;
let up: UpProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-other-controller-"));
});
afterAll(async () => {
  up?.kill();
  await rm(dir, { recursive: true, force: true });
});

it(
  "up warns once on stderr when the Go sample-controller records an Event on a Foo",
  { timeout: 120_000 },
  async () => {
    up = await spawnUp([], dir);
    const at = "2026-12-06T23:00:00Z";
    const event = (name: string, component = "sample-controller") => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name, namespace: "default" },
      involvedObject: {
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        namespace: "default",
        name: "example-foo",
      },
      type: "Normal",
      reason: "Synced",
      message: "Foo synced successfully",
      count: 1,
      firstTimestamp: at,
      lastTimestamp: at,
      source: { component },
    });
    // A stream of JSON objects, as kubectl reads one; the last from another made-up
    // controller: once its warning is there, b has been seen.
    const file = join(dir, "events.json");
    const docs = [event("a"), event("b"), event("c", "flush-controller")];
    await writeFile(file, docs.map((d) => JSON.stringify(d)).join("\n"));
    await run("kubectl", ["--kubeconfig", up.kubeconfig, "create", "-f", file]);

    const line =
      "loopscope: warning: another controller is also reconciling Foos on this cluster: " +
      `sample-controller (Event Synced on default/example-foo at ${at}). ` +
      "Passes it causes show as external; stop it for a true picture.\n";
    await vi.waitFor(() => expect(up!.stderr()).toContain("on this cluster: flush-controller"), {
      timeout: 30_000,
    });
    expect(await up.stop()).toBe(0);
    // Two Events, one controller: one warning.
    expect(up.stderr().split(line)).toHaveLength(2);
  },
);
