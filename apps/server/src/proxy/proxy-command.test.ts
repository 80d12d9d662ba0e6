/**
 * The real `loopscope proxy` in a child process, as a user runs it: the lines it prints work (the
 * controller's export, kubectl's), the real FooController (another process) run with the printed
 * kubeconfig gets traced, and Ctrl-C leaves a complete recording that `stats` reads.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Analyzer, readTraceText } from "@loopscope/trace";
import { REPO_ROOT } from "../up/web-build.ts";
import { kubectlGetFoos, parseProxyFlags } from "../commands/proxy.ts";

const BIN = join(REPO_ROOT, "apps", "server", "bin", "loopscope.mjs");
const MANIFEST = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");
const run = promisify(execFile);
const children: ChildProcess[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  if (dir) await rm(dir, { recursive: true, force: true });
});

function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (b: Buffer) => (out.stdout += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out.stderr += b.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, out, exited };
}

describe("loopscope proxy (the command)", () => {
  it(
    "prints what to run, traces the controller run with it, and records until Ctrl-C",
    { timeout: 180_000 },
    async () => {
      dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-cmd-"));
      const record = join(dir, "run.jsonl");
      const proxy = start(
        [BIN, "proxy", "--no-build", "--dashboard-port", "0", "--record", record],
        dir,
      );
      await vi.waitFor(() => expect(proxy.out.stderr).toContain("Ctrl-C to stop"), {
        timeout: 60_000,
        interval: 50,
      });
      const controllerKc = /^export KUBECONFIG=(\S+)$/m.exec(proxy.out.stdout)![1];
      const kubectlKc = /^KUBECONFIG=(\S+) kubectl/m.exec(proxy.out.stdout)![1];
      expect(proxy.out.stdout).toMatch(/^dashboard {2}http:\/\/127\.0\.0\.1:\d+/m);

      const fixture = fileURLToPath(new URL("./foo-controller.fixture.ts", import.meta.url));
      const controller = start(["--import", "tsx", fixture, controllerKc], REPO_ROOT);
      await vi.waitFor(() => expect(controller.out.stderr).toContain("ready"), { timeout: 60_000 });
      await run("kubectl", ["apply", "-f", MANIFEST], {
        env: { ...process.env, KUBECONFIG: kubectlKc },
      });
      await vi.waitFor(
        () => expect(proxy.out.stderr).toContain("tracing samplecontroller.k8s.io/Foo objects"),
        { timeout: 30_000, interval: 50 },
      );
      // The create's pass and a pass of its own writes' echo went by. (Not "two passes": under
      // load the Deployment controller's updates can join the echo's pass, which is then external.)
      const passesSoFar = async () => {
        const analyzer = new Analyzer();
        analyzer.pushAll(readTraceText(await readFile(record, "utf8")).events);
        return analyzer.passes("default/example-foo");
      };
      await vi.waitFor(
        async () => expect((await passesSoFar()).some((p) => p.cause === "self")).toBe(true),
        { timeout: 30_000, interval: 200 },
      );
      controller.child.kill("SIGTERM");
      await controller.exited;
      proxy.child.kill("SIGINT");
      expect(await proxy.exited).toBe(0);
      expect(proxy.out.stderr).toMatch(/stopped; \d+ events recorded/);

      const { events, reader } = readTraceText(await readFile(record, "utf8"));
      expect(reader.header?.source).toBe("proxy");
      const analyzer = new Analyzer();
      analyzer.pushAll(events);
      const passes = analyzer.passes("default/example-foo");
      expect(passes[0]).toMatchObject({ cause: "external", fromMarkers: true, outcome: "synced" });
      expect(passes.some((p) => p.cause === "self")).toBe(true);
      const creates = events.filter((e) => e.stage === "write" && e.verb === "create");
      expect(creates).toEqual([
        expect.objectContaining({
          target: "deployments/default/example-foo",
          code: 201,
          changed: true,
        }),
      ]);
    },
  );

  it("says what is wrong with its flags", { timeout: 60_000 }, async () => {
    const bad = await run(process.execPath, [BIN, "proxy", "--for", "foo"]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain("--for takes GROUP/KIND");
    // Stdout has the lines to copy: "-" is no recording, as it is stdout for convert's OUT. (In
    // a folder of its own and killed in time, should it record to a file named "-" after all.)
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-flags-"));
    const dash = await run(process.execPath, [BIN, "proxy", "--record", "-", "--no-build"], {
      cwd: dir,
      timeout: 20_000,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(dash).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--record -: stdout carries the dashboard's URL"),
    });
    const { stdout } = await run(process.execPath, [BIN, "proxy", "--help"]);
    expect(stdout).toContain("usage: loopscope proxy");
  });

  it("takes --context alone as $KUBECONFIG's context, and prints kubectl for that context", () => {
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = "/k/a:/k/b";
    try {
      expect(parseProxyFlags(["--context", "kind-b"])).toMatchObject({
        kubeconfig: "/k/a:/k/b",
        context: "kind-b",
      });
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
    expect(kubectlGetFoos("/k/a:/k/b", "kind-b")).toBe(
      "KUBECONFIG=/k/a:/k/b kubectl --context kind-b get foos",
    );
    expect(kubectlGetFoos("/k/my config", undefined)).toBe(
      "KUBECONFIG='/k/my config' kubectl get foos",
    );
  });

  it("names its own flag when the dashboard's port is taken", { timeout: 60_000 }, async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as AddressInfo).port;
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-port-"));
    const taken = await run(
      process.execPath,
      [BIN, "proxy", "--no-build", "--dashboard-port", String(port)],
      { cwd: dir, timeout: 40_000 },
    ).catch((e: { code: number; stderr: string }) => e);
    blocker.close();
    expect(taken).toMatchObject({ code: 1 });
    expect((taken as { stderr: string }).stderr).toContain(
      `port ${port} on 127.0.0.1 is already in use (another loopscope?); pick one with --dashboard-port N`,
    );
  });

  it("says which group has a kind given without one", { timeout: 90_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-for-"));
    const proxy = start(
      [BIN, "proxy", "--no-build", "--dashboard-port", "0", "--for", "Foo", "--for", "Pod"],
      dir,
    );
    await vi.waitFor(() => expect(proxy.out.stderr).toContain("Ctrl-C to stop"), {
      timeout: 60_000,
      interval: 50,
    });
    await vi.waitFor(
      () =>
        expect(proxy.out.stderr).toContain(
          "warning: --for Foo: the core group has no kind Foo, so no Foo is traced as primary; did you mean --for samplecontroller.k8s.io/Foo?",
        ),
      { timeout: 20_000, interval: 50 },
    );
    // Pod is the core group's: nothing to say.
    expect(proxy.out.stderr).not.toContain("--for Pod:");
    proxy.child.kill("SIGINT");
    await proxy.exited;
  });
});
