/**
 * The competing writer whose update is refused, over real HTTP: the Foo's CRD tightened (as with
 * `kubectl apply`) so that the Foo it bumps no longer validates. Its update is a 422 like anyone
 * else's; the writer goes on, says why in `state()`, and writes again once the CRD allows it.
 * (It threw out of its timer: an uncaught error that ended `up`.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { FOO_CRD, startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.samplecontroller.k8s.io";
const ANNOTATION = "loopscope.dev/competing-writer";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

/** The CRD as served, its Foo spec's replicas bounded by `maximum`. */
async function crdWithMaximum(maximum: number | undefined): Promise<KObj> {
  const crd = structuredClone((await c.get<KObj>(CRD)).body) as KObj & typeof FOO_CRD;
  const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties!.spec! as {
    properties: { replicas: Record<string, unknown> };
  };
  if (maximum === undefined) delete spec.properties.replicas.maximum;
  else spec.properties.replicas.maximum = maximum;
  return crd;
}

const writes = async (name: string) =>
  Number((await c.get<KObj>(`${FOOS}/${name}`)).body.metadata.annotations?.[ANNOTATION] ?? 0);

it("a refused update (the CRD tightened under the Foo) is kept in state(); the writer goes on", async () => {
  await c.createFoo("contested", 2);
  server.faults.competingWriter.start({
    kind: "Foo",
    namespace: "default",
    name: "contested",
    intervalMs: 5,
  });
  try {
    await eventually(async () => (await writes("contested")) > 0);
    expect((await c.put(CRD, await crdWithMaximum(1))).status).toBe(200);
    const refused = await eventually(() => server.faults.state().competingWriterRefused);
    expect(refused).toMatch(/^422 Invalid: .*replicas/);
    expect(server.faults.state().competingWriter).toBe(true);
    // The server still answers, and once the CRD allows the Foo again the writer writes again.
    const before = await writes("contested");
    expect((await c.put(CRD, await crdWithMaximum(undefined))).status).toBe(200);
    await eventually(async () => (await writes("contested")) > before);
    // The Foo deleted under it: nothing to write, nothing thrown.
    expect((await c.delete(`${FOOS}/contested`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.faults.state().competingWriter).toBe(true);
  } finally {
    server.faults.competingWriter.stop();
  }
});
