/**
 * The real `loopscope up` in a child process, for tests: started on a free port with no web build
 * and no resync, and handed back once its dashboard answers, with the page's token and the
 * KUBECONFIG it printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { expect, vi } from "vitest";
import { TOKEN_META } from "@loopscope/protocol";
import { REPO_ROOT } from "../up/web-build.ts";

const BIN = join(REPO_ROOT, "apps", "server", "bin", "loopscope.mjs");

export interface UpProcess {
  child: ChildProcess;
  dashboard: string;
  /** The token the dashboard page carries (for the WebSocket and the API). */
  token: string;
  /** The page itself, as first fetched. */
  page: string;
  /** The path of its `export KUBECONFIG=…` line. */
  kubeconfig: string;
  stdout(): string;
  stderr(): string;
  /** SIGINT, as Ctrl-C; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL unless it has exited. */
  kill(): void;
}

/** Starts `up` on `kubeconfig`, recording to `record`, with `cwd` as its working folder. */
export function startUpProcess(
  kubeconfig: string,
  record: string,
  cwd: string,
): Promise<UpProcess> {
  return spawnUp(["--kubeconfig", kubeconfig, "--record", record], cwd);
}

/**
 * Starts `up` with `args` (the embedded cluster unless they name a kubeconfig) on a free port
 * (unless they name one: the later --port wins), with no web build and no resync, in `cwd`,
 * with `env` over this process's environment.
 */
export async function spawnUp(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<UpProcess> {
  const child = spawn(
    process.execPath,
    [BIN, "up", "--port", "0", "--no-build", "--resync", "0", ...args],
    // HOME is the test's folder (unless `env` says otherwise): a killed `up` leaves its
    // kubeconfig (~/.kube/loopscope) there, not in the user's home.
    { cwd, env: { ...process.env, HOME: cwd, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  try {
    // Both streams: stdout's lines may arrive after stderr's "up" line.
    await vi.waitFor(
      () => {
        expect(stderr).toContain("loopscope: up (cluster:");
        expect(stdout).toMatch(/^export KUBECONFIG=.*\n/m);
      },
      {
        timeout: 100_000,
        interval: 50,
      },
    );
    const dashboard = /^dashboard {2}(http:\/\/\S+)$/m.exec(stdout)![1]!;
    const kubeconfig = /^export KUBECONFIG=([^;\s]+)/m.exec(stdout)![1]!;
    const page = await (await fetch(dashboard)).text();
    const token = new RegExp(`name="${TOKEN_META}" content="([^"]+)"`).exec(page)![1]!;
    return {
      child,
      dashboard,
      token,
      page,
      kubeconfig,
      stdout: () => stdout,
      stderr: () => stderr,
      stop: () => {
        child.kill("SIGINT");
        return exited;
      },
      kill,
    };
  } catch (err) {
    kill();
    throw err;
  }
}
