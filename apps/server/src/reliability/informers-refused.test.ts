/**
 * The real `loopscope up` on a kubeconfig's cluster that starts refusing the controller's lists
 * and watches mid-run (401, as for credentials revoked), then takes them again: the cluster still
 * answers /version, so it is no outage; stderr says once that the informers are failing, with the
 * reason, and once that they list again; every dashboard client hears it as `informers`.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import type { InformerHealth, ServerMessage } from "@loopscope/protocol";
import { StreamClient } from "../ws/stream-client.ts";
import { spawnUp } from "../testing/up-process.ts";

// Generous limits for a busy 2-core machine, not speed claims.
const WAIT = { timeout: 60_000, interval: 50 };

let dir: string;
let api: ApiServer | undefined;
let child: ChildProcess | undefined;
const clients: StreamClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-informers-refused-"));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.cut();
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await api?.stop();
  api = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A dashboard client that keeps every `informers` message it is sent. */
async function watcher(url: string, token: string): Promise<InformerHealth[]> {
  const heard: InformerHealth[] = [];
  const client = new StreamClient({
    baseUrl: url,
    token,
    onMessage: (m: ServerMessage) => {
      if (m.type === "informers") heard.push(m.informers);
    },
  });
  clients.push(client);
  await client.connect();
  return heard;
}

const FAILING =
  /^loopscope: the controller's informers are failing since \d\d:\d\d:\d\d: the cluster answers their lists and watches 401 Unauthorized; they keep retrying, and no watch event comes until they list again$/;
const AGAIN = /^loopscope: the controller's informers list and watch again after \d+ s$/;

it(
  "lists and watches refused mid-run (401) are one stderr line and a dashboard state with the reason, their return another",
  { timeout: 150_000 },
  async () => {
    api = await startApiServer({ deploymentReadyDelayMs: 30 });
    await api.writeKubeconfig(join(dir, "kubeconfig"));
    const up = await spawnUp(
      ["--kubeconfig", join(dir, "kubeconfig"), "--record", join(dir, "run.jsonl")],
      dir,
    );
    child = up.child;
    const lines = (re: RegExp) =>
      up
        .stderr()
        .split("\n")
        .filter((l) => re.test(l)).length;
    const heard = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(heard).toEqual([{ failing: false }]), WAIT);

    // Every list and watch refused from now on; the open watches end, so the informers ask again.
    api.faults.failNext(1_000_000, 401, ["list", "watch"]);
    api.faults.closeAllWatches();
    await vi.waitFor(() => expect(lines(FAILING)).toBe(1), WAIT);
    await vi.waitFor(() => expect(heard.at(-1)?.failing).toBe(true), WAIT);
    expect(heard.at(-1)).toMatchObject({ error: "401 Unauthorized" });
    // A page opened while they fail learns of it on connecting, with the reason.
    const during = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(during[0]).toMatchObject({ failing: true }), WAIT);
    expect(during[0]).toMatchObject({
      error: "401 Unauthorized",
      kinds: expect.arrayContaining(["Foo"]) as unknown as string[],
      retryInMs: expect.any(Number) as unknown as number,
    });
    // Retries, each refused anew, are told to the page (the next retry), not again on stderr.
    const told = heard.length;
    await vi.waitFor(() => expect(heard.length).toBeGreaterThan(told + 1), WAIT);
    expect(lines(FAILING)).toBe(1);
    // No outage: the cluster answers /version all along.
    expect(up.stderr()).not.toMatch(/unreachable/);

    api.faults.failNext(0);
    await vi.waitFor(() => expect(lines(AGAIN)).toBe(1), WAIT);
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ failing: false }), WAIT);
    await vi.waitFor(() => expect(during.at(-1)).toEqual({ failing: false }), WAIT);

    expect(await up.stop()).toBe(0);
    expect(lines(FAILING)).toBe(1);
    expect(lines(AGAIN)).toBe(1);
  },
);
