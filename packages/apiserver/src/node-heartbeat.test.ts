/**
 * The simulated kubelet renews the node's Lease (every 10 s on a cluster; `nodeHeartbeatMs`
 * here, shortened) and reports the node's status every 30 renewals, so `kubectl describe node`
 * never shows the server's start time as the last heartbeat; it writes nothing once stopped.
 */
import { afterEach, expect, it } from "vitest";
import { NodeHeartbeat, STATUS_EVERY } from "./actors/node-heartbeat.ts";
import { idSource } from "./ids.ts";
import { startApiServer, type ApiServer } from "./index.ts";
import { Registry } from "./registry.ts";
import { ObjectStore } from "./store/object-store.ts";
import { RawClient, eventually, type KObj } from "./testing/raw-client.ts";

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const LEASE = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/loopscope-node";
const NODE = "/api/v1/nodes/loopscope-node";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("renews the node's lease, and recreates it if deleted", async () => {
  server = await startApiServer({ nodeHeartbeatMs: 20 });
  const c = new RawClient(server.url);
  const first = (await c.get<KObj>(LEASE)).body;
  const renewTime = (l: KObj) => String(l.spec?.renewTime);
  expect(renewTime(first)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  const renewed = await eventually(async () => {
    const l = (await c.get<KObj>(LEASE)).body;
    return renewTime(l) > renewTime(first) ? l : undefined;
  });
  expect(renewed.spec).toEqual({
    holderIdentity: "loopscope-node",
    leaseDurationSeconds: 40,
    renewTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
  });
  expect(renewed.metadata.uid).toBe(first.metadata.uid);
  expect((await c.delete(LEASE)).status).toBe(200);
  await eventually(async () => (await c.get(LEASE)).status === 200);
});

it("reports the node's status every 30 renewals: its conditions' lastHeartbeatTime moves", async () => {
  // 30 × 40 ms: a report every 1.2 s; metav1.Time has whole seconds, so wait for a later one.
  server = await startApiServer({ nodeHeartbeatMs: 40 });
  const c = new RawClient(server.url);
  const heartbeats = async () =>
    ((await c.get<KObj>(NODE)).body.status?.conditions as { lastHeartbeatTime: string }[]).map(
      (x) => x.lastHeartbeatTime,
    );
  const seeded = await heartbeats();
  expect(new Set(seeded).size).toBe(1);
  const later = await eventually(async () => {
    const now = await heartbeats();
    return now[0] > seeded[0] ? now : undefined;
  }, 50);
  expect(new Set(later).size).toBe(1);
  const node = (await c.get<KObj>(NODE)).body;
  const ready = (node.status?.conditions as { type: string; lastTransitionTime: string }[]).find(
    (x) => x.type === "Ready",
  );
  expect(ready?.lastTransitionTime).toBe(seeded[0]);
});

it("writes nothing once stopped", async () => {
  const store = new ObjectStore(1000);
  const registry = new Registry(store, idSource(1));
  registry.seedNamespaces();
  registry.seedNode();
  let now = Date.parse("2026-12-06T17:00:00Z");
  const heartbeat = new NodeHeartbeat(registry, 1, () => (now += 10_000));
  heartbeat.start();
  await eventually(() => store.currentRv > 1000 + 6 + STATUS_EVERY);
  heartbeat.stop();
  const rv = store.currentRv;
  await sleep(30);
  expect(store.currentRv).toBe(rv);
});
