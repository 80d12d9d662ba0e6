/**
 * End to end, in process: the embedded API server, the real Foo controller, the real kubectl
 * and a real WebSocket client of the dashboard server.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { API, TOKEN_HEADER, type ObjectsSnapshot, type ServerMessage } from "@loopscope/protocol";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { StreamClient } from "../ws/stream-client.ts";
import { REPO_ROOT } from "./web-build.ts";
import { startLive, type Live } from "./start-live.ts";

const run = promisify(execFile);
const MANIFEST = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");

let dir: string;
let live: Live;
let client: StreamClient;
let snapshots: ObjectsSnapshot[];

// Generous limits, not speed claims: the cluster starts slowly on a busy 2-core machine.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-live-"));
  live = await startLive({
    cluster: { kind: "embedded" },
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
    runsDir: join(dir, "runs"),
    workers: 2,
    resyncMs: 0,
  });
  snapshots = [];
  client = new StreamClient({
    baseUrl: live.server.url,
    token: live.server.tokens.owner,
    onMessage: (m: ServerMessage) => {
      if (m.type === "objects") snapshots.push(m.objects);
    },
  });
  await client.connect();
}, 90_000);

afterAll(async () => {
  await client?.close();
  await live?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** POSTs an action as the page does, with the owner's token. */
const act = (body: unknown) =>
  fetch(new URL(API.action, live.server.url), {
    method: "POST",
    headers: { "content-type": "application/json", [TOKEN_HEADER]: live.server.tokens.owner },
    body: JSON.stringify(body),
  });
/** An action's status and what it said. */
const acted = (body: unknown) =>
  act(body).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { message?: string },
  }));

const forKey = (key: string) => client.events.filter((e) => e.key === key);
const synced = (key: string) => () =>
  expect(forKey(key).some((e) => e.stage === "done" && e.outcome === "synced")).toBe(true);

