/**
 * The issue's one kubectl command against the real `loopscope up`: a JSON patch whose path
 * walks `__proto__`. It used to answer "patched (no change)" after writing onto Object.prototype
 * of `up`'s process, which then died within a second in prom-client's label check (and the
 * dashboard's routing changed). Now the API server refuses the path as missing, and `up` goes on
 * serving: the dashboard page, /metrics, and the controller (a Foo created afterwards syncs).
 * The same keys as plain data (a merge patch of the Foo's spec) are pruned by its schema.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { TOKEN_HEADER } from "@loopscope/protocol";
import { REPO_ROOT } from "../up/web-build.ts";
import { spawnUp, type UpProcess } from "../testing/up-process.ts";

const MANIFEST = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");

let dir: string;
let up: UpProcess;

function kubectl(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) =>
    execFile(
      "kubectl",
      args,
      { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: up.kubeconfig }, timeout: 60_000 },
      (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }),
    ),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-proto-"));
  up = await spawnUp(["--record", join(dir, "run.jsonl")], dir);
}, 120_000);

afterAll(async () => {
  up?.kill();
  await rm(dir, { recursive: true, force: true });
});

it("kubectl patch --type=json into /__proto__ is refused, and up keeps serving", async () => {
  expect((await kubectl("apply", "-f", MANIFEST)).out).toContain("example-foo created");
  const patched = await kubectl(
    "patch",
    "foo",
    "example-foo",
    "--type=json",
    "-p",
    '[{"op":"add","path":"/__proto__/x","value":"1"}]',
  );
  expect(patched.code).not.toBe(0);
  expect(patched.err).toMatch(/missing path "\/__proto__\/x"/);

  const merged = await kubectl(
    "patch",
    "foo",
    "example-foo",
    "--type=merge",
    "-p",
    '{"spec":{"__proto__":{"x":"1"},"constructor":{"prototype":{"y":"2"}}}}',
  );
  expect(merged.out).toContain("patched (no change)");
  const spec = JSON.parse((await kubectl("get", "foo", "example-foo", "-o", "json")).out).spec;
  expect(Object.keys(spec).sort()).toEqual(["deploymentName", "replicas"]);

  // What killed `up` came within a second of the patch: give it three.
  await new Promise((r) => setTimeout(r, 3000));
  expect(up.child.exitCode).toBeNull();
  const metrics = await fetch(new URL("/metrics", up.dashboard));
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain("workqueue_depth");
  expect((await fetch(up.dashboard)).status).toBe(200);
  const info = await fetch(new URL("/api/info", up.dashboard), {
    headers: { [TOKEN_HEADER]: up.token },
  });
  expect(info.status).toBe(200);

  // The controller still works: a change to the Foo reaches its Deployment.
  expect(
    (await kubectl("patch", "foo", "example-foo", "--type=merge", "-p", '{"spec":{"replicas":2}}'))
      .out,
  ).toContain("patched");
  await vi.waitFor(
    async () => {
      const d = JSON.parse((await kubectl("get", "deploy", "example-foo", "-o", "json")).out);
      expect(d.spec.replicas).toBe(2);
    },
    { timeout: 30_000, interval: 250 },
  );
  expect(up.stderr()).not.toMatch(/TypeError|RangeError|at .*\.ts:\d+/);
}, 120_000);
