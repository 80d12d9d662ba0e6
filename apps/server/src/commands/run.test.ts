/**
 * `loopscope run` end to end, in process: embedded API server, controller, the create-foo
 * scenario, the JSONL trace and the klog text — both read back by packages/trace, to the same
 * stats.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { execFile } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Analyzer, buildExcerpt, messageText, narrate, readTraceText } from "@loopscope/trace";
import { FOO_CRD, startApiServer } from "@loopscope/apiserver";
import { parseArgs, run, usage } from "./run.ts";
import { statsJson } from "./stats.ts";
import { scenarios } from "../scenarios/index.ts";
import { startSilentCluster } from "../testing/silent-cluster.ts";
import { writeGoneKubeconfig } from "../testing/gone-kubeconfig.ts";
import { holdFooCrdTerminating } from "../testing/terminating-crd.ts";

let dir: string;

/**
 * `loopscope run` with `args`, keeping what it writes to stderr (not shown); `onWrite` sees each
 * write as it comes, to act at a moment of the run.
 */
async function runQuietly(
  args: string[],
  onWrite?: (m: string) => void,
): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((m: string) => {
    said.push(String(m));
    onWrite?.(String(m));
    return true;
  }) as typeof write;
  try {
    return { code: await run(args), said };
  } finally {
    process.stderr.write = write;
  }
}

/** Runs a shell command line; its exit code and stderr. */
function sh(command: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile("sh", ["-c", command], (err, _stdout, stderr) =>
      resolve({ code: err ? ((err.code as number | undefined) ?? 1) : 0, stderr }),
    ),
  );
}
/**
 * The JSONL trace and the klog log of one run give the same `loopscope stats`: the same table
 * and the same findings (only the header — format, lines — and the diagnostics differ).
 */
