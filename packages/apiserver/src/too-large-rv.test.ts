/**
 * Reads from a resourceVersion the server has yet to reach, as kube-apiserver's watch cache
 * answers them, over real HTTP: a list or get "not older than" it waits (here the short
 * `tooLargeResourceVersionWaitMs`, 3 s on a cluster) and, if the store gets there meanwhile, is
 * served; otherwise it is a 504 Timeout "Too large resource version: N, current: M" with the
 * ResourceVersionTooLarge cause and Retry-After 1. A watch with initial events from it ends with
 * that Status as its one ERROR event; a plain watch from it is no error and sees only the changes
 * after it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient, type KObj } from "./testing/raw-client.ts";

const WAIT_MS = 300;

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  // No heartbeat during the test: the store's resourceVersion moves only with the test's writes.
  server = await startApiServer({
    tooLargeResourceVersionWaitMs: WAIT_MS,
    nodeHeartbeatMs: 3_600_000,
  });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const currentRv = async () =>
  Number(
    (await c.get<{ metadata: { resourceVersion: string } }>(FOOS)).body.metadata.resourceVersion,
  );

const tooLarge = (requested: number, current: number) => ({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
  reason: "Timeout",
  details: {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  },
  code: 504,
});

describe("a list from a resourceVersion the server has not reached", () => {
  it.each(["", "&resourceVersionMatch=NotOlderThan"])(
    "waits, then answers 504 Too large resource version (%s)",
    async (match) => {
      const current = await currentRv();
      const requested = current + 1000;
      const started = Date.now();
      const r = await c.get(`${FOOS}?resourceVersion=${requested}${match}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 20);
      expect(r.status).toBe(504);
      expect(r.body).toEqual(tooLarge(requested, current));
      expect(r.headers.get("retry-after")).toBe("1");
    },
  );

  it("is served once a write brings the store there during the wait", async () => {
    const current = await currentRv();
    const pending = c.get<{ metadata: { resourceVersion: string }; items: KObj[] }>(
      `${FOOS}?resourceVersion=${current + 1}`,
    );
    await new Promise((r) => setTimeout(r, WAIT_MS / 3));
    await c.createFoo("catches-up");
    const r = await pending;
    expect(r.status).toBe(200);
    expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(current + 1);
    expect(r.body.items.map((i) => i.metadata.name)).toContain("catches-up");
  });

  it("is served at once from the current version, 0, or none", async () => {
    const current = await currentRv();
    for (const rv of [String(current), "0", ""]) {
      const started = Date.now();
      expect((await c.get(`${FOOS}?resourceVersion=${rv}`)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(WAIT_MS);
    }
  });
});

describe("a get from a resourceVersion the server has not reached", () => {
  it("answers the same 504", async () => {
    await c.createFoo("get-ahead");
    const current = await currentRv();
    const r = await c.get(`${FOOS}/get-ahead?resourceVersion=${current + 5}`);
    expect(r.status).toBe(504);
    expect(r.body).toEqual(tooLarge(current + 5, current));
  });
});

describe("a watch from a resourceVersion the server has not reached", () => {
  it("with initial events: one ERROR event carrying the 504 Status, then the end", async () => {
    const current = await currentRv();
    const requested = current + 1000;
    const w = await c.watch(
      `${FOOS}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=${requested}`,
    );
    await w.ended;
    expect(w.status).toBe(200);
    expect(w.events).toEqual([{ type: "ERROR", object: tooLarge(requested, current) }]);
  });

  it("without: no error, only the changes after it", async () => {
    const from = (await currentRv()) + 2;
    const w = await c.watch(`${FOOS}?watch=true&resourceVersion=${from}`);
    expect(w.status).toBe(200);
    const made: KObj[] = [];
    for (const name of ["ahead-1", "ahead-2", "ahead-3"]) made.push(await c.createFoo(name));
    const after = made.filter((f) => Number(f.metadata.resourceVersion) > from);
    expect(after.length).toBeLessThan(made.length);
    expect(after.length).toBeGreaterThan(0);
    const events = await w.until((e) => e.length >= after.length);
    // One more write: had an earlier change slipped through, it would show before this one.
    await c.createFoo("ahead-4");
    await w.until((e) => e.some((x) => x.object.metadata.name === "ahead-4"));
    w.close();
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ...after.map((f) => ["ADDED", f.metadata.name]),
      ["ADDED", "ahead-4"],
    ]);
  });
});
