/**
 * Many clients writing and watching at once: every watcher sees every successful write exactly
 * once, in strictly increasing resourceVersion order — including watchers that join mid-run from
 * a resourceVersion (history replay and live delivery must not overlap or leave a gap).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient, type KObj, type WatchStream } from "./testing/raw-client.ts";

const WRITERS = 8;
const ROUNDS = 12;

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer({ historyWindow: 5000 });
});
afterAll(() => server.stop());

describe("concurrency", () => {
  it("loses no event and keeps resourceVersions in order for concurrent writers and watchers", async () => {
    const c = new RawClient(server.url);
    const startRv = (await c.get<{ metadata: { resourceVersion: string } }>(FOOS)).body.metadata
      .resourceVersion;
    const early: WatchStream[] = await Promise.all(
      Array.from({ length: 4 }, () => c.watch(`${FOOS}?watch=true&resourceVersion=${startRv}`)),
    );
    const written: bigint[] = [];
    const late: Promise<{ from: bigint; stream: WatchStream }>[] = [];
    let conflicts = 0;

    const record = (r: { status: number; body: KObj }) => {
      if (r.status >= 200 && r.status < 300) written.push(BigInt(r.body.metadata.resourceVersion));
      else if (r.status === 409) conflicts++;
      else throw new Error(`unexpected ${r.status}: ${JSON.stringify(r.body)}`);
    };

    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const client = new RawClient(server.url);
        const name = `conc-${w}`;
        record({ status: 201, body: await client.createFoo(name) });
        for (let i = 0; i < ROUNDS; i++) {
          record(
            await client.patch<KObj>(`${FOOS}/${name}`, {
              metadata: { annotations: { round: `${w}-${i}` } },
            }),
          );
          // Everyone also fights over one shared object with conditional status writes.
          const shared = await client.get<KObj>(`${FOOS}/conc-0`);
          if (shared.status === 200) {
            record(
              await client.put<KObj>(`${FOOS}/conc-0/status`, {
                ...shared.body,
                status: { availableReplicas: w * 100 + i },
              }),
            );
          }
          if (w === 0 && i === ROUNDS / 2) {
            const from = written[written.length - 1];
            late.push(
              client
                .watch(`${FOOS}?watch=true&resourceVersion=${from}`)
                .then((stream) => ({ from, stream })),
            );
          }
        }
      }),
    );
    await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        c.delete(`${FOOS}/conc-${w}`).then((r) => {
          expect(r.status).toBe(200);
        }),
      ),
    );
    const deletes = WRITERS;
    const all = [...written].sort((a, b) => (a < b ? -1 : 1));
    expect(new Set(all).size).toBe(all.length);

    for (const stream of early) {
      const events = await stream.until((e) => e.length >= all.length + deletes);
      stream.close();
      const rvs = events.map((e) => BigInt(e.object.metadata.resourceVersion));
      for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1]);
      const nonDeletes = events
        .filter((e) => e.type !== "DELETED")
        .map((e) => BigInt(e.object.metadata.resourceVersion));
      expect(nonDeletes).toEqual(all);
      expect(events.filter((e) => e.type === "DELETED")).toHaveLength(deletes);
    }
    for (const { from, stream } of await Promise.all(late)) {
      const expected = all.filter((rv) => rv > from);
      const events = await stream.until((e) => e.length >= expected.length + deletes);
      stream.close();
      expect(
        events
          .filter((e) => e.type !== "DELETED")
          .map((e) => BigInt(e.object.metadata.resourceVersion)),
      ).toEqual(expected);
    }
    expect(conflicts + written.length).toBeGreaterThan(WRITERS * ROUNDS);
  });
});
