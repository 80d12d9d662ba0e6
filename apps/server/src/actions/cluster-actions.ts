/**
 * The actions a dashboard user can take, done through the Kubernetes API exactly as kubectl
 * would (so the controller sees them as external changes), plus the switches the session owns.
 *
 * Errors become HttpError with the API's own Status message (never its headers or our
 * credentials): 404 NotFound, 409 Conflict/AlreadyExists, 400 Invalid, else 502. An action's
 * requests get ANSWER_WITHIN_MS in all (a network gone silent would hold the page's buttons for
 * ever), then 504; while a kubeconfig's cluster is known to be down none is tried: 503. So too,
 * with FOO_API_GONE, for one that needs the Foo API while the cluster does not serve it (its CRD
 * deleted): the cluster would answer a bare 404.
 */
import {
  ApiException,
  AppsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type ConfigurationOptions,
  type KubeConfig,
} from "@kubernetes/client-node";
import { withSignal } from "@loopscope/controller";
import {
  FOO_API_GONE,
  type ActionRequest,
  type ClusterReachability,
  type FooApiPresence,
  type LessonSwitches,
} from "@loopscope/protocol";
import { HttpError } from "../http/respond.ts";
import { ANSWER_WITHIN_MS } from "../session/cluster-check.ts";
import { notAnswering } from "../session/cluster-reachability.ts";
import { saysFooApiGone } from "../session/foo-api-presence.ts";
import { madeByLoopscope } from "../scenarios/made-by-loopscope.ts";
import { parseManifest, type ManifestObject } from "./manifest.ts";

const FOO = { group: "samplecontroller.k8s.io", version: "v1alpha1", plural: "foos" };

export interface ActionTargets {
  kubeConfig: KubeConfig;
  /** The API server as shown to the user, credentials stripped (see shown-server.ts). */
  server: string;
  /** A kubeconfig's cluster's probe (the embedded one lives and dies with this process). */
  reachability?: { state(): ClusterReachability };
  /** Whether the cluster serves the Foo API (foo-api-presence.ts). */
  fooApi?: { state(): FooApiPresence };
  setLesson?(name: keyof LessonSwitches, on: boolean): void;
  setFault?(fault: Extract<ActionRequest, { action: "setFault" }>["fault"]): string | void;
  runScenario?(name: string): Promise<string>;
  stopScenario?(): string;
}

