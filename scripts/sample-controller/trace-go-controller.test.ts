/**
 * trace-go-controller.sh, run for real by bash with real git, against stand-ins for the two
 * things a test machine lacks — Go and a cluster: a `go` that "builds" a controller printing STAGE
 * lines, and a `kubectl` that records its calls. The checkout is made of the patch's own hunks
 * (upstream lines between them replaced by filler), enough for git to find the patch applied.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const SCRIPT = join(HERE, "trace-go-controller.sh");
const PATCH = readFileSync(join(HERE, "stage-lines.patch"), "utf8");

/** controller.go as the patch leaves it, at the right line numbers; filler elsewhere. */
function patchedSkeleton(): string {
  const out: string[] = [];
  const lines = PATCH.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const h = /^@@ -\d+,\d+ \+(\d+),\d+ @@/.exec(lines[i]);
    if (!h) continue;
    while (out.length < Number(h[1]) - 1) out.push("// filler");
    for (i++; i < lines.length && /^[ +-]/.test(lines[i]); i++) {
      if (!lines[i].startsWith("-")) out.push(lines[i].slice(1));
    }
    i--;
  }
  for (let k = 0; k < 10; k++) out.push("// filler");
  return out.join("\n") + "\n";
}

function fakeTools(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const controller = [
    "#!/bin/sh",
    `echo 'I1202 09:14:04.625866   48211 controller.go:177] "Started workers"' >&2`,
    `echo 'I1202 09:14:06.031344   48211 controller.go:131] STAGE/watch kind=Foo event=add key=default/example-foo rv=1001' >&2`,
    "trap 'exit 0' TERM",
    "while true; do sleep 0.05; done",
  ].join("\n");
  writeFileSync(
    join(bin, "go"),
    `#!/bin/sh\necho "go $*" >> "${dir}/calls"\ncat > ./sample-controller <<'EOF'\n${controller}\nEOF\nchmod +x ./sample-controller\n`,
  );
  writeFileSync(join(bin, "kubectl"), `#!/bin/sh\necho "kubectl $*" >> "${dir}/calls"\n`);
  chmodSync(join(bin, "go"), 0o755);
  chmodSync(join(bin, "kubectl"), 0o755);
  return bin;
}

function checkout(dir: string, controllerGo: string): string {
  const co = join(dir, "sample-controller");
  mkdirSync(co);
  writeFileSync(join(co, "go.mod"), "module k8s.io/sample-controller\n\ngo 1.26.0\n");
  writeFileSync(join(co, "controller.go"), controllerGo);
  return co;
}

const which = (tool: string) =>
  spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
const BASH = which("bash");

function runScript(args: string[], path: string) {
  return spawnSync(BASH, [SCRIPT, ...args], {
    encoding: "utf8",
    env: { ...process.env, PATH: path, KUBECONFIG: "/dev/null" },
    timeout: 60_000,
  });
}

describe("trace-go-controller.sh", () => {
  it("runs the exercise: build, CRD, controller at -v=2 teed to the log, delete/apply the Foo", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-sc-"));
    const bin = fakeTools(dir);
    const co = checkout(dir, patchedSkeleton());
    const log = join(dir, "trace.log");
    const r = runScript(
      [co, "--log", log, "--settle", "0", "--no-replay"],
      `${bin}:${process.env.PATH}`,
    );
    expect(r.stderr).toContain("already carries the STAGE lines");
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "calls"), "utf8").trim().split("\n")).toEqual([
      "go build -o ./sample-controller .",
      "kubectl cluster-info",
      "kubectl apply -f artifacts/examples/crd-status-subresource.yaml",
      "kubectl wait --for condition=established --timeout=60s crd/foos.samplecontroller.k8s.io",
      "kubectl delete foo example-foo --ignore-not-found",
      "kubectl apply -f artifacts/examples/example-foo.yaml",
    ]);
    expect(readFileSync(log, "utf8")).toContain("STAGE/watch kind=Foo event=add");
    expect(r.stderr).toContain(`1 STAGE lines in ${log}`);
  }, 30_000);

  it("refuses a controller.go of another version, and a folder that is no checkout", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-sc-"));
    const bin = fakeTools(dir);
    const co = checkout(dir, "package main\n\nfunc main() {}\n");
    let r = runScript([co, "--no-replay"], `${bin}:${process.env.PATH}`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("differs from the version this patch is for");
    expect(r.stderr).toContain("v0.33.x … v0.36.x");
    r = runScript([dir, "--no-replay"], `${bin}:${process.env.PATH}`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is not a kubernetes/sample-controller checkout");
  });

  it("says when Go is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-sc-"));
    // A PATH with what the script needs before its tool check, and no Go.
    const bin = join(dir, "bin");
    mkdirSync(bin);
    symlinkSync(which("dirname"), join(bin, "dirname"));
    const r = runScript([dir], bin);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Go is not installed");
  });
});
