/**
 * Watch streams over real HTTP: NDJSON framing, headers before any event, initial ADDED events,
 * resuming from a resourceVersion, 410 Expired past the history window, bookmarks,
 * timeoutSeconds, selector transitions, Table events, and client disconnects that never leak.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ historyWindow: 20, bookmarkIntervalMs: 20 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

describe("watch", () => {
  it("flushes headers at once and streams ADDED/MODIFIED/DELETED as NDJSON", async () => {
    const list = await c.get<{ metadata: { resourceVersion: string } }>(FOOS);
    // fetch resolves on the response headers: no event exists yet, so they must have been flushed.
    const w = await c.watch(
      `${FOOS}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    expect(w.status).toBe(200);
    expect(w.headers.get("content-type")).toBe("application/json");
    const foo = await c.createFoo("w1");
    await c.patch(`${FOOS}/w1`, { spec: { replicas: 2 } });
    await c.delete(`${FOOS}/w1`);
    const events = await w.until((e) => e.length >= 3);
    w.close();
    expect(events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    expect(events[0].object.metadata.uid).toBe(foo.metadata.uid);
    expect(events[0].object.kind).toBe("Foo");
    const rvs = events.map((e) => BigInt(e.object.metadata.resourceVersion));
    expect(rvs[1]).toBeGreaterThan(rvs[0]);
    expect(rvs[2]).toBeGreaterThan(rvs[1]);
  });

  it("starts with synthetic ADDED events without a resourceVersion (or with 0)", async () => {
    await c.createFoo("initial-a");
    await c.createFoo("initial-b");
    for (const q of ["", "&resourceVersion=0"]) {
      const w = await c.watch(
        `${FOOS}?watch=true&labelSelector=&fieldSelector=${encodeURIComponent("metadata.name!=nothing")}${q}`,
      );
      const events = await w.until((e) => e.some((x) => x.object.metadata.name === "initial-b"));
      w.close();
      expect(events.every((e) => e.type === "ADDED")).toBe(true);
      expect(events.map((e) => e.object.metadata.name)).toEqual(
        expect.arrayContaining(["initial-a", "initial-b"]),
      );
    }
  });

  it("resumes after a resourceVersion with exactly the later changes", async () => {
    const a = await c.createFoo("resume-a");
    await c.createFoo("resume-b");
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const events = await w.until((e) => e.length >= 1);
    w.close();
    expect(events[0]).toMatchObject({ type: "ADDED", object: { metadata: { name: "resume-b" } } });
    expect(events.some((e) => e.object.metadata.name === "resume-a")).toBe(false);
  });

  it("answers a resourceVersion older than the history window with ERROR 410 Expired, then closes", async () => {
    const first = await c.createFoo("old-rv");
    for (let i = 0; i < 25; i++)
      await c.patch(`${FOOS}/old-rv`, { metadata: { annotations: { i: String(i) } } });
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${first.metadata.resourceVersion}`);
    await w.ended;
    expect(w.status).toBe(200);
    expect(w.events).toHaveLength(1);
    expect(w.events[0].type).toBe("ERROR");
    expect(w.events[0].object).toMatchObject({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      reason: "Expired",
      code: 410,
    });
    expect(w.events[0].object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it("keeps the history window per resource type: other kinds' changes do not expire a Foo watch", async () => {
    const quiet = await c.createFoo("quiet");
    // Many more changes than the window holds, none of them a Foo's (Events: pods and
    // controllers churn them on a cluster).
    for (let i = 0; i < 25; i++) {
      const r = await c.post("/api/v1/namespaces/default/events", {
        metadata: { name: `churn-${i}` },
        involvedObject: { kind: "Pod", namespace: "default", name: "p" },
        reason: "Churn",
      });
      expect(r.status).toBe(201);
    }
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${quiet.metadata.resourceVersion}`);
    await c.createFoo("after-churn");
    const events = await w.until((e) => e.length >= 1);
    w.close();
    expect(events[0]).toMatchObject({
      type: "ADDED",
      object: { metadata: { name: "after-churn" } },
    });
  });

  it("sends BOOKMARKs only when allowed", async () => {
    const w = await c.watch(
      `${FOOS}?watch=true&allowWatchBookmarks=true&resourceVersion=${(await c.createFoo("bm")).metadata.resourceVersion}`,
    );
    const events = await w.until((e) => e.some((x) => x.type === "BOOKMARK"));
    w.close();
    const bm = events.find((e) => e.type === "BOOKMARK") as { object: KObj };
    expect(bm.object.kind).toBe("Foo");
    expect(bm.object.apiVersion).toBe("samplecontroller.k8s.io/v1alpha1");
    expect(Object.keys(bm.object.metadata)).toEqual(["resourceVersion"]);
    const plain = await c.watch(
      `${FOOS}?watch=true&timeoutSeconds=1&resourceVersion=${bm.object.metadata.resourceVersion}`,
    );
    await plain.ended;
    expect(plain.events.some((e) => e.type === "BOOKMARK")).toBe(false);
  });

  it("serves client-go's watch-list: initial events, then the initial-events-end bookmark", async () => {
    await c.createFoo("wl-a");
    const w = await c.watch(
      `${FOOS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const events = await w.until((e) => e.some((x) => x.type === "BOOKMARK"));
    w.close();
    const end = events.findIndex((e) => e.type === "BOOKMARK");
    expect(events[end].object.metadata.annotations).toEqual({
      "k8s.io/initial-events-end": "true",
    });
    expect(events.slice(0, end).every((e) => e.type === "ADDED")).toBe(true);
    expect(events.slice(0, end).map((e) => e.object.metadata.name)).toContain("wl-a");
  });

  it("ends the stream after timeoutSeconds", async () => {
    const w = await c.watch(`${FOOS}?watch=true&timeoutSeconds=1`);
    await w.ended;
    await eventually(() => server.activeWatches() === 0);
  });

  it("unregisters a watcher when the client disconnects", async () => {
    const before = server.activeWatches();
    const streams = await Promise.all(
      Array.from({ length: 5 }, () => c.watch(`${FOOS}?watch=true&resourceVersion=0`)),
    );
    await eventually(() => server.activeWatches() === before + 5);
    for (const s of streams) s.close();
    await eventually(() => server.activeWatches() === before);
  });

  it("turns selector transitions into ADDED and DELETED", async () => {
    const foo = await c.createFoo("sel-move");
    const w = await c.watch(
      `${FOOS}?watch=true&labelSelector=stage%3Dlive&resourceVersion=${foo.metadata.resourceVersion}`,
    );
    await c.patch(`${FOOS}/sel-move`, { metadata: { labels: { stage: "live" } } });
    await c.patch(`${FOOS}/sel-move`, { metadata: { labels: { stage: "gone" } } });
    const events = await w.until((e) => e.length >= 2);
    w.close();
    expect(events.map((e) => e.type)).toEqual(["ADDED", "DELETED"]);
  });

  it("streams Table rows when kubectl asks for them", async () => {
    const start = await c.createFoo("tbl");
    const w = await c.watch(
      `${FOOS}?watch=true&resourceVersion=${start.metadata.resourceVersion}`,
      TABLE,
    );
    await c.patch(`${FOOS}/tbl`, { spec: { replicas: 2 } });
    const [e] = await w.until((ev) => ev.length >= 1);
    w.close();
    const table = e.object as unknown as {
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: KObj }[];
      metadata: { resourceVersion: string };
    };
    expect(table.kind).toBe("Table");
    expect(table.columnDefinitions.map((col) => col.name)).toEqual(["Name", "Age"]);
    expect(table.rows[0].cells[0]).toBe("tbl");
    expect(table.rows[0].cells[1]).toMatch(/^\d+s$/);
    expect(table.rows[0].object.kind).toBe("PartialObjectMetadata");
  });
});
