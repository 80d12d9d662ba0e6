/**
 * The hot-loop scenario on a cluster whose Foo CRD prunes the timestamp the bug writes
 * (sample-controller's own CRD: its status declares availableReplicas alone): it stops at once,
 * saying why and what to apply, instead of waiting out its timeout for a loop that cannot come.
 * The embedded API server over HTTP, the CRD replaced as `kubectl delete/apply` would.
 */
import { afterEach, expect, it, vi } from "vitest";
import { FOO_CRD } from "@loopscope/apiserver";
import { EventLog } from "./event-log.ts";
import { FAST_CLUSTER } from "./headless.ts";
import { scenarios } from "./index.ts";
import { KubeClient } from "./kube-client.ts";
import { prunedStatusField } from "./pruned-status-field.ts";
import { runScenario } from "./run-scenario.ts";
import { startSession, type Session } from "../session/session.ts";

let session: Session | undefined;
afterEach(async () => {
  await session?.stop();
  session = undefined;
});

/** FOO_CRD with its status schema replaced. */
function crdWithStatus(status: object): object {
  const crd = structuredClone(FOO_CRD);
  const root = crd.spec.versions[0]!.schema.openAPIV3Schema as { properties: { status: object } };
  root.properties.status = status;
  return crd;
}

async function replaceCrd(apiUrl: string, crd: object): Promise<void> {
  const crds = `${apiUrl}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  const one = `${crds}/${FOO_CRD.metadata.name}`;
  expect((await fetch(one, { method: "DELETE" })).status).toBe(200);
  await vi.waitFor(async () => expect((await fetch(one)).status).toBe(404), { interval: 20 });
  const made = await fetch(crds, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(crd),
  });
  expect(made.status).toBe(201);
}

it("stops at once, naming the pruned field and the CRD to apply", { timeout: 60_000 }, async () => {
  const events = new EventLog();
  session = await startSession({
    cluster: { kind: "embedded", apiserverOpts: FAST_CLUSTER },
    resyncMs: 0,
    onEvent: events.push,
  });
  const kube = new KubeClient(session.kubeConfig);
  expect(await prunedStatusField(kube, "lastSyncedAt")).toBe(false);

  const upstream = crdWithStatus({
    type: "object",
    properties: { availableReplicas: { type: "integer" } },
  });
  await replaceCrd(session.apiserver!.url, upstream);
  expect(await prunedStatusField(kube, "lastSyncedAt")).toBe(true);
  await expect(
    runScenario(scenarios["hot-loop"]!, { session, events, timeoutMs: 30_000 }),
  ).rejects.toThrow(
    "the cluster's Foo CRD declares no status.lastSyncedAt, so the server prunes the timestamp the bug writes",
  );
  // The lesson is switched back, as after any run.
  expect(session.controller.getLessons().hotLoopBug).toBe(false);

  // A status that keeps unknown fields keeps it too.
  await replaceCrd(
    session.apiserver!.url,
    crdWithStatus({ type: "object", "x-kubernetes-preserve-unknown-fields": true }),
  );
  expect(await prunedStatusField(kube, "lastSyncedAt")).toBe(false);
});
