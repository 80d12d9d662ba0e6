/**
 * What a failed call records, against the embedded API server over HTTP: a Status body's reason
 * and message, and for a body that is none — a removed resource's `404 page not found` — the
 * reason and message client-go gives by the code.
 */
import { afterEach, expect, it } from "vitest";
import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { FOO_CRD, startApiServer, type ApiServer } from "@loopscope/apiserver";
import { callApi } from "./api-call.ts";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "./types.ts";

let api: ApiServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

it("reads a Status's reason, and a plain-text 404 as client-go does (NotFound)", async () => {
  api = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const co = kc.makeApiClient(CustomObjectsApi);
  const status = () =>
    callApi(() =>
      co.replaceNamespacedCustomObjectStatusWithHttpInfo({
        group: FOO_GROUP,
        version: FOO_VERSION,
        namespace: "default",
        plural: FOO_PLURAL,
        name: "example-foo",
        body: {
          apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
          kind: "Foo",
          metadata: { name: "example-foo" },
        },
      }),
    );
  // The Foo is not there: the server's Status says so.
  const missing = await status();
  expect(missing).toMatchObject({ ok: false, code: 404, reason: "NotFound" });
  expect(!missing.ok && missing.error.message).toContain('"example-foo" not found');

  // The CRD is gone: the server's last handler answers in plain text.
  const crd = `${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${FOO_CRD.metadata.name}`;
  expect((await fetch(crd, { method: "DELETE" })).status).toBe(200);
  const gone = `${api.url}/apis/${FOO_GROUP}/${FOO_VERSION}/namespaces/default/${FOO_PLURAL}/x`;
  const plain = async () =>
    (await fetch(gone)).headers.get("content-type")?.startsWith("text/plain");
  for (let i = 0; i < 200 && !(await plain()); i++) await new Promise((r) => setTimeout(r, 20));
  expect(await plain()).toBe(true);
  const removed = await status();
  expect(removed).toMatchObject({ ok: false, code: 404, reason: "NotFound" });
  expect(!removed.ok && removed.error.message).toBe(
    "the server could not find the requested resource",
  );
});
