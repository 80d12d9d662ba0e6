/**
 * saysFooApiGone on client-node's own failures, from the embedded API server over HTTP: the
 * Foo API going (its CRD terminating: a create's 405) or gone (a cluster's plain-text 404) says
 * so; a missing Foo or namespace, or a name taken, does not.
 */
import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "@loopscope/controller";
import { holdFooCrdTerminating } from "../testing/terminating-crd.ts";
import { saysFooApiGone } from "./foo-api-presence.ts";

const FOO = { group: FOO_GROUP, version: FOO_VERSION, plural: FOO_PLURAL };

let api: ApiServer;
let co: CustomObjectsApi;

beforeEach(async () => {
  api = await startApiServer({ garbageCollectionDelayMs: 1 });
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  co = kc.makeApiClient(CustomObjectsApi);
});
afterEach(() => api.stop());

/** What a request failed with. */
async function failure(request: Promise<unknown>): Promise<unknown> {
  return request.then(
    () => expect.fail("the request succeeded"),
    (err: unknown) => err,
  );
}

const create = (name: string, namespace = "default") =>
  co.createNamespacedCustomObject({
    ...FOO,
    namespace,
    body: {
      apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
      kind: "Foo",
      metadata: { name },
      spec: { deploymentName: name, replicas: 1 },
    },
  });

it("says nothing of a missing Foo or namespace, or a name taken", async () => {
  await create("taken");
  expect(saysFooApiGone(await failure(create("taken")))).toBe(false);
  const missing = co.getNamespacedCustomObject({ ...FOO, namespace: "default", name: "none" });
  expect(saysFooApiGone(await failure(missing))).toBe(false);
  expect(saysFooApiGone(await failure(create("x", "no-such-namespace")))).toBe(false);
});

it("says the Foo API is going while its CRD terminates, and gone once it is", async () => {
  const crd = await holdFooCrdTerminating(api.url);
  expect(saysFooApiGone(await failure(create("late")))).toBe(true);
  await crd.release();
  // The CRD goes after the held Foo: every Foo path then answers a plain-text 404.
  const list = () => co.listNamespacedCustomObject({ ...FOO, namespace: "default" });
  await expect
    .poll(() =>
      list().then(
        () => 200,
        (err: { code: number }) => err.code,
      ),
    )
    .toBe(404);
  expect(saysFooApiGone(await failure(list()))).toBe(true);
  expect(saysFooApiGone(await failure(create("later")))).toBe(true);
});
