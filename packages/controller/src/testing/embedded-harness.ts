/**
 * Test harness (tests only): the embedded API server from packages/apiserver, reached over real
 * HTTP through a kubeconfig, plus a FooController whose probe numbers events like a stream owner
 * would. Timings are shortened (pods ready after 30 ms) so whole scenarios take milliseconds.
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { startApiServer, type ApiServer, type ApiServerOptions } from "@loopscope/apiserver";
import { Analyzer, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";
import { FooController, type FooControllerOptions } from "../foo-controller.ts";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION, type Foo } from "../types.ts";

export const FOO = { group: FOO_GROUP, version: FOO_VERSION, plural: FOO_PLURAL };

export interface Harness {
  api: ApiServer;
  kc: KubeConfig;
  co: CustomObjectsApi;
  apps: AppsV1Api;
  core: CoreV1Api;
  controller: FooController;
  events: TraceEvent[];
  klog: string[];
  analyze(): Analyzer;
  createFoo(name: string, replicas?: number, deploymentName?: string): Promise<Foo>;
  getFoo(name: string): Promise<Foo | undefined>;
  waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  /** Resolves once every named Foo has status.availableReplicas == spec.replicas and is quiescent. */
  converged(names: string[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(
  opts: {
    apiserver?: ApiServerOptions;
    controller?: Partial<FooControllerOptions>;
    before?: (h: Pick<Harness, "co" | "apps">) => Promise<void>;
  } = {},
): Promise<Harness> {
  const api = await startApiServer({
    deploymentReadyDelayMs: 30,
    deploymentStepDelayMs: 5,
    garbageCollectionDelayMs: 5,
    ...opts.apiserver,
  });
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const co = kc.makeApiClient(CustomObjectsApi);
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  await opts.before?.({ co, apps });
  const events: TraceEvent[] = [];
  const klog: string[] = [];
  const probe = (e: UnsequencedEvent): number => {
    const seq = events.length + 1;
    events.push({ ...e, seq } as TraceEvent);
    return seq;
  };
  const controller = new FooController({
    kubeConfig: kc,
    probe,
    resyncMs: 0,
    informerBackoffMs: { initial: 20, max: 200 },
    klog: (l) => klog.push(l),
    verbosity: 4,
    ...opts.controller,
  });
  await controller.run();

  const getFoo = async (name: string): Promise<Foo | undefined> => {
    try {
      return (await co.getNamespacedCustomObject({ ...FOO, namespace: "default", name })) as Foo;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  };
  const waitFor = async (
    what: string,
    check: () => boolean | Promise<boolean>,
    timeoutMs = 20_000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const analyze = () => {
    const a = new Analyzer();
    a.pushAll(events);
    return a;
  };
  return {
    api,
    kc,
    co,
    apps,
    core,
    controller,
    events,
    klog,
    analyze,
    getFoo,
    waitFor,
    async createFoo(name, replicas = 1, deploymentName = name) {
      return (await co.createNamespacedCustomObject({
        ...FOO,
        namespace: "default",
        body: {
          apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
          kind: "Foo",
          metadata: { name },
          spec: { deploymentName, replicas },
        },
      })) as Foo;
    },
    async converged(names, timeoutMs) {
      await waitFor(
        `${names.join(", ")} to converge`,
        async () => {
          for (const n of names) {
            const f = await getFoo(n);
            if (!f || f.status?.availableReplicas !== f.spec.replicas) return false;
          }
          // Quiescent: the last pass of each key synced with no changing write, nothing pending.
          const a = analyze();
          return (
            names.every((n) => a.summary(`default/${n}`)?.quiescent === true) &&
            controller.queue.len() === 0
          );
        },
        timeoutMs,
      );
    },
    async stop() {
      await controller.stop();
      await api.stop();
    },
  };
}