describe("loopscope up, live", () => {
  it("kubectl apply → the Foo's STAGE events arrive over the WebSocket in seq order", async () => {
    await run("kubectl", ["--kubeconfig", live.kubeconfigPath, "apply", "-f", MANIFEST]);
    const key = "default/example-foo";
    await vi.waitFor(synced(key), { timeout: 20_000, interval: 20 });
    await vi.waitFor(
      () =>
        expect(forKey(key).some((e) => e.stage === "write" && e.verb === "updateStatus")).toBe(
          true,
        ),
      { timeout: 20_000, interval: 20 },
    );
    const stages = forKey(key).map((e) => e.stage);
    for (const s of ["watch", "enqueue", "dequeue", "read", "write"]) expect(stages).toContain(s);
    expect(stages.indexOf("watch")).toBeLessThan(stages.indexOf("enqueue"));
    expect(stages.indexOf("enqueue")).toBeLessThan(stages.indexOf("dequeue"));
    expect(stages.indexOf("dequeue")).toBeLessThan(stages.indexOf("read"));
    expect(stages.indexOf("read")).toBeLessThan(stages.indexOf("write"));
    expect(forKey(key).find((e) => e.stage === "write")).toMatchObject({
      verb: "create",
      target: "deployments/default/example-foo",
    });
    expect(client.events.map((e) => e.seq)).toEqual(
      Array.from({ length: client.lastSeq }, (_, i) => i + 1),
    );
    expect(client.violations).toEqual([]);
    await vi.waitFor(() =>
      expect(snapshots.at(-1)?.objects.map((o) => `${o.kind}/${o.name}`)).toEqual(
        expect.arrayContaining(["Foo/example-foo", "Deployment/example-foo"]),
      ),
    );
  });

  it("actions over HTTP drive the cluster: create and scale a Foo, apply a manifest", async () => {
    const created = await act({ action: "createFoo", name: "second", replicas: 2 });
    expect(await created.json()).toEqual({ ok: true, message: "foo default/second created" });
    await vi.waitFor(synced("default/second"), { timeout: 20_000, interval: 20 });
    expect((await act({ action: "createFoo", name: "second" })).status).toBe(409);
    expect((await act({ action: "scaleFoo", name: "second", replicas: 3 })).status).toBe(200);
    await vi.waitFor(
      () => {
        const foo = snapshots
          .at(-1)
          ?.objects.find((o) => o.kind === "Deployment" && o.name === "second");
        expect(foo?.replicas).toBe(3);
      },
      { timeout: 20_000, interval: 20 },
    );
    const yaml = (await readFile(MANIFEST, "utf8")).replace(/example-foo/g, "third");
    const applied = await act({ action: "applyManifest", yaml });
    expect(await applied.json()).toMatchObject({ ok: true, message: "foo default/third created" });
    await vi.waitFor(synced("default/third"), { timeout: 20_000, interval: 20 });
    const bad = await act({ action: "applyManifest", yaml: "kind: Secret\napiVersion: v1\n" });
    expect(bad.status).toBe(400);
    // A billion-laughs manifest: refused with the parser's reason, not "cluster unreachable".
    const laughs = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (const [i, n] of [..."bcdefgh"].entries())
      laughs.push(`${n}: &${n} [${Array(9).fill(`*${"abcdefg"[i]}`).join(", ")}]`);
    const bomb = await act({ action: "applyManifest", yaml: laughs.join("\n") });
    expect(bomb.status).toBe(400);
    expect(await bomb.json()).toMatchObject({
      ok: false,
      message: expect.stringContaining("Excessive alias count"),
    });
  });

  it("stops a scenario under way from the dashboard API: its run answers that it stopped", async () => {
    expect((await acted({ action: "stopScenario" })).status).toBe(409);
    const before = live.hub.lastSeq;
    const running = acted({ action: "runScenario", scenario: "create-foo" });
    // Its Foo applied, it waits for the Deployment to be available (1.5 s in the embedded cluster).
    await vi.waitFor(
      () =>
        expect(
          client.events.some(
            (e) =>
              e.seq > before && e.stage === "note" && e.text.startsWith("scenario: kubectl apply"),
          ),
        ).toBe(true),
      { timeout: 30_000, interval: 10 },
    );
    expect(await acted({ action: "stopScenario" })).toEqual({
      status: 200,
      body: { ok: true, message: "stopping scenario create-foo" },
    });
    expect(await running).toEqual({
      status: 200,
      body: {
        ok: true,
        message: expect.stringMatching(
          /^scenario create-foo stopped from the dashboard( while .+)?$/,
        ),
      },
    });
    // Over: another can run, and there is nothing to stop.
    expect((await acted({ action: "stopScenario" })).status).toBe(409);
  });

  it("stopping slow-api as its Foo settles says it was waiting for that Foo, not what it did before", async () => {
    // An example-foo there (the tests above make one) slow-api deletes first ("deleted …"); then
    // it applies its own and waits for it to settle — what the stop must name.
    const before = live.hub.lastSeq;
    const running = acted({ action: "runScenario", scenario: "slow-api" });
    // The controller's first write for the new Foo, after the scenario's note that it applies it
    // (a pass on the old one may write too): the create went through a request before, and each
    // write is 250 ms slower, so by now the scenario waits for the Foo to settle.
    await vi.waitFor(
      () => {
        const applied = client.events.find(
          (e) =>
            e.seq > before &&
            e.stage === "note" &&
            e.text.startsWith("scenario: kubectl apply Foo example-foo"),
        );
        expect(applied).toBeDefined();
        expect(
          client.events.some(
            (e) => e.seq > applied!.seq && e.stage === "write" && e.key === "default/example-foo",
          ),
        ).toBe(true);
      },
      { timeout: 30_000, interval: 10 },
    );
    expect((await acted({ action: "stopScenario" })).status).toBe(200);
    expect(await running).toEqual({
      status: 200,
      body: {
        ok: true,
        message:
          "scenario slow-api stopped from the dashboard while waiting for default/example-foo to settle",
      },
    });
  });

  it("stopping slow-api as it applies its Foo says so, not the clean-up's 'deleted' before it", async () => {
    // The test above left its example-foo: slow-api deletes it first ("deleted …"), then marks
    // and applies its own, a create 250 ms slower than usual. Stopped at the mark, it is
    // applying, or (on a slow machine) already waiting for the Foo to settle.
    const before = live.hub.lastSeq;
    const running = acted({ action: "runScenario", scenario: "slow-api" });
    await vi.waitFor(
      () =>
        expect(
          client.events.some(
            (e) =>
              e.seq > before &&
              e.stage === "note" &&
              e.text.startsWith("scenario: kubectl apply Foo example-foo"),
          ),
        ).toBe(true),
      { timeout: 30_000, interval: 5 },
    );
    expect((await acted({ action: "stopScenario" })).status).toBe(200);
    expect(await running).toEqual({
      status: 200,
      body: {
        ok: true,
        message: expect.stringMatching(
          /^scenario slow-api stopped from the dashboard while (applying|waiting for) default\/example-foo/,
        ),
      },
    });
  });

  it("runs a scenario, switches a lesson and a fault from the dashboard API", async () => {
    const before = live.hub.lastSeq;
    const scenario = await acted({ action: "runScenario", scenario: "create-foo" });
    // create-foo says nothing of its own: the page is told what the run came to. It deletes the
    // example-foo of the tests before first: once its controller saw that one gone, this one is
    // counted from its creation, "since it was created again".
    expect(scenario).toEqual({
      status: 200,
      body: {
        ok: true,
        message: expect.stringMatching(
          /^scenario create-foo done: default\/example-foo( \(since it was created again\))?: \d+ passes \(\d+ external, \d+ self-triggered[^)]*\), quiescent$/,
        ),
      },
    });
    await client.waitFor(live.hub.lastSeq);
    const marks = client.events.filter((e) => e.seq > before && e.stage === "note");
    expect(marks.map((e) => (e.stage === "note" ? e.text : ""))).toContainEqual(
      expect.stringContaining("scenario:"),
    );
    expect((await acted({ action: "runScenario", scenario: "no-such" })).status).toBe(400);

    expect(
      (await acted({ action: "setLesson", lesson: "idempotentStatus", enabled: true })).status,
    ).toBe(200);
    expect(live.session.controller.getLessons().idempotentStatus).toBe(true);
    await acted({ action: "setLesson", lesson: "idempotentStatus", enabled: false });

    const fault = await acted({
      action: "setFault",
      fault: { latencyMs: { update: 5 }, closeWatches: true },
    });
    expect(fault).toMatchObject({
      status: 200,
      body: { message: "update latency 5 ms; watches closed" },
    });
    expect(live.session.apiserver!.faults.state().latencyMs).toEqual({ update: 5 });
    await acted({ action: "setFault", fault: { latencyMs: { update: 0 } } });
  });

  it("serves the run's Prometheus metrics on /metrics", async () => {
    const res = await fetch(new URL("/metrics", live.server.url));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^workqueue_adds_total\{name="foos"\} [1-9]/m);
  });

  it("never hands out tokens or kubeconfig contents", async () => {
    const info = await (
      await fetch(new URL(API.info, live.server.url), {
        headers: { [TOKEN_HEADER]: live.server.tokens.owner },
      })
    ).text();
    expect(JSON.parse(info)).toMatchObject({ mode: "live", cluster: { kind: "embedded" } });
    // A scenario meant for another worker count says what it gets here.
    const titles = (JSON.parse(info) as { scenarios: { name: string; title: string }[] }).scenarios;
    expect(titles.find((t) => t.name === "burst")?.title).toBe(
      "Burst: 8 Foos at once, 1 worker (here: 2 workers)",
    );
    expect(titles.find((t) => t.name === "create-foo")?.title).toBe("Create one Foo");
    const kubeconfig = await readFile(live.kubeconfigPath, "utf8");
    const secrets = kubeconfig
      .split("\n")
      .filter((l) => /(token|password|key-data|certificate-data):/.test(l))
      .map((l) => l.split(":").slice(1).join(":").trim());
    for (const text of [info, await readFile(live.recordingPath, "utf8")]) {
      expect(text).not.toContain(live.server.tokens.owner);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });

  it("stops with a complete recording that the trace reader reads back whole", async () => {
    await live.stop();
    const last = live.hub.lastSeq;
    const text = await readFile(live.recordingPath, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const { events, reader } = readTraceText(text);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    expect(events.map((e: TraceEvent) => e.seq)).toEqual(
      Array.from({ length: last }, (_, i) => i + 1),
    );
  });
});
