/**
 * The real kubectl against the embedded server: the default binary (the Google Cloud SDK
 * dispatcher, which picks kubectl 1.32 from our /version) runs the full set; every bundled minor
 * version runs a smaller apply / get / delete set, concurrently, each against its own server.
 * kubectl 1.27 and 1.28 validate with protobuf OpenAPI v2, which the server does not serve, so
 * they apply with --validate=false (see the k8s-api-surface reference, §2.3).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import {
  DEPLOYMENTS,
  FOOS,
  RawClient,
  deploymentBody,
  eventually,
  type KObj,
} from "./testing/raw-client.ts";

const MANIFESTS = fileURLToPath(new URL("../../../public/manifests/", import.meta.url));
const SDK_BIN = "/usr/lib/google-cloud-sdk/bin";

const defaultKubectl = findDefaultKubectl();
const versioned = existsSync(SDK_BIN)
  ? readdirSync(SDK_BIN)
      .filter((f) => /^kubectl\.1\.\d+$/.test(f))
      .sort((a, b) => Number(a.split(".")[2]) - Number(b.split(".")[2]))
  : [];

if (!defaultKubectl) {
  console.warn(
    "\n*** kubectl NOT FOUND on PATH: the kubectl compatibility tests are SKIPPED ***\n",
  );
}
if (versioned.length === 0) {
  console.warn(
    `\n*** no bundled kubectl.1.* in ${SDK_BIN}: the per-version kubectl tests are SKIPPED ***\n`,
  );
}

/** example-foo.yaml with another replica count, written next to the kubectl home. */
async function editedFoo(dir: string, replicas: number): Promise<string> {
  const text = await readFile(join(MANIFESTS, "example-foo.yaml"), "utf8");
  const path = join(dir, `example-foo-${replicas}.yaml`);
  await writeFile(path, text.replace(/replicas: \d+/, `replicas: ${replicas}`));
  return path;
}

const rows = (out: string) =>
  out
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));

/** A bound for slow kubectl start-ups on a loaded machine, not a performance assertion. */
const KUBECTL_TEST_TIMEOUT = 120_000;

