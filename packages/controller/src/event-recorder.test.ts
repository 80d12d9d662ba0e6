/**
 * The controller's Events against the embedded API server: aggregated into one Event's count, and
 * a cluster that refuses them is not asked again in a loop.
 */
import { afterEach, expect, it } from "vitest";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { AbandonableCalls } from "./abandonable-calls.ts";
import { EventRecorder, type InvolvedObject } from "./event-recorder.ts";

let api: ApiServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

const FOO: InvolvedObject = {
  apiVersion: "samplecontroller.k8s.io/v1alpha1",
  kind: "Foo",
  namespace: "default",
  name: "example-foo",
  uid: "u-1",
};

it("a refused update is not sent again at once: the next repeat carries the count", async () => {
  api = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const recorder = new EventRecorder(kc, new AbandonableCalls(), "test", undefined);
  const synced = () => recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  const counts = async () =>
    (await kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: "default" })).items.map(
      (e) => e.count,
    );

  synced();
  await recorder.flush();
  expect(await counts()).toEqual([1]);

  const refusals = 1_000_000;
  api.faults.failNext(refusals, 500, ["patch"]);
  synced();
  synced();
  await recorder.flush();
  await new Promise((r) => setTimeout(r, 300));
  // One update tried and refused, not one after another for as long as the cluster refuses.
  expect(refusals - api.faults.state().failNext).toBe(1);
  expect(await counts()).toEqual([1]);

  api.faults.failNext(0);
  synced();
  await recorder.flush();
  expect(await counts()).toEqual([4]);
});

it("an Event the cluster no longer has (expired after its TTL, or deleted) is created again with its count", async () => {
  api = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const errors: unknown[] = [];
  const recorder = new EventRecorder(kc, new AbandonableCalls(), "test", undefined, (e) =>
    errors.push(e),
  );
  const core = kc.makeApiClient(CoreV1Api);
  const synced = () => recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  const events = async () => (await core.listNamespacedEvent({ namespace: "default" })).items;

  synced();
  await recorder.flush();
  const [first] = await events();
  await core.deleteNamespacedEvent({ name: first!.metadata!.name!, namespace: "default" });

  synced();
  await recorder.flush();
  expect((await events()).map((e) => [e.reason, e.count])).toEqual([["Synced", 2]]);
  expect(errors).toEqual([]);
});

it("lets 25 Events of one object through, then one every 5 minutes, as client-go's spam filter; each is still logged", async () => {
  api = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  let now = 1_000_000;
  const logged: string[] = [];
  const recorder = new EventRecorder(
    kc,
    new AbandonableCalls(),
    "test",
    undefined,
    () => {},
    (_obj, _type, reason) => logged.push(reason),
    () => now,
  );
  const core = kc.makeApiClient(CoreV1Api);
  const counts = async () =>
    (await core.listNamespacedEvent({ namespace: "default" })).items
      .map((e) => [e.reason, e.count])
      .sort();
  for (let i = 0; i < 40; i++) recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  // Another type of the same object has a bucket of its own.
  recorder.event(FOO, "Warning", "ErrResourceExists", "Resource exists");
  await recorder.flush();
  expect(await counts()).toEqual([
    ["ErrResourceExists", 1],
    ["Synced", 25],
  ]);
  expect(logged.filter((r) => r === "Synced")).toHaveLength(40);
  now += 299_000;
  recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  now += 2_000;
  recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  recorder.event(FOO, "Normal", "Synced", "Foo synced successfully");
  await recorder.flush();
  expect(await counts()).toEqual([
    ["ErrResourceExists", 1],
    ["Synced", 26],
  ]);
});
