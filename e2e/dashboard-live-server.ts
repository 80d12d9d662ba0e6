/**
 * Starts `loopscope up --port 0` (or `loopscope replay FILE`, `loopscope proxy`) for a dashboard e2e spec and parses
 * what it prints (dashboard URL, KUBECONFIG). The server runs in its own process group so
 * stopping it stops tsx's child too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./dashboard-harness.ts";

export interface LiveServer {
  url: string;
  kubeconfig: string;
  recording: string;
  stop(): Promise<void>;
}

/** `extraArgs`: more of `up`'s flags, e.g. `--kubeconfig FILE` for a cluster of the spec's own. */
export async function startUp(extraArgs: string[] = []): Promise<LiveServer> {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-up-"));
  const recording = join(dir, "run.jsonl");
  // --no-build: `pnpm e2e` has just built the dashboard; --resync 0 keeps the lanes deterministic.
  const args = ["up", "--port", "0", "--record", recording, "--no-build", "--resync", "0"];
  const { child, printed } = await startPrinting([...args, ...extraArgs], (out) => {
    const url = /^dashboard\s+(\S+)/m.exec(out)?.[1];
    const kubeconfig = /export KUBECONFIG=(\S+)/m.exec(out)?.[1];
    return url && kubeconfig ? { url, kubeconfig } : undefined;
  });
  return { ...printed, recording, stop: () => stopGroup(child) };
}

export interface ProxyServer extends LiveServer {
  /** The kubeconfig for the controller under test: through the proxy, recorded. */
  controllerKubeconfig: string;
}

/**
 * `loopscope proxy` over its embedded cluster, with its dashboard: `kubeconfig` goes straight to
 * the cluster (kubectl, unrecorded), `controllerKubeconfig` through the proxy.
 */
export async function startProxy(extraArgs: string[] = []): Promise<ProxyServer> {
  const recording = join(mkdtempSync(join(tmpdir(), "loopscope-e2e-proxy-")), "run.jsonl");
  const args = ["proxy", "--dashboard-port", "0", "--record", recording, "--no-build"];
  const { child, printed } = await startPrinting([...args, ...extraArgs], (out) => {
    const url = /^dashboard\s+(\S+)/m.exec(out)?.[1];
    const controllerKubeconfig = /^export KUBECONFIG=(\S+)/m.exec(out)?.[1];
    const kubeconfig = /^KUBECONFIG=(\S+) kubectl/m.exec(out)?.[1];
    return url && controllerKubeconfig && kubeconfig
      ? { url, controllerKubeconfig, kubeconfig }
      : undefined;
  });
  return { ...printed, recording, stop: () => stopGroup(child) };
}

/**
 * Spawns `loopscope ARGS` in a process group of its own and waits (45 s at most) until `parse`
 * finds what the spec needs in what it printed.
 */
async function startPrinting<T>(
  args: string[],
  parse: (out: string) => T | undefined,
): Promise<{ child: ChildProcess; printed: T }> {
  const child: ChildProcess = spawn("pnpm", ["--silent", "loopscope", ...args], {
    cwd: REPO,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const printed = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`loopscope ${args[0]} printed too little:\n${out}\n${err}`)),
      45_000,
    );
    child.once("exit", (code) => reject(new Error(`loopscope ${args[0]} exited ${code}:\n${err}`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const found = parse(out);
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  return { child, printed };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  signalGroup(child.pid!, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  signalGroup(child.pid!, "SIGKILL"); // whatever of the group is left (tsx's node child)
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

/**
 * `loopscope replay FILE --port 0`: the dashboard over a saved trace (no cluster, no kubeconfig);
 * `extraArgs`: more of `replay`'s flags, e.g. `--share`.
 */
export async function startReplay(
  file: string,
  extraArgs: string[] = [],
): Promise<Omit<LiveServer, "kubeconfig" | "recording">> {
  const { child, printed } = await startPrinting(
    ["replay", file, "--port", "0", "--no-build", ...extraArgs],
    (out) => /^dashboard\s+(\S+)/m.exec(out)?.[1],
  );
  return { url: printed, stop: () => stopGroup(child) };
}
