/**
 * `loopscope apiserver` as a real process: it prints the export line, the kubeconfig it wrote
 * works with kubectl (when present), and Ctrl-C (SIGINT) stops it with exit code 0.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
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

describe("loopscope apiserver", () => {
  it("parses its options and refuses bad ones", () => {
    expect(parseArgs([])).toEqual({ port: 0 });
    expect(parseArgs(["--port", "8081", "--ready-delay=200"])).toEqual({
      port: 8081,
      readyDelayMs: 200,
    });
    expect(parseArgs(["--port", "http"])).toMatch(/--port needs a port number/);
    expect(parseArgs(["--bogus"])).toBe("unknown option --bogus");
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
});