describe.skipIf(!defaultKubectl)(
  "kubectl (default binary, full set)",
  { timeout: KUBECTL_TEST_TIMEOUT },
  () => {
    let server: ApiServer;
    let k: Kubectl;
    let cleanup: () => Promise<void>;
    let c: RawClient;

    beforeAll(async () => {
      server = await startApiServer({
        deploymentReadyDelayMs: 50,
        deploymentStepDelayMs: 5,
        garbageCollectionDelayMs: 1,
      });
      ({ k, cleanup } = await kubectlFor(defaultKubectl as string, server));
      c = new RawClient(server.url);
    });
    afterAll(async () => {
      await server.stop();
      await cleanup();
    });

    it("applies the CRD and example-foo verbatim, then an edit", async () => {
      // Listed from the start (Foos are built in), so applying it configures it, warning-free.
      expect(await k.run("get", "crd", "-o", "name")).toBe(
        "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io\n",
      );
      expect(await k.run("apply", "-f", join(MANIFESTS, "crd.yaml"))).toBe(
        "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io configured\n",
      );
      expect(await k.run("apply", "-f", join(MANIFESTS, "example-foo.yaml"))).toContain(
        "foo.samplecontroller.k8s.io/example-foo created",
      );
      expect(await k.run("apply", "-f", join(MANIFESTS, "example-foo.yaml"))).toContain(
        "unchanged",
      );
      const edited = await editedFoo(k.env.HOME as string, 3);
      expect(await k.run("apply", "-f", edited)).toContain(
        "foo.samplecontroller.k8s.io/example-foo configured",
      );
      const foo = (await c.get<KObj>(`${FOOS}/example-foo`)).body;
      expect(foo.spec).toEqual({ deploymentName: "example-foo", replicas: 3 });
      expect(foo.metadata.generation).toBe(2);
    });

    it("explains a Foo: its fields, with the descriptions a cluster gives the common ones", async () => {
      const out = await k.run("explain", "foo");
      expect(out).toContain("KIND:       Foo");
      expect(out).toMatch(/apiVersion\s+<string>\s+APIVersion defines the versioned schema/);
      expect(out).toMatch(/metadata\s+<Object>\s+Standard object's metadata/);
      // spec and status have none: the sample-controller's CRD gives them none.
      expect(out).toMatch(/kind\s+<string>\s+Kind is a string value/);
      expect(await k.run("explain", "foo.spec.replicas")).toContain("FIELD: replicas <integer>");
    });

    it("lists the applied CRD (get crd: a Table of PartialObjectMetadata rows) and gets it as YAML", async () => {
      const name = "foos.samplecontroller.k8s.io";
      for (const resource of ["crd", "crds", "customresourcedefinitions"]) {
        const table = rows(await k.run("get", resource));
        expect(table[0], resource).toEqual(["NAME", "CREATED", "AT"]);
        expect(
          table.map((r) => r[0]),
          resource,
        ).toEqual(["NAME", name]);
        expect(table[1][1], resource).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
      expect(await k.run("get", "crd", "-o", "name")).toBe(
        `customresourcedefinition.apiextensions.k8s.io/${name}\n`,
      );
      const yaml = await k.run("get", "crd", name, "-o", "yaml");
      expect(yaml).toContain("kind: CustomResourceDefinition");
      expect(yaml).toContain(`name: ${name}`);
      expect(yaml).toContain("group: samplecontroller.k8s.io");
      expect(yaml).toMatch(
        /type: Established\n\s+status: "True"|status: "True"\n\s+type: Established/,
      );
      // Names completed as apiextensions defaults them, and accepted so.
      const crd = JSON.parse(await k.run("get", "crd", name, "-o", "json"));
      const names = { kind: "Foo", listKind: "FooList", plural: "foos", singular: "foo" };
      expect(crd.spec.names).toEqual(names);
      expect(crd.status.acceptedNames).toEqual(names);
    });

    it("gets foos as a table and as YAML", async () => {
      const table = rows(await k.run("get", "foo"));
      expect(table[0]).toEqual(["NAME", "AGE"]);
      expect(table[1][0]).toBe("example-foo");
      expect(table[1][1]).toMatch(/^\d+s$/);
      const yaml = await k.run("get", "foos", "-o", "yaml");
      expect(yaml).toContain("kind: Foo");
      expect(yaml).toContain("name: example-foo");
      expect(yaml).toContain("replicas: 3");
    });

    it("label, then remove the last label: no empty labels map is left", async () => {
      await k.run("label", "foo", "example-foo", "tier=web");
      expect(await k.run("get", "foo", "example-foo", "-o", "yaml")).toContain("tier: web");
      await k.run("label", "foo", "example-foo", "tier-");
      const yaml = await k.run("get", "foo", "example-foo", "-o", "yaml");
      expect(yaml).not.toContain("labels:");
    });

    it("apply --server-side fails saying server-side apply is not served, and what to run", async () => {
      const err = await k
        .run("apply", "--server-side", "-f", join(MANIFESTS, "example-foo.yaml"))
        .then(
          (out) => `unexpected success: ${out}`,
          (e: Error) => e.message,
        );
      // kubectl recognizes the 415 and quotes the server's message.
      expect(err).toContain(
        "error: Server-side apply not available on the server: (server-side apply (application/apply-patch+yaml) is not served by loopscope's embedded API server: use client-side apply (kubectl apply without --server-side); accepted patch media types: application/json-patch+json, application/merge-patch+json)",
      );
    });

    it("gets, edits and scales Deployments", async () => {
      const deployment = join(k.env.HOME as string, "web.yaml");
      const manifest = (image: string) =>
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n        image: ${image}\n`;
      await writeFile(deployment, manifest("nginx:1.24"));
      expect(await k.run("apply", "-f", deployment)).toContain("deployment.apps/web created");
      const table = await eventually(async () => {
        const t = rows(await k.run("get", "deployments"));
        return t[1]?.[1] === "2/2" ? t : undefined;
      });
      expect(table[0]).toEqual(["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]);
      expect(table[1].slice(0, 4)).toEqual(["web", "2/2", "2", "2"]);
      await writeFile(deployment, manifest("nginx:1.25"));
      expect(await k.run("apply", "-f", deployment)).toContain("deployment.apps/web configured");
      expect(
        await k.run(
          "get",
          "deploy",
          "web",
          "-o",
          "jsonpath={.spec.template.spec.containers[*].image}",
        ),
      ).toBe("nginx:1.25");
      expect(await k.run("scale", "deployment", "web", "--replicas=3")).toContain(
        "deployment.apps/web scaled",
      );
      await eventually(async () => rows(await k.run("get", "deployments"))[1]?.[1] === "3/3");
      const wide = rows(await k.run("get", "deployments", "-o", "wide"));
      expect(wide[0]).toEqual([
        "NAME",
        "READY",
        "UP-TO-DATE",
        "AVAILABLE",
        "AGE",
        "CONTAINERS",
        "IMAGES",
        "SELECTOR",
      ]);
      expect(wide[1].slice(5)).toEqual(["nginx", "nginx:1.25", "app=web"]);
    });

    it("deletes example-foo and its owned Deployment disappears by garbage collection", async () => {
      const foo = (await c.get<KObj>(`${FOOS}/example-foo`)).body;
      const owner = {
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        name: "example-foo",
        uid: foo.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      };
      expect(
        (await c.post(DEPLOYMENTS, deploymentBody("example-foo", 1, "nginx:latest", [owner])))
          .status,
      ).toBe(201);
      expect(await k.run("delete", "foo", "example-foo")).toContain(
        'foo.samplecontroller.k8s.io "example-foo" deleted',
      );
      await eventually(
        async () =>
          !(await k.run("get", "deployments", "-o", "name")).includes(
            "deployment.apps/example-foo",
          ),
      );
      expect(await k.run("get", "deployments", "-o", "name")).toContain("deployment.apps/web");
    });

    it("streams add / modify / delete with get foo -w", async () => {
      const child = spawn(k.bin, ["get", "foo", "-w", "--output-watch-events"], { env: k.env });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      try {
        // No Foo exists, so kubectl prints nothing until the first event: wait for its watch.
        await eventually(() => server.activeWatches() > 0);
        await c.createFoo("watched");
        await c.patch(`${FOOS}/watched`, { spec: { replicas: 2 } });
        await c.delete(`${FOOS}/watched`);
        await eventually(() => /DELETED\s+watched/.test(out));
        const events = rows(out)
          .filter((r) => r[1] === "watched")
          .map((r) => r[0]);
        expect(events).toEqual(["ADDED", "MODIFIED", "DELETED"]);
      } finally {
        child.kill();
      }
    });

    it("creates a Deployment from kubectl's generator (a protobuf body)", async () => {
      expect(
        await k.run(
          "create",
          "deployment",
          "gen",
          "--image=nginx:1.25",
          "--replicas=2",
          "--port=8080",
        ),
      ).toContain("deployment.apps/gen created");
      const d = (await c.get<KObj>(`${DEPLOYMENTS}/gen`)).body;
      expect(d.metadata.labels).toEqual({ app: "gen" });
      expect(d.spec).toMatchObject({
        replicas: 2,
        selector: { matchLabels: { app: "gen" } },
        template: {
          metadata: { labels: { app: "gen" } },
          spec: {
            containers: [
              {
                name: "nginx",
                image: "nginx:1.25",
                ports: [{ containerPort: 8080, protocol: "TCP" }],
              },
            ],
          },
        },
      });
      expect(JSON.stringify(d.spec)).not.toContain("hostPort");
    });

    it("refuses a misspelt field (kubectl's fieldValidation=Strict), in metadata and in a Deployment's spec", async () => {
      const path = join(k.env.HOME as string, "typo.yaml");
      await writeFile(
        path,
        `apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
  lables: {app: typo}
spec:
  replica: 4
  selector: {matchLabels: {app: typo}}
  template:
    metadata: {labels: {app: typo}}
    spec:
      containers: [{name: nginx, image: "nginx:1.25"}]
`,
      );
      const err = await k.run("apply", "-f", path).then(
        (out) => `unexpected success: ${out}`,
        (e: Error) => e.message,
      );
      expect(err).toContain(
        'Error from server (BadRequest): error when creating "' +
          path +
          '": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.lables", unknown field "spec.replica"',
      );
      expect((await c.get(`${DEPLOYMENTS}/typo`)).status).toBe(404);
    });

    it("creates a namespace and applies into it", async () => {
      expect(await k.run("create", "namespace", "demo")).toContain("namespace/demo created");
      expect(rows(await k.run("get", "namespace", "demo"))[1].slice(0, 2)).toEqual([
        "demo",
        "Active",
      ]);
      expect(
        await k.run("-n", "demo", "apply", "-f", join(MANIFESTS, "example-foo.yaml")),
      ).toContain("created");
      expect(
        (await c.get("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/demo/foos/example-foo"))
          .status,
      ).toBe(200);
    });
  },
);

describe.skipIf(versioned.length === 0)(
  "kubectl, each bundled minor version (apply / get / delete)",
  () => {
    it.concurrent.each(versioned)("%s", async (name) => {
      const minor = Number(name.split(".")[2]);
      const server = await startApiServer();
      const { k, cleanup } = await kubectlFor(join(SDK_BIN, name), server);
      try {
        // 1.27/1.28 need protobuf OpenAPI v2 for client-side validation (not served).
        const validate = minor < 29 ? ["--validate=false"] : [];
        expect(
          await k.run("apply", ...validate, "-f", join(MANIFESTS, "example-foo.yaml")),
        ).toContain("example-foo created");
        expect(
          await k.run("apply", ...validate, "-f", await editedFoo(k.env.HOME as string, 4)),
        ).toContain("example-foo configured");
        const table = rows(await k.run("get", "foo"));
        expect(table[0]).toEqual(["NAME", "AGE"]);
        expect(table[1][0]).toBe("example-foo");
        const c = new RawClient(server.url);
        expect((await c.get<KObj>(`${FOOS}/example-foo`)).body.spec?.replicas).toBe(4);
        expect(await k.run("delete", "foo", "example-foo")).toContain("deleted");
        expect((await c.get(`${FOOS}/example-foo`)).status).toBe(404);
      } finally {
        await server.stop();
        await cleanup();
      }
    });
  },
);
