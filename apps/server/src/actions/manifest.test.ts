import { expect, it } from "vitest";
import { HttpError } from "../http/respond.ts";
import { parseManifest } from "./manifest.ts";

const foo = (name: string) => `apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata:
  name: ${name}
spec:
  deploymentName: ${name}
  replicas: 1
`;

const rejects = (yaml: string): string => {
  try {
    parseManifest(yaml);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as Error).message;
  }
  throw new Error("accepted");
};

it("reads every document, defaulting the namespace", () => {
  const objects = parseManifest(
    `${foo("a")}---\n${foo("b").replace("metadata:", "metadata:\n  namespace: team")}`,
  );
  expect(objects.map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual([
    "Foo default/a",
    "Foo team/b",
  ]);
});

it("refuses the whole manifest when one document is bad, saying which and where", () => {
  expect(
    rejects(
      `${foo("a")}---\nkind: Foo\napiVersion: samplecontroller.k8s.io/v1alpha1\nmetadata: {name: "Bad_Name"}\n`,
    ),
  ).toMatch(/^document 2: metadata.name/);
  expect(rejects(`${foo("a")}---\nkind: Secret\napiVersion: v1\n`)).toMatch(
    /document 2: kind Secret not supported/,
  );
  expect(rejects(`kind: Foo\napiVersion: apps/v1\nmetadata: {name: a}\n`)).toMatch(
    /needs apiVersion samplecontroller/,
  );
  expect(rejects(`kind: Foo\n  bad: [indent\n`)).toMatch(/^document 1, line \d+:/);
  expect(rejects(`---\n# nothing\n`)).toMatch(/no objects/);
  expect(rejects(`- a\n- b\n`)).toMatch(/not a Kubernetes object/);
});

it("refuses a YAML alias bomb with the parser's reason, not as a cluster failure", () => {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (const n of "bcdefgh") {
    const prev = String.fromCharCode(n.charCodeAt(0) - 1);
    levels.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(", ")}]`);
  }
  expect(rejects(`kind: Foo\n${levels.join("\n")}\n`)).toMatch(
    /^document 1: Excessive alias count indicates a resource exhaustion attack/,
  );
});

it("treats kind names of Object.prototype's members as unknown kinds", () => {
  for (const kind of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    expect(rejects(`kind: ${kind}\napiVersion: v1\nmetadata: {name: a}\n`)).toMatch(
      `kind ${kind} not supported`,
    );
  }
});

it("keeps __proto__ and constructor keys of a manifest as plain data", () => {
  const [o] = parseManifest(`${foo("a")}  __proto__: {polluted: "yes"}\n  constructor: 3\n`);
  const spec = o!.body.spec as Record<string, unknown>;
  expect(Object.hasOwn(spec, "__proto__")).toBe(true);
  expect(spec.constructor).toBe(3);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
