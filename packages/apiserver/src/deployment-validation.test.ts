/**
 * A Deployment's spec is validated as apps validation does it, over real HTTP and with the real
 * kubectl. Its strategy: Recreate with `rollingUpdate` is Forbidden (the classic `kubectl patch` to
 * Recreate that leaves the defaulted rollingUpdate behind), maxSurge and maxUnavailable both 0,
 * maxUnavailable over 100 %, negative values and malformed percents are Invalid, an unknown type
 * NotSupported. Its timing fields: minReadySeconds, revisionHistoryLimit and
 * progressDeadlineSeconds not negative, the deadline (600 when not given) longer than
 * minReadySeconds. Each a 422 in the real server's words, and nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import {
  DEPLOYMENTS,
  RawClient,
  deploymentBody,
  type KObj,
  type StatusBody,
} from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ deploymentReadyDelayMs: 40, deploymentStepDelayMs: 5 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const withStrategy = (name: string, strategy: unknown) => {
  const body = deploymentBody(name);
  return { ...body, spec: { ...body.spec, strategy } };
};

const RU = "spec.strategy.rollingUpdate";

describe("a Deployment's strategy", () => {
  const refused: [string, unknown, string, string][] = [
    [
      "recreate-ru",
      { type: "Recreate", rollingUpdate: { maxSurge: 1 } },
      "FieldValueForbidden",
      `${RU}: Forbidden: may not be specified when strategy \`type\` is 'Recreate'`,
    ],
    [
      "zero-zero",
      { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
      "FieldValueInvalid",
      `${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when \`maxSurge\` is 0`,
    ],
    [
      "zero-percent",
      { rollingUpdate: { maxSurge: "0%", maxUnavailable: "0%" } },
      "FieldValueInvalid",
      `${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when \`maxSurge\` is 0`,
    ],
    [
      "over-100",
      { rollingUpdate: { maxUnavailable: "110%" } },
      "FieldValueInvalid",
      `${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%`,
    ],
    [
      "negative",
      { rollingUpdate: { maxSurge: -1 } },
      "FieldValueInvalid",
      `${RU}.maxSurge: Invalid value: -1: must be greater than or equal to 0`,
    ],
    [
      "bad-percent",
      { rollingUpdate: { maxSurge: "5 %" } },
      "FieldValueInvalid",
      `${RU}.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5 %"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ],
    [
      "unknown-type",
      { type: "BlueGreen" },
      "FieldValueNotSupported",
      `spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"`,
    ],
  ];

  it.each(refused)("%s is a 422, nothing stored", async (name, strategy, reason, error) => {
    const r = await c.post<StatusBody>(DEPLOYMENTS, withStrategy(name, strategy));
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("Invalid");
    expect(r.body.message).toBe(`Deployment.apps "${name}" is invalid: ${error}`);
    const [field, ...rest] = error.split(": ");
    expect(r.body.details.causes).toEqual([{ reason, message: rest.join(": "), field }]);
    expect((await c.get(`${DEPLOYMENTS}/${name}`)).status).toBe(404);
  });

  it("accepts a surge over 100 %, one zero, Recreate alone and an empty type (defaulted)", async () => {
    const ok: [string, unknown][] = [
      ["surge-200", { rollingUpdate: { maxSurge: "200%", maxUnavailable: 0 } }],
      ["one-zero", { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }],
      ["recreate", { type: "Recreate" }],
      ["empty-type", { type: "" }],
    ];
    for (const [name, strategy] of ok) {
      const r = await c.post<KObj & { spec: { strategy: unknown } }>(
        DEPLOYMENTS,
        withStrategy(name, strategy),
      );
      expect(r.status, name).toBe(201);
    }
    const empty = await c.get<{ spec: { strategy: unknown } }>(`${DEPLOYMENTS}/empty-type`);
    expect(empty.body.spec.strategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
  });

  it("refuses a patch to Recreate that keeps the defaulted rollingUpdate; one that drops it passes", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("to-recreate"));
    const path = `${DEPLOYMENTS}/to-recreate`;
    const kept = await c.patch<StatusBody>(path, { spec: { strategy: { type: "Recreate" } } });
    expect(kept.status).toBe(422);
    expect(kept.body.message).toBe(
      `Deployment.apps "to-recreate" is invalid: ${RU}: Forbidden: may not be specified when strategy \`type\` is 'Recreate'`,
    );
    const dropped = await c.patch<{ spec: { strategy: unknown } }>(path, {
      spec: { strategy: { type: "Recreate", rollingUpdate: null } },
    });
    expect(dropped.status).toBe(200);
    expect(dropped.body.spec.strategy).toEqual({ type: "Recreate" });
  });
});

const withSpec = (name: string, extra: Record<string, unknown>) => {
  const body = deploymentBody(name);
  return { ...body, spec: { ...body.spec, ...extra } };
};

describe("a Deployment's timing fields", () => {
  const refused: [string, Record<string, unknown>, string[]][] = [
    [
      "min-ready",
      { minReadySeconds: -1 },
      ["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
    ],
    [
      "history",
      { revisionHistoryLimit: -2 },
      ["spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0"],
    ],
    [
      "deadline",
      { progressDeadlineSeconds: -5 },
      [
        "spec.progressDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0",
        "spec.progressDeadlineSeconds: Invalid value: -5: must be greater than minReadySeconds",
      ],
    ],
    // The deadline defaulted to 600 first, as a cluster does.
    [
      "slow-ready",
      { minReadySeconds: 700 },
      ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"],
    ],
    [
      "equal",
      { minReadySeconds: 30, progressDeadlineSeconds: 30 },
      ["spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"],
    ],
  ];

  it.each(refused)("%s is a 422, nothing stored", async (name, extra, errors) => {
    const r = await c.post<StatusBody>(DEPLOYMENTS, withSpec(name, extra));
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("Invalid");
    const listed = errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`;
    expect(r.body.message).toBe(`Deployment.apps "${name}" is invalid: ${listed}`);
    expect(r.body.details.causes.map((x) => `${x.field}: ${x.message}`)).toEqual(errors);
    expect((await c.get(`${DEPLOYMENTS}/${name}`)).status).toBe(404);
  });

  it("accepts zeros where zero is a value, and a deadline past minReadySeconds", async () => {
    const ok = withSpec("timed", {
      minReadySeconds: 5,
      revisionHistoryLimit: 0,
      progressDeadlineSeconds: 6,
    });
    expect((await c.post(DEPLOYMENTS, ok)).status).toBe(201);
  });
});

const kubectl = findDefaultKubectl();

describe.skipIf(!kubectl)("kubectl and a Recreate strategy with rollingUpdate", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectl!, server));
  });
  afterAll(() => cleanup());

  const failure = (p: Promise<string>) =>
    p.then(
      () => "",
      (e: Error) => e.message,
    );

  it("apply says the Deployment is invalid, as against a cluster", async () => {
    const path = await k.manifest(
      "recreate.yaml",
      withStrategy("k-recreate", { type: "Recreate", rollingUpdate: { maxSurge: 1 } }),
    );
    expect(await failure(k.run("apply", "-f", path))).toContain(
      `The Deployment "k-recreate" is invalid: ${RU}: Forbidden: may not be specified when strategy \`type\` is 'Recreate'`,
    );
  });

  it("patch to Recreate without dropping rollingUpdate fails the same way", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("k-patch"));
    expect(
      await failure(
        k.run("patch", "deployment", "k-patch", "-p", '{"spec":{"strategy":{"type":"Recreate"}}}'),
      ),
    ).toContain(
      `The Deployment "k-patch" is invalid: ${RU}: Forbidden: may not be specified when strategy \`type\` is 'Recreate'`,
    );
  });
});
