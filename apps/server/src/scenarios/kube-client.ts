/**
 * What a scenario does to the cluster, over HTTP like a user with kubectl would: apply and delete
 * Foos, read them back, touch Deployments. Thin over client-node; every method is one request
 * (or one bounded poll, for the waits).
 */
import {
  AppsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Deployment,
} from "@kubernetes/client-node";
import { madeByLoopscope } from "./made-by-loopscope.ts";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION, type Foo } from "@loopscope/controller";

const FOO = { group: FOO_GROUP, version: FOO_VERSION, plural: FOO_PLURAL };

export function isNotFound(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 404;
}

/** An object a scenario made on the cluster. */
export interface MadeObject {
  kind: "foo" | "deployment";
  namespace: string;
  name: string;
}

export class KubeClient {
  readonly co: CustomObjectsApi;
  readonly apps: AppsV1Api;
  /** Objects this client created and has not deleted since, by "kind/namespace/name". */
  private readonly made = new Map<string, MadeObject>();
  /** The keys ("namespace/name") of the Foos this client applied, in the order first applied. */
  readonly appliedFoos = new Set<string>();

  /** Once it is aborted, every request and wait throws (see stopOn). */
  private stop: AbortSignal | undefined;

  constructor(readonly kubeConfig: KubeConfig) {
    this.co = kubeConfig.makeApiClient(CustomObjectsApi);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
  }

  /**
   * Makes every request and wait after `signal` aborts throw. A scenario stopped (from the bar,
   * by Ctrl-C, by its timeout) is answered at once, but its code runs on to its next await: without
   * this, a slow-api stopped while it cleaned up went on to apply its Foo and slow the API server
   * down, after the bar said it had stopped.
   */
  stopOn(signal: AbortSignal): void {
    this.stop = signal;
  }

  async getFoo(namespace: string, name: string): Promise<Foo | undefined> {
    this.stop?.throwIfAborted();
    try {
      return (await this.co.getNamespacedCustomObject({ ...FOO, namespace, name })) as Foo;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** kubectl apply, reduced: create when absent, else merge-patch the spec. */
  async applyFoo(foo: Foo): Promise<Foo> {
    this.stop?.throwIfAborted();
    const namespace = foo.metadata.namespace ?? "default";
    const name = foo.metadata.name ?? "";
    this.appliedFoos.add(`${namespace}/${name}`);
    const existing = await this.getFoo(namespace, name);
    if (!existing) {
      const created = (await this.co.createNamespacedCustomObject({
        ...FOO,
        namespace,
        body: {
          apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
          kind: "Foo",
          ...foo,
          metadata: madeByLoopscope({ ...foo.metadata, namespace }),
        },
      })) as Foo;
      this.remember({ kind: "foo", namespace, name });
      return created;
    }
    return (await this.co.patchNamespacedCustomObject(
      { ...FOO, namespace, name, body: { spec: foo.spec } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    )) as Foo;
  }

  /** Deletes the Foo; true when it existed. */
  async deleteFoo(namespace: string, name: string): Promise<boolean> {
    this.stop?.throwIfAborted();
    this.made.delete(`foo/${namespace}/${name}`);
    try {
      await this.co.deleteNamespacedCustomObject({ ...FOO, namespace, name });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async getDeployment(namespace: string, name: string): Promise<V1Deployment | undefined> {
    this.stop?.throwIfAborted();
    try {
      return await this.apps.readNamespacedDeployment({ namespace, name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async createDeployment(d: V1Deployment): Promise<V1Deployment> {
    this.stop?.throwIfAborted();
    const namespace = d.metadata?.namespace ?? "default";
    const body = { ...d, metadata: madeByLoopscope(d.metadata ?? {}) };
    const created = await this.apps.createNamespacedDeployment({ namespace, body });
    this.remember({ kind: "deployment", namespace, name: created.metadata?.name ?? "" });
    return created;
  }

  async deleteDeployment(namespace: string, name: string): Promise<boolean> {
    this.stop?.throwIfAborted();
    this.made.delete(`deployment/${namespace}/${name}`);
    try {
      await this.apps.deleteNamespacedDeployment({ namespace, name });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /**
   * What the scenario left on the cluster: the Foos and Deployments it created and did not
   * delete (the Deployments the controller made for its Foos go with them: they are owned).
   */
  left(): MadeObject[] {
    return [...this.made.values()];
  }

  private remember(o: MadeObject): void {
    this.made.set(`${o.kind}/${o.namespace}/${o.name}`, o);
  }

  /** Polls until `check` returns true (every `everyMs`), or throws after `timeoutMs`. */
  async waitFor(
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = 10_000,
    everyMs = 50,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.stop?.throwIfAborted();
      if (await check()) return;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
