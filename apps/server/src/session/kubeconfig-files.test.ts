/**
 * loadKubeconfig's list of files, against kubectl's rules (client-go's loader, checked with
 * kubectl 1.32): a file of $KUBECONFIG's list that does not exist is skipped; one given alone, or
 * a list with none, is an error here (kubectl would try localhost:8080); a directory is an error.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadKubeconfig } from "./kubeconfig-files.ts";

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: dev
  cluster:
    server: https://127.0.0.1:6443
users:
- name: dev
  user:
    token: t
contexts:
- name: dev
  context:
    cluster: dev
    user: dev
current-context: dev
`;

let dir: string;
let real: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-kubeconfig-"));
  real = join(dir, "config");
  await writeFile(real, KUBECONFIG);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadKubeconfig of a list of files", () => {
  it("skips a file of the list that does not exist, wherever it stands", () => {
    const gone = join(dir, "nope.kubeconfig");
    for (const path of [`${gone}${delimiter}${real}`, `${real}${delimiter}${gone}`]) {
      const kc = loadKubeconfig(path, "dev");
      expect(kc.getCurrentCluster()?.server).toBe("https://127.0.0.1:6443");
    }
  });

  it("is an error when none of the list's files exists", () => {
    const path = `${join(dir, "a")}${delimiter}${join(dir, "b")}`;
    expect(() => loadKubeconfig(path)).toThrow(
      `cannot read kubeconfig ${path}: none of these files exists`,
    );
  });

  it("is an error when a file given alone does not exist", () => {
    expect(() => loadKubeconfig(join(dir, "missing"))).toThrow(
      /^cannot read kubeconfig .*missing: ENOENT/,
    );
  });

  it("is an error when a file of the list is a directory, as for kubectl", () => {
    expect(() => loadKubeconfig(`${dir}${delimiter}${real}`)).toThrow(
      `cannot read kubeconfig ${dir}${delimiter}${real}: EISDIR`,
    );
  });
});
