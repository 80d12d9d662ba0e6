/**
 * `loopscope apiserver` as a real process: it prints the export line, the kubeconfig it wrote
 * works with kubectl (when present), and Ctrl-C (SIGINT) stops it with exit code 0. Its default
 * kubeconfig goes in a fresh private folder, and no kubeconfig is written through a link.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "./apiserver.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-apiserver-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts `loopscope apiserver ARGS`; resolves once it printed its export line (or exited). */
function startApiserver(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(
    join(ROOT, "node_modules/.bin/tsx"),
    ["apps/server/src/main.ts", "apiserver", ...args],
    { cwd: ROOT, env },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => {
    child.stdout.on("data", () => out.includes("export KUBECONFIG=") && resolve());
    void exited.then(() => resolve());
  });
  return { child, exited, ready, out: () => out, err: () => err };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("loopscope apiserver", () => {
  it("parses its options and refuses bad ones", () => {
    expect(parseArgs([])).toEqual({ port: 0 });
    expect(parseArgs(["--port", "8081", "--ready-delay=200"])).toEqual({
      port: 8081,
      readyDelayMs: 200,
    });
    expect(parseArgs(["--port", "http"])).toMatch(/--port needs a port number/);
    expect(parseArgs(["--bogus"])).toBe("unknown option --bogus");
    expect(parseArgs(["--kubeconfig", "-"])).toMatch(/^--kubeconfig -: .* from a file, not stdout/);
  });

  it("serves until SIGINT, with a kubeconfig kubectl accepts", async () => {
    const kubeconfig = join(dir, "kubeconfig.yaml");
    const child = spawn(
      join(ROOT, "node_modules/.bin/tsx"),
      ["apps/server/src/main.ts", "apiserver", "--kubeconfig", kubeconfig],
      { cwd: ROOT },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => out.includes("export KUBECONFIG=") && resolve());
        child.on("exit", () => reject(new Error(`exited early: ${out}`)));
      });
      expect(out).toContain(`export KUBECONFIG=${kubeconfig}\n`);
      const config = await readFile(kubeconfig, "utf8");
      expect(config).toContain("insecure-skip-tls-verify: true");
      const server = /server: "(http:\/\/127\.0\.0\.1:\d+)"/.exec(config)?.[1];
      expect((await (await fetch(`${server}/version`)).json()) as object).toMatchObject({
        minor: "32",
      });
      const listed = await new Promise<string | undefined>((resolve) =>
        execFile(
          "kubectl",
          ["apply", "-f", join(ROOT, "public/manifests/example-foo.yaml")],
          { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig } },
          (err, stdout) =>
            resolve(err && (err as NodeJS.ErrnoException).code === "ENOENT" ? undefined : stdout),
        ),
      );
      if (listed === undefined)
        console.warn(
          "*** kubectl NOT FOUND: skipped the kubectl step of the apiserver CLI test ***",
        );
      else expect(listed).toContain("foo.samplecontroller.k8s.io/example-foo created");
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    expect(out).toContain("embedded API server stopped");
  });

  it("prints an export line a shell reads back whole, for a --kubeconfig path with spaces", async () => {
    const kubeconfig = join(dir, "My Configs", "kube config.yaml");
    await mkdir(join(dir, "My Configs"), { recursive: true });
    const p = startApiserver(["--kubeconfig", kubeconfig]);
    try {
      await p.ready;
      const line = /^export KUBECONFIG=.*$/m.exec(p.out())![0];
      const read = await new Promise<string>((resolve) =>
        execFile("sh", ["-c", `${line}; printf %s "$KUBECONFIG"`], (_e, stdout) => resolve(stdout)),
      );
      expect(read).toBe(kubeconfig);
    } finally {
      p.child.kill("SIGINT");
      await p.exited;
    }
  });

  it("writes its default kubeconfig in a fresh private folder, never at a path planted before", async () => {
    // The path it used to write, in a temp folder of this test's own: a link planted there
    // pointed the write at another file.
    const tmp = join(dir, "tmp");
    const port = await freePort();
    await mkdir(join(tmp, "loopscope"), { recursive: true });
    const victim = join(dir, "victim.txt");
    await writeFile(victim, "precious\n");
    await symlink(victim, join(tmp, "loopscope", `kubeconfig-${port}.yaml`));
    const p = startApiserver(["--port", String(port)], { ...process.env, TMPDIR: tmp });
    try {
      await p.ready;
      const path = /export KUBECONFIG=(\S+)/.exec(p.out())![1]!;
      expect(path.startsWith(tmp)).toBe(true);
      expect(path).not.toContain(`${tmp}/loopscope/`);
      expect((await stat(join(path, ".."))).mode & 0o777).toBe(0o700);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect(await readFile(path, "utf8")).toContain(`server: "http://127.0.0.1:${port}"`);
      expect(await readFile(victim, "utf8")).toBe("precious\n");
      p.child.kill("SIGINT");
      expect(await p.exited).toBe(0);
      await expect(stat(path)).rejects.toThrow(/ENOENT/);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("refuses a --kubeconfig in a folder that is not there, rather than make it", async () => {
    const missing = join(dir, "no-such-folder", "k.yaml");
    const p = startApiserver(["--kubeconfig", missing]);
    try {
      expect(await p.exited).toBe(1);
      expect(p.err()).toContain(
        `cannot write the kubeconfig: no such directory: ${join(dir, "no-such-folder")}`,
      );
      expect(existsSync(join(dir, "no-such-folder"))).toBe(false);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("refuses to write --kubeconfig through a symbolic link, and says so", async () => {
    const victim = join(dir, "victim2.txt");
    await writeFile(victim, "precious\n");
    const link = join(dir, "link.yaml");
    await symlink(victim, link);
    const p = startApiserver(["--kubeconfig", link]);
    try {
      expect(await p.exited).toBe(1);
      expect(p.err()).toContain(`${link} is a symbolic link: not written through it`);
      expect(await readFile(victim, "utf8")).toBe("precious\n");
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readlink(link)).toBe(victim);
    } finally {
      p.child.kill("SIGKILL");
    }
  });
});
