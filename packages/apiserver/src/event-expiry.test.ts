/** Events expire an hour after their last write on a cluster (`eventTtlMs` here, shortened). */
import { afterEach, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { RawClient, eventually } from "./testing/raw-client.ts";

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const EVENTS = "/api/v1/namespaces/default/events";
const event = (name: string) => ({
  metadata: { name },
  involvedObject: { kind: "Foo", namespace: "default", name: "example-foo" },
  reason: "Synced",
  message: "Foo synced successfully",
  type: "Normal",
  count: 1,
});

it("an Event goes its TTL after its last write; a write renews it", async () => {
  const ttl = 3000;
  server = await startApiServer({ eventTtlMs: ttl });
  const c = new RawClient(server.url);
  const names = async () =>
    (await c.get<{ items: { metadata: { name: string } }[] }>(EVENTS)).body.items.map(
      (e) => e.metadata.name,
    );
  expect((await c.post(EVENTS, event("first"))).status).toBe(201);
  expect((await c.post(EVENTS, event("renewed"))).status).toBe(201);
  await new Promise((r) => setTimeout(r, ttl / 2));
  expect((await c.patch(`${EVENTS}/renewed`, { count: 2 })).status).toBe(200);
  // `first` goes between 3 and 3.75 s (the sweep runs every ttl / 4); `renewed` not before 4.5 s.
  await eventually(async () => !(await names()).includes("first"), 50);
  expect(await names()).toEqual(["renewed"]);
  await eventually(async () => (await names()).length === 0, 50);
});
