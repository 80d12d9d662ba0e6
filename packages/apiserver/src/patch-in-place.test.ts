/**
 * A patch changes an object where it is: one whose result names another object — another name,
 * another namespace — is a 400, as the patch handler's checkName answers it, and changes nothing.
 * (An update with another namespace is refused earlier, by the update's own namespace check.)
 * Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient, type KObj, type StatusBody } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ deploymentReadyDelayMs: 40, deploymentStepDelayMs: 5 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

describe("a patch whose result names another object", () => {
  const cases: [string, string, unknown, string][] = [
    [
      "another namespace (merge patch)",
      "application/merge-patch+json",
      { metadata: { namespace: "other" } },
      "the namespace of the object (other) does not match the namespace on the request (default)",
    ],
    [
      "another namespace (JSON patch)",
      "application/json-patch+json",
      [{ op: "replace", path: "/metadata/namespace", value: "other" }],
      "the namespace of the object (other) does not match the namespace on the request (default)",
    ],
    [
      "another name (merge patch)",
      "application/merge-patch+json",
      { metadata: { name: "elsewhere" } },
      "the name of the object (elsewhere) does not match the name on the URL (NAME)",
    ],
  ];
  it.each(cases)("is a 400: %s", async (what, type, patch, message) => {
    const made = await c.createFoo(`moved-${cases.findIndex((x) => x[0] === what)}`);
    const name = made.metadata.name;
    const r = await c.patch<StatusBody>(`${FOOS}/${name}`, patch, type);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 400, reason: "BadRequest" });
    expect(r.body.message).toBe(message.replace("NAME", name));
    const after = (await c.get<KObj>(`${FOOS}/${name}`)).body;
    expect(after.metadata.resourceVersion).toBe(made.metadata.resourceVersion);
  });

  it("leaves a patch that drops the namespace to the request's, as a cluster fills it", async () => {
    const made = await c.createFoo("unnamespaced");
    const r = await c.patch<KObj>(`${FOOS}/unnamespaced`, { metadata: { namespace: null } });
    expect(r.status).toBe(200);
    expect(r.body.metadata.namespace).toBe("default");
    expect(r.body.metadata.uid).toBe(made.metadata.uid);
  });
});
