/**
 * The embedded cluster's kubeconfig: one path per dashboard port in the user's own folder, so a
 * shell's `export KUBECONFIG=…` outlives a restart of `up`; never written through a planted
 * link, never left readable by others, and a fresh temp folder where the own one is not safe.
 */
import { execFile } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnUp } from "../testing/up-process.ts";
import { REPO_ROOT } from "./web-build.ts";
import { writeKubeconfigFile } from "./kubeconfig-file.ts";

let home: string;
let savedHome: string | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "loopscope-kchome-"));
  savedHome = process.env.HOME;
  // os.homedir() reads HOME: this file's own worker process, restored after.
  process.env.HOME = home;
});
afterAll(async () => {
  process.env.HOME = savedHome;
  await rm(home, { recursive: true, force: true });
});

const folder = () => join(home, ".kube", "loopscope");

describe("writeKubeconfigFile", () => {
  it("writes ~/.kube/loopscope/kubeconfig-PORT, 0600 in a 0700 folder, and removes just it", async () => {
    const file = await writeKubeconfigFile("first: 1\n", 7431);
    expect(file.path).toBe(join(folder(), "kubeconfig-7431"));
    expect((await lstat(file.path)).mode & 0o777).toBe(0o600);
    expect((await lstat(folder())).mode & 0o777).toBe(0o700);
    // A later run on the port writes the same path anew.
    const again = await writeKubeconfigFile("second: 2\n", 7431);
    expect(again.path).toBe(file.path);
    expect(await readFile(file.path, "utf8")).toBe("second: 2\n");
    await again.remove();
    await expect(lstat(file.path)).rejects.toThrow(/ENOENT/);
    expect((await lstat(folder())).isDirectory()).toBe(true);
  });

  it("replaces a link planted at the name instead of writing through it", async () => {
    const victim = join(home, "victim");
    await writeFile(victim, "precious\n");
    await mkdir(folder(), { recursive: true });
    await symlink(victim, join(folder(), "kubeconfig-7432"));
    const file = await writeKubeconfigFile("cfg: 1\n", 7432);
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect((await lstat(file.path)).isSymbolicLink()).toBe(false);
    expect(await readFile(file.path, "utf8")).toBe("cfg: 1\n");
    await file.remove();
  });

  it("uses a fresh private temp folder when the own folder is writable by others", async () => {
    await mkdir(folder(), { recursive: true });
    await chmod(folder(), 0o777);
    try {
      const file = await writeKubeconfigFile("cfg: 1\n", 7433);
      expect(file.path.startsWith(folder())).toBe(false);
      expect(file.path).toMatch(/loopscope-[^/]+\/kubeconfig$/);
      await file.remove();
    } finally {
      await chmod(folder(), 0o700);
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

it(
  "the KUBECONFIG a shell exported still reaches the cluster after `up` is restarted",
  { timeout: 240_000 },
  async () => {
    const port = await freePort();
    const manifest = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");
    const kubectl = (path: string, ...args: string[]) =>
      promisify(execFile)("kubectl", args, { env: { ...process.env, KUBECONFIG: path } });
    const first = await spawnUp(["--port", String(port)], home, { HOME: home });
    const exported = first.kubeconfig;
    try {
      expect(exported).toBe(join(folder(), `kubeconfig-${port}`));
      await kubectl(exported, "apply", "-f", manifest);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await spawnUp(["--port", String(port)], home, { HOME: home });
    try {
      expect(second.kubeconfig).toBe(exported);
      // The new run's cluster (its API server on another port), through the old shell's path.
      const { stdout } = await kubectl(exported, "get", "foo", "-o", "name");
      expect(stdout).toBe("");
      await kubectl(exported, "apply", "-f", manifest);
      expect((await kubectl(exported, "get", "foo", "-o", "name")).stdout).toBe(
        "foo.samplecontroller.k8s.io/example-foo\n",
      );
    } finally {
      expect(await second.stop()).toBe(0);
    }
    await expect(lstat(exported)).rejects.toThrow(/ENOENT/);
  },
);
