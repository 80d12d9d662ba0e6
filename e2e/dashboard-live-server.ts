/**
 * Starts `loopscope up --port 0` (or `loopscope replay FILE`) for a dashboard e2e spec and parses
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
  const child: ChildProcess = spawn(
    "pnpm",
    [
      "--silent",
      "loopscope",
      "up",
      "--port",
      "0",
      "--record",
      recording,
      "--no-build",
      "--resync",
      "0",
      ...extraArgs,
    ],
    { cwd: REPO, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const printed = await new Promise<{ url: string; kubeconfig: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`loopscope up printed no URL:\n${out}\n${err}`)),
      45_000,
    );
    child.once("exit", (code) => reject(new Error(`loopscope up exited ${code}:\n${err}`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /^dashboard\s+(\S+)/m.exec(out)?.[1];
      const kubeconfig = /export KUBECONFIG=(\S+)/m.exec(out)?.[1];
      if (url && kubeconfig) {
        clearTimeout(timer);
        resolve({ url, kubeconfig });
      }
    });
  });
  return {
    ...printed,
    recording,
    stop: () => stopGroup(child),
  };
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

/** `loopscope replay FILE --port 0`: the dashboard over a saved trace (no cluster, no kubeconfig). */
export async function startReplay(
  file: string,
): Promise<Omit<LiveServer, "kubeconfig" | "recording">> {
  const child: ChildProcess = spawn(
    "pnpm",
    ["--silent", "loopscope", "replay", file, "--port", "0", "--no-build"],
    { cwd: REPO, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`loopscope replay printed no URL:\n${out}\n${err}`)),
      45_000,
    );
    child.once("exit", (code) => reject(new Error(`loopscope replay exited ${code}:\n${err}`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^dashboard\s+(\S+)/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { url, stop: () => stopGroup(child) };
}
