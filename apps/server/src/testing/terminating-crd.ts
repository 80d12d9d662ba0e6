/**
 * The Foo CRD held Terminating on an embedded API server, over its HTTP API: a Foo with a
 * finalizer of its own is made, the CRD deleted, and the deletion waits on that Foo (as a
 * cluster's does) — the Foo API is still listed and watched, but a create is refused (405) until
 * `release()` removes the finalizer and the CRD goes.
 */
import { FOO_CRD } from "@loopscope/apiserver";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "@loopscope/controller";

export async function holdFooCrdTerminating(apiUrl: string): Promise<{ release(): Promise<void> }> {
  const foos = `${apiUrl}/apis/${FOO_GROUP}/${FOO_VERSION}/namespaces/default/${FOO_PLURAL}`;
  const held = `${foos}/held`;
  const send = async (url: string, method: string, body?: object, type = "application/json") => {
    const r = await fetch(url, {
      method,
      headers: { "content-type": type },
      body: body && JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { metadata?: { deletionTimestamp?: string } };
  };
  await send(foos, "POST", {
    apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
    kind: "Foo",
    metadata: { name: "held", finalizers: ["example.com/hold"] },
    spec: { deploymentName: "held", replicas: 1 },
  });
  const crds = `${apiUrl}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  await send(`${crds}/${FOO_CRD.metadata.name}`, "DELETE");
  // Terminating for good once the CRD's finalizer has come to the held Foo.
  while (!(await send(held, "GET")).metadata?.deletionTimestamp)
    await new Promise((r) => setTimeout(r, 20));
  return {
    release: async () => {
      await send(held, "PATCH", { metadata: { finalizers: null } }, "application/merge-patch+json");
    },
  };
}
