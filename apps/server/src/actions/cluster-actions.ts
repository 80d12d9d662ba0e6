/**
 * The actions a dashboard user can take, done through the Kubernetes API exactly as kubectl
 * would (so the controller sees them as external changes), plus the switches the session owns.
 *
 * Errors become HttpError with the API's own Status message (never its headers or our
 * credentials): 404 NotFound, 409 Conflict/AlreadyExists, 400 Invalid, else 502.
 */
import {
  ApiException,
  AppsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from "@kubernetes/client-node";
import type { ActionRequest, LessonSwitches } from "@loopscope/protocol";
import { HttpError } from "../http/respond.ts";
import { parseManifest, type ManifestObject } from "./manifest.ts";

const FOO = { group: "samplecontroller.k8s.io", version: "v1alpha1", plural: "foos" };
const MERGE = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

export interface ActionTargets {
  kubeConfig: KubeConfig;
  setLesson?(name: keyof LessonSwitches, on: boolean): void;
  setFault?(fault: Extract<ActionRequest, { action: "setFault" }>["fault"]): string | void;
  runScenario?(name: string): Promise<string>;
}

export function clusterActions(t: ActionTargets): (r: ActionRequest) => Promise<string> {
  const co = t.kubeConfig.makeApiClient(CustomObjectsApi);
  const apps = t.kubeConfig.makeApiClient(AppsV1Api);

  async function apply(o: ManifestObject): Promise<string> {
    const { namespace, name } = o;
    const what = `${o.kind.toLowerCase()} ${namespace}/${name}`;
    if (o.kind === "Foo") {
      try {
        await co.createNamespacedCustomObject({ ...FOO, namespace, body: o.body });
        return `${what} created`;
      } catch (err) {
        if (!(err instanceof ApiException) || err.code !== 409) throw err;
      }
      await co.patchNamespacedCustomObject({ ...FOO, namespace, name, body: o.body }, MERGE);
      return `${what} configured`;
    }
    try {
      await apps.createNamespacedDeployment({ namespace, body: o.body });
      return `${what} created`;
    } catch (err) {
      if (!(err instanceof ApiException) || err.code !== 409) throw err;
    }
    await apps.patchNamespacedDeployment({ namespace, name, body: o.body }, MERGE);
    return `${what} configured`;
  }

  async function act(r: ActionRequest): Promise<string> {
    switch (r.action) {
      case "createFoo": {
        const namespace = r.namespace ?? "default";
        const body = {
          apiVersion: `${FOO.group}/${FOO.version}`,
          kind: "Foo",
          metadata: { name: r.name, namespace },
          spec: { deploymentName: r.name, replicas: r.replicas ?? 1 },
        };
        await co.createNamespacedCustomObject({ ...FOO, namespace, body });
        return `foo ${namespace}/${r.name} created`;
      }
      case "deleteFoo": {
        const namespace = r.namespace ?? "default";
        await co.deleteNamespacedCustomObject({ ...FOO, namespace, name: r.name });
        return `foo ${namespace}/${r.name} deleted`;
      }
      case "scaleFoo": {
        const namespace = r.namespace ?? "default";
        const body = { spec: { replicas: r.replicas } };
        await co.patchNamespacedCustomObject({ ...FOO, namespace, name: r.name, body }, MERGE);
        return `foo ${namespace}/${r.name} scaled to ${r.replicas}`;
      }
      case "applyManifest": {
        const results: string[] = [];
        for (const o of parseManifest(r.yaml)) results.push(await apply(o));
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
    }
  }

  return async (r) => {
    try {
      return await act(r);
    } catch (err) {
      throw asHttpError(err);
    }
  };
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
