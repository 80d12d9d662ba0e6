/**
 * Fault injection and restart, observed from the outside over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import {
  DEPLOYMENTS,
  FOO_TYPE,
  FOOS,
  RawClient,
  eventually,
  type KObj,
} from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

describe("faults", () => {
  it("fails the next N requests of the chosen verbs, then recovers", async () => {
    server.faults.failNext(2, 503, ["create"]);
    expect(server.faults.state().failNext).toBe(2);
    expect((await c.get(FOOS)).status).toBe(200); // a list is not a create
    const first = await c.post(FOOS, {
      ...FOO_TYPE,
      metadata: { name: "flaky" },
      spec: { replicas: 1 },
    });
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ kind: "Status", reason: "ServiceUnavailable", code: 503 });
    expect(
      (await c.post(FOOS, { ...FOO_TYPE, metadata: { name: "flaky" }, spec: { replicas: 1 } }))
        .status,
    ).toBe(503);
    expect(
      (await c.post(FOOS, { ...FOO_TYPE, metadata: { name: "flaky" }, spec: { replicas: 1 } }))
        .status,
    ).toBe(201);
    expect(server.faults.state().failNext).toBe(0);
    server.faults.failNext(1);
    expect((await c.get(`${FOOS}/flaky`)).body).toMatchObject({
      reason: "InternalError",
      code: 500,
    });
    expect((await c.get("/version")).status).toBe(200); // discovery is never failed
  });

  it("adds latency per verb and reports it in state()", async () => {
    server.faults.setLatency("get", 30);
    expect(server.faults.state().latencyMs).toEqual({ get: 30 });
    expect((await c.get(`${FOOS}/flaky`)).status).toBe(200);
    server.faults.setLatency("get", 0);
    expect(server.faults.state().latencyMs).toEqual({});
  });

  it("closes all watches cleanly", async () => {
    const w = await c.watch(`${FOOS}?watch=true`);
    await eventually(() => server.activeWatches() > 0);
    server.faults.closeAllWatches();
    await w.ended;
    expect(w.events.every((e) => e.type === "ADDED")).toBe(true);
    await eventually(() => server.activeWatches() === 0);
  });

  it("expires the next watch with 410", async () => {
    server.faults.expireNextWatch();
    const rv = (await c.get<{ metadata: { resourceVersion: string } }>(FOOS)).body.metadata
      .resourceVersion;
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${rv}`);
    await w.ended;
    expect(w.events.map((e) => [e.type, e.object.code])).toEqual([["ERROR", 410]]);
    const next = await c.watch(`${FOOS}?watch=true&resourceVersion=${rv}&timeoutSeconds=1`);
    await next.ended;
    expect(next.events.some((e) => e.type === "ERROR")).toBe(false);
  });

  it("silences the open watches for good — no event, bookmark or end — and serves new ones", async () => {
    const rv = (await c.get<{ metadata: { resourceVersion: string } }>(FOOS)).body.metadata
      .resourceVersion;
    const query = `watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`;
    const silenced = await c.watch(`${FOOS}?${query}`);
    await eventually(() => server.activeWatches() > 0);
    const started = server.watchesStarted();
    server.faults.silenceAllWatches();
    await c.createFoo("unheard");
    const fresh = await c.watch(`${FOOS}?watch=true&resourceVersion=${rv}`);
    await fresh.until((es) => es.some((e) => e.object.metadata?.name === "unheard"));
    expect(server.watchesStarted()).toBe(started + 1);
    // Past the silenced stream's timeout (1 s): still open, and nothing came.
    const ended = await Promise.race([
      silenced.ended.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 1_500)),
    ]);
    expect(ended).toBe(false);
    expect(silenced.events).toEqual([]);
    silenced.close();
    fresh.close();
  });

  it("runs a competing writer that makes a stale update conflict", async () => {
    const foo = await c.createFoo("contested");
    server.faults.competingWriter.start({
      kind: "Foo",
      namespace: "default",
      name: "contested",
      intervalMs: 5,
    });
    expect(server.faults.state().competingWriter).toBe(true);
    const bumped = await eventually(async () => {
      const cur = (await c.get<KObj>(`${FOOS}/contested`)).body;
      return cur.metadata.annotations?.["loopscope.dev/competing-writer"] ? cur : undefined;
    });
    expect(bumped.metadata.generation).toBe(1);
    const stale = await c.put(`${FOOS}/contested/status`, {
      ...foo,
      status: { availableReplicas: 1 },
    });
    expect(stale.status).toBe(409);
    server.faults.competingWriter.stop();
    expect(server.faults.state().competingWriter).toBe(false);
  });
});

describe("restart", () => {
  it("listens again on the same port with objects kept; a watch resumes from its last RV", async () => {
    const port = server.port;
    const foo = await c.createFoo("survivor");
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${foo.metadata.resourceVersion}`);
    await server.restart();
    await w.ended;
    expect(server.port).toBe(port);
    expect((await c.get<KObj>(`${FOOS}/survivor`)).body.metadata.uid).toBe(foo.metadata.uid);
    const resumed = await c.watch(
      `${FOOS}?watch=true&resourceVersion=${foo.metadata.resourceVersion}`,
    );
    const d = await c.post<KObj>(DEPLOYMENTS, {
      metadata: { name: "after" },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "i" }] },
        },
      },
    });
    expect(d.status).toBe(201);
    await c.patch(`${FOOS}/survivor`, { spec: { replicas: 2 } });
    const events = await resumed.until((e) => e.length >= 1);
    resumed.close();
    expect(events[0]).toMatchObject({
      type: "MODIFIED",
      object: { metadata: { name: "survivor" } },
    });
  });
});
