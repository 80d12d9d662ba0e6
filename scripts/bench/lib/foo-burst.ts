/**
 * The workload the controller benches share: an embedded API server, N Foos created by 8
 * parallel clients (a burst of kubectl applies), and the wait for steady state — every Foo's
 * status shows its replica available and the queue, delayed adds included, is idle.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { startApiServer, type ApiServer } from "../../../packages/apiserver/src/index.ts";
import type { FooController } from "../../../packages/controller/src/index.ts";

// scripts/ is no workspace package: take client-node (1.4.0) from the controller's dependencies.
const clientNodePath = createRequire(
  new URL("../../../packages/controller/package.json", import.meta.url),
).resolve("@kubernetes/client-node");
const { CustomObjectsApi, KubeConfig } = (await import(
  pathToFileURL(clientNodePath).href
)) as typeof import("../../../packages/controller/node_modules/@kubernetes/client-node/dist/index.js");

type KubeConfigT = InstanceType<typeof KubeConfig>;

const FOO = { group: "samplecontroller.k8s.io", version: "v1alpha1", plural: "foos" };

/** An embedded API server with fast simulated rollouts, and a kubeconfig for it. */
export async function fastCluster(): Promise<{ api: ApiServer; kubeConfig: KubeConfigT }> {
  const api = await startApiServer({ deploymentReadyDelayMs: 10, deploymentStepDelayMs: 2 });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(api.kubeconfigYaml());
  return { api, kubeConfig };
}

/** Creates foo-0 … foo-(count-1) in "default" from 8 clients in parallel. */
export async function createFoos(kubeConfig: KubeConfigT, count: number): Promise<void> {
  const co = kubeConfig.makeApiClient(CustomObjectsApi);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        await co.createNamespacedCustomObject({
          ...FOO,
          namespace: "default",
          body: {
            apiVersion: "samplecontroller.k8s.io/v1alpha1",
            kind: "Foo",
            metadata: { name: `foo-${i}` },
            spec: { deploymentName: `foo-${i}`, replicas: 1 },
          },
        });
      }
    }),
  );
}

/** Resolves once `count` Foos are available and the controller's queue is idle. */
export async function untilSteady(controller: FooController, count: number): Promise<void> {
  for (;;) {
    const foos = controller.foos.list();
    const done = foos.length === count && foos.every((f) => f.status?.availableReplicas === 1);
    if (done && controller.queue.len() === 0 && controller.queue.waitingLen() === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}
