/**
 * The dashboard's actions and scenarios while the cluster no longer serves the Foo API (its CRD
 * deleted): in process, `up`'s own wiring (startLive) on the embedded API server, the CRD deleted
 * over its HTTP API, and the dashboard's action API over HTTP.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { FOO_CRD } from "@loopscope/apiserver";
import { FOO_API_GONE } from "@loopscope/protocol";
import { startLive, type Live } from "../up/start-live.ts";
import { postAction } from "../testing/post-action.ts";
import { quietLiveOptions } from "../testing/quiet-live.ts";
import { holdFooCrdTerminating } from "../testing/terminating-crd.ts";

let dir: string;
let live: Live | undefined;

/** `up`'s wiring on the embedded cluster, with one worker and no resync. */
async function startUp(deploymentReadyDelayMs?: number): Promise<Live> {
  live = await startLive(
    quietLiveOptions(dir, { kind: "embedded", apiserverOpts: { deploymentReadyDelayMs } }),
  );
  return live;
}

/** Deletes the Foo CRD over the embedded API server's HTTP API. */
async function deleteCrd(): Promise<void> {
  const crds = `${live!.session.apiserver!.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  expect((await fetch(`${crds}/${FOO_CRD.metadata.name}`, { method: "DELETE" })).status).toBe(200);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-foo-api-gone-"));
});
afterEach(async () => {
  await live?.stop();
  live = undefined;
  await rm(dir, { recursive: true, force: true });
});

const act = (body: object) => postAction(live!.server, body);

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: plain, namespace: default}
spec:
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
    spec: {containers: [{name: c, image: nginx}]}
`;
const FOO = `apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata: {name: example-foo, namespace: default}
spec: {deploymentName: example-foo, replicas: 1}
`;

it(
  "an action or scenario that needs the Foo API is refused with the reason while its CRD is deleted; one that does not goes on",
  { timeout: 45_000 },
  async () => {
    const { session } = await startUp();
    await deleteCrd();
    await vi.waitFor(() => expect(live!.fooApi.state().served).toBe(false), {
      timeout: 20_000,
      interval: 50,
    });

    const refused = { status: 503, ok: false, message: FOO_API_GONE };
    expect(await act({ action: "createFoo", name: "example-foo" })).toEqual(refused);
    expect(await act({ action: "scaleFoo", name: "example-foo", replicas: 3 })).toEqual(refused);
    expect(await act({ action: "deleteFoo", name: "example-foo" })).toEqual(refused);
    expect(await act({ action: "applyManifest", yaml: `${DEPLOYMENT}---\n${FOO}` })).toEqual(
      refused,
    );
    expect(await act({ action: "runScenario", scenario: "create-foo" })).toEqual({
      ...refused,
      message: `scenario create-foo: ${FOO_API_GONE}`,
    });
    // Refused before anything was applied: the manifest's Deployment is not there.
    const deployments = `${session.apiserver!.url}/apis/apps/v1/namespaces/default/deployments`;
    expect((await fetch(`${deployments}/plain`)).status).toBe(404);
    // A Deployment alone needs no Foo API.
    expect(await act({ action: "applyManifest", yaml: DEPLOYMENT })).toMatchObject({
      status: 200,
      message: "deployment default/plain created",
    });
  },
);

it(
  "a scenario whose Foo CRD is deleted mid-run ends at once, saying so",
  { timeout: 45_000 },
  async () => {
    // Pods that take long to be ready: the scenario is still waiting when the CRD goes, and would
    // wait out its 60 s timeout.
    let wrote = false;
    (await startUp(60_000)).hub.subscribe((e) => {
      if (e.stage === "write") wrote = true;
    });
    const ran = act({ action: "runScenario", scenario: "create-foo" });
    await vi.waitFor(() => expect(wrote).toBe(true), { timeout: 20_000, interval: 20 });
    await deleteCrd();
    expect(await ran).toEqual({
      status: 502,
      ok: false,
      message:
        "scenario create-foo: the Foo API (foos.samplecontroller.k8s.io) is gone from the cluster — was the CRD deleted? The scenario cannot go on without it",
    });
  },
);

it(
  "an action or a scenario whose create is refused for the Foo CRD terminating ends with the Foo-API line, not the create's 405",
  { timeout: 45_000 },
  async () => {
    // Held Terminating by a Foo's own finalizer: the Foo informer lists and watches on, and never
    // tells the Foo API gone; the scenario's create is what meets it.
    const { session } = await startUp();
    await holdFooCrdTerminating(session.apiserver!.url);
    // An action meets it the same way, and says so as it does once the monitor has seen the CRD go.
    expect(await act({ action: "createFoo", name: "example-foo" })).toEqual({
      status: 503,
      ok: false,
      message: FOO_API_GONE,
    });
    expect(await act({ action: "runScenario", scenario: "create-foo" })).toEqual({
      status: 502,
      ok: false,
      message:
        "scenario create-foo: the Foo API (foos.samplecontroller.k8s.io) is gone from the cluster — was the CRD deleted? The scenario cannot go on without it",
    });
  },
);
