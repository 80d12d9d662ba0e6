/**
 * The dashboard's actions and scenarios on a kubeconfig's cluster that goes away: in process,
 * `up`'s own wiring (startLive) on the embedded API server reached through a kubeconfig file (or a
 * TCP relay to it, for a network that falls silent), and the dashboard's action API over HTTP.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { startLive, type Live } from "../up/start-live.ts";
import { startTcpRelay, type TcpRelay } from "../testing/tcp-relay.ts";
import { postAction } from "../testing/post-action.ts";
import { quietLiveOptions } from "../testing/quiet-live.ts";

let dir: string;
let api: ApiServer | undefined;
let live: Live | undefined;
let relay: TcpRelay | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-scenario-runner-"));
});
afterEach(async () => {
  relay?.heal();
  await live?.stop();
  live = undefined;
  relay?.close();
  relay = undefined;
  await api?.stop();
  api = undefined;
  await rm(dir, { recursive: true, force: true });
});

const act = (body: object) => postAction(live!.server, body);

const runScenario = (name: string) => act({ action: "runScenario", scenario: name });

/** `up`'s wiring on `kubeconfig`'s cluster, with one worker and no resync. */
async function startUp(kubeconfig: string): Promise<Live> {
  live = await startLive(
    quietLiveOptions(dir, { kind: "kubeconfig", path: kubeconfig, installCrd: true }),
  );
  return live;
}

it(
  "a cluster gone mid-scenario ends the run at once, saying so; none starts while it is down",
  { timeout: 45_000 },
  async () => {
    // Pods that take long to be ready, and status updates that fail: when the server goes, the
    // scenario is still waiting and the key is being retried, never quiet — nothing the scenario
    // asks would notice before its 60 s timeout, only the probe of the cluster.
    api = await startApiServer({ deploymentReadyDelayMs: 60_000 });
    api.faults.failNext(1_000_000, 500, ["update"]);
    const server = api.url;
    const kubeconfig = join(dir, "kubeconfig");
    await api.writeKubeconfig(kubeconfig);
    let wrote = false;
    (await startUp(kubeconfig)).hub.subscribe((e) => {
      if (e.stage === "write") wrote = true;
    });

    const ran = runScenario("create-foo");
    await vi.waitFor(() => expect(wrote).toBe(true), { timeout: 20_000, interval: 20 });
    await api.stop();
    api = undefined;
    const answer = await ran;
    expect(answer.status).toBe(502);
    expect(answer.message).toMatch(
      new RegExp(
        `^scenario create-foo: the API server at ${server} stopped answering during the scenario: connect ECONNREFUSED`,
      ),
    );

    const refused = await runScenario("create-foo");
    expect(refused.status).toBe(503);
    expect(refused.message).toMatch(
      new RegExp(
        `^scenario create-foo: the API server at ${server} is not answering \\(connect ECONNREFUSED [^)]+\\); try again when it is back$`,
      ),
    );
  },
);

it(
  "an action on a network gone silent answers in bounded time, and none is tried once it is known down",
  { timeout: 60_000 },
  async () => {
    api = await startApiServer();
    const kubeconfig = join(dir, "kubeconfig");
    await api.writeKubeconfig(kubeconfig);
    relay = await startTcpRelay(api.port);
    const server = `http://127.0.0.1:${relay.port}`;
    await writeFile(kubeconfig, (await readFile(kubeconfig, "utf8")).replace(api.url, server));
    await startUp(kubeconfig);

    relay.cut();
    const t0 = Date.now();
    const silent = await act({ action: "createFoo", name: "into-the-void" });
    expect(silent).toEqual({
      status: 504,
      ok: false,
      message: `the API server at ${server} did not answer within 10 s`,
    });
    expect(Date.now() - t0).toBeLessThan(30_000);

    await vi.waitFor(() => expect(live!.reachability?.state().reachable).toBe(false), {
      timeout: 20_000,
      interval: 50,
    });
    const refused = await act({ action: "scaleFoo", name: "into-the-void", replicas: 3 });
    expect(refused).toEqual({
      status: 503,
      ok: false,
      message: `the API server at ${server} is not answering (no answer within 3 s); try again when it is back`,
    });
  },
);

it(
  "a scenario run from the dashboard on a kubeconfig's cluster says what it left there and the kubectl that removes it",
  { timeout: 45_000 },
  async () => {
    api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const kubeconfig = join(dir, "kubeconfig");
    await api.writeKubeconfig(kubeconfig);
    await startUp(kubeconfig);
    const answer = await runScenario("create-foo");
    expect(answer.status).toBe(200);
    expect(answer.message).toContain(
      `left on the cluster: foo default/example-foo; to remove (a Foo's Deployment goes with it): kubectl --kubeconfig ${kubeconfig} --context loopscope-embedded delete -n default foo example-foo`,
    );
  },
);