export function clusterActions(t: ActionTargets): (r: ActionRequest) => Promise<string> {
  const co = t.kubeConfig.makeApiClient(CustomObjectsApi);
  const apps = t.kubeConfig.makeApiClient(AppsV1Api);

  async function apply(o: ManifestObject, asked: Asked): Promise<string> {
    const { plain, merge } = asked;
    const { namespace, name } = o;
    const what = `${o.kind.toLowerCase()} ${namespace}/${name}`;
    if (o.kind === "Foo") {
      try {
        await co.createNamespacedCustomObject({ ...FOO, namespace, body: o.body }, plain);
        return `${what} created`;
      } catch (err) {
        if (!(err instanceof ApiException) || err.code !== 409) throw err;
      }
      await co.patchNamespacedCustomObject({ ...FOO, namespace, name, body: o.body }, merge);
      return `${what} configured`;
    }
    try {
      await apps.createNamespacedDeployment({ namespace, body: o.body }, plain);
      return `${what} created`;
    } catch (err) {
      if (!(err instanceof ApiException) || err.code !== 409) throw err;
    }
    await apps.patchNamespacedDeployment({ namespace, name, body: o.body }, merge);
    return `${what} configured`;
  }

  async function act(r: ActionRequest, asked: Asked): Promise<string> {
    const { plain, merge } = asked;
    switch (r.action) {
      case "createFoo": {
        const namespace = r.namespace ?? "default";
        const body = {
          apiVersion: `${FOO.group}/${FOO.version}`,
          kind: "Foo",
          metadata: madeByLoopscope({ name: r.name, namespace }),
          spec: { deploymentName: r.name, replicas: r.replicas ?? 1 },
        };
        await co.createNamespacedCustomObject({ ...FOO, namespace, body }, plain);
        return `foo ${namespace}/${r.name} created`;
      }
      case "deleteFoo": {
        const namespace = r.namespace ?? "default";
        await co.deleteNamespacedCustomObject({ ...FOO, namespace, name: r.name }, plain);
        return `foo ${namespace}/${r.name} deleted`;
      }
      case "scaleFoo": {
        const namespace = r.namespace ?? "default";
        const body = { spec: { replicas: r.replicas } };
        await co.patchNamespacedCustomObject({ ...FOO, namespace, name: r.name, body }, merge);
        return `foo ${namespace}/${r.name} scaled to ${r.replicas}`;
      }
      case "applyManifest": {
        const results: string[] = [];
        for (const o of parseManifest(r.yaml)) results.push(await apply(o, asked));
        return results.join("\n");
      }
      case "setLesson":
        if (!t.setLesson) throw new HttpError(409, "no controller to switch lessons on");
        t.setLesson(r.lesson, r.enabled);
        return `${r.lesson} ${r.enabled ? "on" : "off"}`;
      case "setFault":
        if (!t.setFault) throw new HttpError(409, "faults need the embedded API server");
        return t.setFault(r.fault) ?? "fault settings applied";
      case "runScenario":
        if (!t.runScenario) throw new HttpError(409, "no scenarios available");
        return t.runScenario(r.scenario);
      case "stopScenario":
        if (!t.stopScenario) throw new HttpError(409, "no scenarios available");
        return t.stopScenario();
    }
  }

  return async (r) => {
    const toCluster = CLUSTER_ACTIONS.has(r.action);
    const deadline = AbortSignal.timeout(ANSWER_WITHIN_MS);
    try {
      if (toCluster) {
        const now = t.reachability?.state();
        if (now && !now.reachable) throw new HttpError(503, notAnswering(now));
        if (t.fooApi?.state().served === false && needsFooApi(r)) {
          throw new HttpError(503, FOO_API_GONE);
        }
      }
      const plain = withSignal(deadline);
      return await act(r, {
        plain,
        merge: setHeaderOptions("Content-Type", PatchStrategy.MergePatch, plain),
      });
    } catch (err) {
      if (toCluster && deadline.aborted && !(err instanceof HttpError)) {
        const s = Number((ANSWER_WITHIN_MS / 1000).toFixed(1));
        throw new HttpError(504, `the API server at ${t.server} did not answer within ${s} s`);
      }
      // The CRD deleted before the monitor has seen it go (or held Terminating, which the Foo
      // informer never reports): the cluster's refusal says the same as the monitor would.
      if (toCluster && needsFooApi(r) && saysFooApiGone(err))
        throw new HttpError(503, FOO_API_GONE);
      throw asHttpError(err);
    }
  };
}

/** The actions that are requests to the cluster (a scenario says for itself: scenario-runner). */
const CLUSTER_ACTIONS = new Set<ActionRequest["action"]>([
  "createFoo",
  "deleteFoo",
  "scaleFoo",
  "applyManifest",
]);

/** Whether a cluster action asks about Foos: each does but a manifest without one. */
function needsFooApi(r: ActionRequest): boolean {
  return r.action !== "applyManifest" || parseManifest(r.yaml).some((o) => o.kind === "Foo");
}

/** An action's request options: with its deadline, and the same for a merge patch. */
interface Asked {
  plain: ConfigurationOptions;
  merge: ConfigurationOptions;
}

export function asHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ApiException) {
    const code = Number(err.code);
    let message = `API server answered ${code}`;
    try {
      const status = JSON.parse(String(err.body)) as { message?: string };
      if (status.message) message = status.message;
    } catch {
      // a non-Status body: keep the code only
    }
    const status = code === 404 || code === 409 || code === 400 || code === 422 ? code : 502;
    return new HttpError(status === 422 ? 400 : status, message);
  }
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  return new HttpError(502, `cluster unreachable${cause ? ` (${cause})` : ""}`);
}