async function expectSameStats(jsonlPath: string, klogPath: string): Promise<void> {
  const stats = async (path: string, format: string) => {
    const { events, reader } = readTraceText(await readFile(path, "utf8"));
    expect(reader.format).toBe(format);
    const a = new Analyzer();
    a.pushAll(events);
    const { keys, findings } = statsJson(reader, a);
    return { keys, findings };
  };
  const jsonl = await stats(jsonlPath, "jsonl");
  expect(Object.keys(jsonl.keys).length).toBeGreaterThan(0);
  expect(await stats(klogPath, "klog")).toEqual(jsonl);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-run-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loopscope run", () => {
  it("create-foo: writes a JSONL trace and a klog log that both give the same stats", async () => {
    const out = join(dir, "trace.jsonl");
    const klog = join(dir, "trace.klog");
    expect(
      await run(["--scenario", "create-foo", "--out", out, "--klog", klog, "--timeout", "30"]),
    ).toBe(0);

    const jsonl = readTraceText(await readFile(out, "utf8"));
    expect(jsonl.reader.format).toBe("jsonl");
    expect(jsonl.reader.diagnostics).toEqual([]);
    const a = new Analyzer();
    a.pushAll(jsonl.events);
    const s = a.summary("default/example-foo");
    expect(s?.quiescent).toBe(true);
    expect(s?.hotLoop).toBe(false);
    expect(a.passes("default/example-foo")[0]?.cause).toBe("external");

    await expectSameStats(out, klog);
    // And the same STAGE lines in their excerpts: a JSONL event is shown as the line the klog
    // has for it (delayMs, ns and name, no empty fields=).
    const stageLines = async (path: string) =>
      buildExcerpt(readTraceText(await readFile(path, "utf8")).events)!
        .rows.flatMap((r) => (r.kind === "event" ? [messageText(r.event)] : []))
        .filter((t) => t.startsWith("STAGE/"));
    const lines = await stageLines(out);
    expect(lines.length).toBeGreaterThan(10);
    expect(await stageLines(klog)).toEqual(lines);
  });

  it("hot-loop: a pass that fails as the run stops is dropped in the JSONL and the klog log alike, and both give the same stats", async () => {
    // On an API server of its own, whose faults the test sets: every status write takes 200 ms,
    // so a pass is all but always in flight when the run stops, and once the scenario has its
    // finding each is refused (409). The pass the stop catches fails while the queue shuts down:
    // dropped, not requeued — which the klog log must say too (it said "requeuing").
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    api.faults.setLatency("update", 200);
    const kubeconfig = join(dir, "hot.yaml");
    await api.writeKubeconfig(kubeconfig);
    const out = join(dir, "hot.jsonl");
    const klog = join(dir, "hot.klog");
    const args = ["--scenario", "hot-loop", "--out", out, "--klog", klog, "--timeout", "60"];
    const r = await runQuietly([...args, "--kubeconfig", kubeconfig, "--install-crd"], (m) => {
      if (m.startsWith("loopscope run: hot loop: "))
        api.faults.failNext(1_000_000, 409, ["update"]);
    }).finally(() => api.stop());
    expect(r.code).toBe(0);
    const { events } = readTraceText(await readFile(out, "utf8"));
    expect(events.filter((e) => e.stage === "done").at(-1)).toMatchObject({ outcome: "dropped" });
    await expectSameStats(out, klog);
    // The run's last word counts that pass too: `stats` of its trace says what it said.
    const a = new Analyzer();
    a.pushAll(events);
    const said = r.said.join("").match(/default\/example-foo: (\d+) passes/);
    expect(Number(said?.[1])).toBe(a.summary("default/example-foo")!.passes);
  });

  it("watch-drop: the klog log says the watch ended with 410 Gone, and its narration tells the re-list", async () => {
    const out = join(dir, "wd.jsonl");
    const klog = join(dir, "wd.klog");
    expect(
      await run(["--scenario", "watch-drop", "--out", out, "--klog", klog, "--timeout", "30"]),
    ).toBe(0);
    const { events } = readTraceText(await readFile(klog, "utf8"));
    const gone = events.find(
      (e) =>
        e.stage === "note" && e.text.startsWith("the Foo informer's watch ended with 410 Gone"),
    );
    expect(gone).toBeDefined();
    const told = narrate(events).filter((n) =>
      n.text.includes(`re-list (its watch ended with 410 Gone, seq ${gone!.seq})`),
    );
    expect(told.length).toBeGreaterThan(0);
  });

  it("exits 1 with the reason when the scenario does not settle in time", async () => {
    const out = join(dir, "late.jsonl");
    expect(await run(["--scenario", "create-foo", "--out", out, "--timeout", "0.05"])).toBe(1);
  });

  it("says --timeout ran out when it ends the run as the controller starts, not that the cluster failed", async () => {
    const out = join(dir, "early.jsonl");
    const r = await runQuietly(["--scenario", "create-foo", "--out", out, "--timeout", "0.001"]);
    expect(r.code).toBe(1);
    expect(r.said.at(-1)).toBe(
      "loopscope run: scenario create-foo timed out after 0.001 s, while the controller was starting (its caches had not synced)\n",
    );
  });

  it("--timeout covers start-up: a cluster that never answers ends the run (exit 1), in one line", async () => {
    const silent = await startSilentCluster(dir);
    const out = join(dir, "silent.jsonl");
    const args = ["--scenario", "create-foo", "--out", out, "--timeout", "1"];
    const r = await runQuietly([...args, "--kubeconfig", silent.kubeconfig]).finally(() =>
      silent.close(),
    );
    expect(r.code).toBe(1);
    expect(r.said).toHaveLength(2);
    expect(r.said[0]).toBe(
      `loopscope run: checking the cluster at ${silent.url} (context silent)…\n`,
    );
    // What is left of the 1 s: start-up on a loaded machine can take a tenth of it.
    expect(r.said[1]).toMatch(
      new RegExp(
        `^loopscope run: the API server at ${silent.url} did not answer within (1|0\\.[5-9]) s\n$`,
      ),
    );
  });

  it("a kubeconfig's cluster gone mid-scenario ends the run in one line, with the trace so far", async () => {
    // Pods that take long to be ready: the scenario is still waiting when the server goes. The
    // controller's status updates fail, so its key is being retried then, never quiet: nothing the
    // scenario itself asks would notice the server gone, only the run's probe of the cluster.
    const api = await startApiServer({ deploymentReadyDelayMs: 60_000 });
    api.faults.failNext(1_000_000, 500, ["update"]);
    const kubeconfig = join(dir, "going.yaml");
    await api.writeKubeconfig(kubeconfig);
    const out = join(dir, "going.jsonl");
    const args = ["--scenario", "create-foo", "--out", out, "--timeout", "60"];
    const r = await runQuietly([...args, "--kubeconfig", kubeconfig, "--install-crd"], (m) => {
      if (m.includes("applying")) setTimeout(() => void api.stop(), 200);
    }).finally(() => api.stop());
    expect(r.code).toBe(1);
    const lost = r.said.filter((l) => l.includes("stopped answering"));
    expect(lost).toEqual([
      expect.stringMatching(
        new RegExp(
          `^loopscope run: the API server at ${api.url} stopped answering during the scenario: \\S.*\\n$`,
        ),
      ),
    ]);
    expect(r.said.at(-1)).toMatch(/^loopscope run: \d+ events → /);
    expect(readTraceText(await readFile(out, "utf8")).events.length).toBeGreaterThan(0);
  });

  it("the Foo CRD deleted mid-scenario ends the run in one line (exit 1), with the trace so far", async () => {
    // Pods that take long to be ready: the scenario is still waiting for its Foo when the CRD goes,
    // and would wait out its timeout.
    const api = await startApiServer({ deploymentReadyDelayMs: 60_000 });
    const kubeconfig = join(dir, "no-crd.yaml");
    await api.writeKubeconfig(kubeconfig);
    const out = join(dir, "no-crd.jsonl");
    const args = ["--scenario", "create-foo", "--out", out, "--timeout", "20", "-v=2"];
    const crd = `${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${FOO_CRD.metadata.name}`;
    let applying = false;
    let deleted: Promise<Response> | undefined;
    const r = await runQuietly([...args, "--kubeconfig", kubeconfig, "--install-crd"], (m) => {
      // The first STAGE line after the apply: the controller has its Foo, made before the CRD went.
      if (m.includes("applying")) applying = true;
      else if (applying && m.includes("STAGE")) deleted ??= fetch(crd, { method: "DELETE" });
    }).finally(() => api.stop());
    expect((await deleted)?.status).toBe(200);
    expect(r.code).toBe(1);
    // Its last words: the reason, then the trace; no Foo said left on the cluster (the CRD's
    // deletion took it).
    expect(r.said.filter((l) => l.startsWith("loopscope run: ")).slice(-2)).toEqual([
      "loopscope run: the Foo API (foos.samplecontroller.k8s.io) is gone from the cluster — was the CRD deleted? The scenario cannot go on without it\n",
      expect.stringMatching(/^loopscope run: \d+ events → /),
    ]);
    expect(readTraceText(await readFile(out, "utf8")).events.length).toBeGreaterThan(0);
  });

  it("a create refused for the Foo CRD terminating ends the run in the same line (exit 1), not the create's 405", async () => {
    // Held Terminating by a Foo's own finalizer: the Foo informer lists and watches on, and never
    // tells the Foo API gone; the scenario's create is what meets it.
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const crd = await holdFooCrdTerminating(api.url);
    const kubeconfig = join(dir, "terminating.yaml");
    await api.writeKubeconfig(kubeconfig);
    const out = join(dir, "terminating.jsonl");
    const args = ["--scenario", "create-foo", "--out", out, "--timeout", "20"];
    const r = await runQuietly([...args, "--kubeconfig", kubeconfig]).finally(async () => {
      await crd.release();
      await api.stop();
    });
    expect(r.code).toBe(1);
    expect(r.said.filter((l) => l.startsWith("loopscope run: ")).slice(-2)).toEqual([
      "loopscope run: the Foo API (foos.samplecontroller.k8s.io) is gone from the cluster — was the CRD deleted? The scenario cannot go on without it\n",
      expect.stringMatching(/^loopscope run: \d+ events → /),
    ]);
  });

  it("on a kubeconfig's cluster, says what the scenario left there, and a kubectl command that removes it", async () => {
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const kubeconfig = join(dir, "leaves.yaml");
    await api.writeKubeconfig(kubeconfig);
    try {
      const args = ["--scenario", "create-foo", "--out", join(dir, "leaves.jsonl")];
      const r = await runQuietly([...args, "--kubeconfig", kubeconfig, "--install-crd"]);
      expect(r.code).toBe(0);
      const line = r.said.find((l) => l.startsWith("loopscope run: left on the cluster: "));
      expect(line).toBe(
        `loopscope run: left on the cluster: foo default/example-foo; to remove (a Foo's Deployment goes with it): kubectl --kubeconfig ${kubeconfig} --context loopscope-embedded delete -n default foo example-foo\n`,
      );
      // The real kubectl, as the user would paste it (not spawnSync: the API server is in this
      // process, and would not answer while it waits).
      const command = line!.slice(line!.indexOf("kubectl "), -1);
      const deleted = await sh(`/usr/bin/${command}`);
      expect(deleted.code, deleted.stderr).toBe(0);
      const get = (what: string) =>
        sh(`/usr/bin/kubectl --kubeconfig ${kubeconfig} -n default get ${what} example-foo`);
      expect((await get("foo")).stderr).toContain("NotFound");
      await vi.waitFor(async () => expect((await get("deployment")).stderr).toContain("NotFound"), {
        timeout: 10_000,
      });
    } finally {
      await api.stop();
    }
  });

  it("on a kubeconfig's cluster that already holds a Foo: that Foo was listed at start, not created, in the JSONL and the klog log alike", async () => {
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const kubeconfig = join(dir, "before.yaml");
    await api.writeKubeconfig(kubeconfig);
    const manifest = join(dir, "old-foo.yaml");
    await writeFile(
      manifest,
      "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata:\n  name: old-foo\nspec:\n  deploymentName: old-foo\n  replicas: 1\n",
    );
    try {
      const made = await sh(`/usr/bin/kubectl --kubeconfig ${kubeconfig} apply -f ${manifest}`);
      expect(made.code, made.stderr).toBe(0);
      const out = join(dir, "before.jsonl");
      const klog = join(dir, "before.klog");
      const args = ["--scenario", "create-foo", "--out", out, "--klog", klog];
      expect((await runQuietly([...args, "--kubeconfig", kubeconfig, "--install-crd"])).code).toBe(
        0,
      );
      await expectSameStats(out, klog);
      const { events, reader } = readTraceText(await readFile(out, "utf8"));
      const adds = events.filter(
        (e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add",
      );
      expect(adds.map((e) => [e.key, e.stage === "watch" && e.initial])).toEqual([
        ["default/old-foo", true],
        ["default/example-foo", undefined],
      ]);
      const a = new Analyzer();
      a.pushAll(events);
      const { keys } = statsJson(reader, a);
      expect(keys["default/old-foo"]?.listed).toBe(true);
      expect(keys["default/example-foo"]?.listed).toBe(false);
      const old = narrate(events).find((n) => n.seq === adds[0]!.seq)!.text;
      expect(old).toContain("listed Foo default/old-foo");
      expect(old).not.toContain("created");
    } finally {
      await api.stop();
    }
  });

  it("on a kubeconfig's cluster, deletes only what loopscope made: someone's own Deployment of that name stops the scenario", async () => {
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const kubeconfig = join(dir, "theirs.yaml");
    await api.writeKubeconfig(kubeconfig);
    const kubectl = (args: string) => sh(`/usr/bin/kubectl --kubeconfig ${kubeconfig} ${args}`);
    try {
      const made = await kubectl("create deployment example-foo --image=registry.example/app:v7");
      expect(made.code, made.stderr).toBe(0);
      const args = ["--scenario", "create-foo", "--out", join(dir, "theirs.jsonl")];
      const withKc = [...args, "--kubeconfig", kubeconfig, "--install-crd"];
      const refused = await runQuietly(withKc);
      expect(refused.code).toBe(1);
      const said = refused.said.join("");
      expect(said).toContain(
        "deployment default/example-foo: already on this cluster and not made by loopscope",
      );
      expect(said).toContain("kubectl delete -n default deployment example-foo");
      expect(said).toContain("the scenario deleted nothing.");
      // Still theirs, untouched.
      const image = await new Promise<string>((resolve) =>
        execFile(
          "/usr/bin/kubectl",
          ["--kubeconfig", kubeconfig, "-n", "default", "get", "deployment", "example-foo"].concat([
            "-o",
            "jsonpath={.spec.template.spec.containers[0].image}",
          ]),
          (_err, stdout) => resolve(stdout),
        ),
      );
      expect(image).toBe("registry.example/app:v7");
      // Once it is gone, the scenario runs; run again, it replaces its own Foo without asking.
      expect((await kubectl("delete -n default deployment example-foo")).code).toBe(0);
      await vi.waitFor(
        async () =>
          expect((await kubectl("-n default get deployment example-foo")).stderr).toContain(
            "NotFound",
          ),
        { timeout: 10_000 },
      );
      expect((await runQuietly(withKc)).code).toBe(0);
      expect((await runQuietly(withKc)).code).toBe(0);
      // Their own Foo of that name: the scenario deletes nothing, and does not claim the
      // controller, which reconciles every Foo on the cluster, changed nothing.
      expect((await kubectl("delete -n default foo example-foo")).code).toBe(0);
      const theirFoo = join(dir, "their-foo.yaml");
      writeFileSync(
        theirFoo,
        "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata:\n  name: example-foo\n  namespace: default\nspec:\n  deploymentName: example-foo\n  replicas: 1\n",
      );
      await vi.waitFor(async () => expect((await kubectl(`create -f ${theirFoo}`)).code).toBe(0), {
        timeout: 10_000,
      });
      const foo = await runQuietly(withKc);
      expect(foo.code).toBe(1);
      expect(foo.said.join("")).toContain(
        "foo default/example-foo: already on this cluster and not made by loopscope, which would delete it to start clean; the scenario deleted nothing (the controller reconciles every Foo on the cluster, that one too, as any controller would).",
      );
    } finally {
      await api.stop();
    }
  });

  it("on a list of kubeconfig files ($KUBECONFIG=a:b), the kubectl command that removes what was left works", async () => {
    const api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const kubeconfig = join(dir, "listed.yaml");
    await api.writeKubeconfig(kubeconfig);
    // The first file's current context is another cluster: the command must name the run's.
    const other = join(dir, "other.yaml");
    await writeGoneKubeconfig(other);
    const list = `${other}${delimiter}${kubeconfig}`;
    try {
      const args = ["--scenario", "create-foo", "--out", join(dir, "listed.jsonl")];
      const r = await runQuietly([
        ...args,
        ...["--kubeconfig", list, "--context", "loopscope-embedded", "--install-crd"],
      ]);
      expect(r.code).toBe(0);
      const line = r.said.find((l) => l.startsWith("loopscope run: left on the cluster: "));
      expect(line).toBe(
        `loopscope run: left on the cluster: foo default/example-foo; to remove (a Foo's Deployment goes with it): KUBECONFIG=${list} kubectl --context loopscope-embedded delete -n default foo example-foo\n`,
      );
      const command = line!.slice(line!.indexOf("KUBECONFIG="), -1);
      const deleted = await sh(`PATH=/usr/bin ${command}`);
      expect(deleted.code, deleted.stderr).toBe(0);
      const got = await sh(
        `/usr/bin/kubectl --kubeconfig ${kubeconfig} -n default get foo example-foo`,
      );
      expect(got.stderr).toContain("NotFound");
    } finally {
      await api.stop();
    }
  });

  it("refuses an --out or --klog it cannot write before running the scenario, in one line", async () => {
    const a = await runQuietly(["--scenario", "create-foo", "--out", join(dir, "no/such/x.jsonl")]);
    const ok = join(dir, "ok.jsonl");
    const b = await runQuietly(["--scenario", "create-foo", "--out", ok, "--klog", dir]);
    expect([a.code, b.code]).toEqual([1, 1]);
    // Those two lines and nothing else: the scenario never ran ("applying …" would be here).
    expect([...a.said, ...b.said]).toEqual([
      `loopscope run: cannot write ${join(dir, "no/such/x.jsonl")}: its folder does not exist\n`,
      `loopscope run: cannot write ${dir}: it is a folder\n`,
    ]);
  });

  it('writes the trace, or the klog text, to stdout for "-" (no file named "-")', async () => {
    const stdout: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(((
      chunk: string,
      ...rest: unknown[]
    ) => {
      stdout.push(String(chunk));
      const done = rest.find((x) => typeof x === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write);
    const klog = join(dir, "stdout.klog");
    const hadDash = existsSync("-");
    try {
      const r = await runQuietly(["--scenario", "create-foo", "--out", "-", "--klog", klog]);
      expect(r.code, r.said.join("")).toBe(0);
      expect(r.said.at(-1)).toMatch(/ events → stdout \(klog: .*stdout\.klog\)\n$/);
      expect(existsSync("-")).toBe(hadDash);
    } finally {
      spy.mockRestore();
      if (!hadDash) rmSync("-", { force: true });
    }
    const { events, reader } = readTraceText(stdout.join(""));
    expect([reader.format, reader.diagnostics]).toEqual(["jsonl", []]);
    expect(events.length).toBeGreaterThan(10);
    expect(readTraceText(await readFile(klog, "utf8")).reader.format).toBe("klog");

    expect(parseArgs(["--scenario", "create-foo", "--out", "-", "--klog", "-"])).toBe(
      "--out - and --klog - cannot both be stdout: write one of them to a file",
    );
  });

  it("refuses one file for --out and --klog up front: the trace renamed over it would lose the klog", async () => {
    expect(parseArgs(["--scenario", "create-foo", "--out", "x.jsonl", "--klog", "./x.jsonl"])).toBe(
      "--out x.jsonl and --klog ./x.jsonl are the same file: write them to two files",
    );
    const out = join(dir, "both.jsonl");
    const r = await runQuietly(["--scenario", "create-foo", "--out", out, "--klog", out]);
    expect([r.code, r.said.join("").split("\n")[0]]).toEqual([
      2,
      `loopscope run: --out ${out} and --klog ${out} are the same file: write them to two files`,
    ]);
  });

  it("leaves an earlier trace of the same name as it was when the run fails before tracing", async () => {
    const out = join(dir, "keep.jsonl");
    const klog = join(dir, "keep.klog");
    await writeFile(out, "earlier trace\n");
    await writeFile(klog, "earlier log\n");
    const args = ["--scenario", "create-foo", "--out", out, "--klog", klog];
    const r = await runQuietly([...args, "--kubeconfig", join(dir, "no-such-kubeconfig")]);
    expect(r.code).toBe(1);
    expect(await readFile(out, "utf8")).toBe("earlier trace\n");
    expect(await readFile(klog, "utf8")).toBe("earlier log\n");
    expect((await readdir(dir)).filter((f) => f.includes(".partial-"))).toEqual([]);
  });

  it("Ctrl-C stops the scenario and still writes the trace so far (exit 130)", async () => {
    const out = join(dir, "interrupted.jsonl");
    const r = await runQuietly(["--scenario", "scale", "--out", out, "--timeout", "30"], (m) => {
      // The scenario has begun: interrupt it as a terminal's Ctrl-C would.
      if (m.includes("applying")) setTimeout(() => process.emit("SIGINT"), 50);
    });
    expect(r.code).toBe(130);
    expect(r.said.join("")).toContain(
      "interrupted: stopping the scenario and writing the trace so far",
    );
    const { events, reader } = readTraceText(await readFile(out, "utf8"));
    expect(reader.header).toBeDefined();
    expect(events.length).toBeGreaterThan(0);
  });

  it("refuses a fault-injecting scenario on a kubeconfig's cluster before starting anything", async () => {
    const out = join(dir, "conflict.jsonl");
    const args = ["--scenario", "conflict", "--out", out, "--kubeconfig", join(dir, "kc.yaml")];
    const r = await runQuietly(args);
    expect(r.code).toBe(1);
    expect(r.said).toEqual([
      "loopscope run: scenario conflict slows or breaks the API server on purpose: it runs on the embedded one only (without --kubeconfig and --context)\n",
    ]);
    expect(usage).toMatch(/conflict +Conflict: a competing writer \(embedded only\)/);
  });

  it("rejects bad usage with exit 2", async () => {
    expect(await run(["--scenario", "nope", "--out", "x"])).toBe(2);
    expect(parseArgs(["--scenario", "create-foo"])).toBe("--out is required");
    expect(parseArgs(["--scenario", "create-foo", "--out", "f", "--timeout", "soon"])).toMatch(
      /--timeout needs a number/,
    );
    expect(parseArgs(["--scenario", "create-foo", "--out", "f", "--timeout", "-5"])).toBe(
      "--timeout needs a number ≥ 0, got -5",
    );
    // As `up` takes them: no worker (or half of one) would never reconcile, and time out.
    for (const w of ["0", "1.5", "65"])
      expect(parseArgs(["--scenario", "create-foo", "--out", "f", "--workers", w])).toBe(
        `--workers ${w}: expected an integer 1…64`,
      );
  });

  it("--help names every option it takes and every scenario with what it shows", () => {
    const flags = [
      "--scenario",
      "--out",
      "--klog",
      "--timeout",
      "-v=N",
      "--kubeconfig",
      "--context",
      "--install-crd",
      "--workers",
      "--resync",
      "--hot-loop",
      "--idempotent-status",
    ];
    for (const f of flags) expect(usage).toContain(`  ${f} `);
    for (const [name, s] of Object.entries(scenarios))
      expect(usage).toMatch(new RegExp(`  ${name} +${s.title}`));
    expect(Math.max(...usage.split("\n").map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});
