/**
 * A Deployment's timing fields are validated as ValidateDeploymentSpec does, over real HTTP:
 * minReadySeconds, revisionHistoryLimit and progressDeadlineSeconds not negative, and the
 * deadline (600 when not given) longer than minReadySeconds — each a 422 in the real server's
 * words, and nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { DEPLOYMENTS, RawClient, deploymentBody } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ deploymentReadyDelayMs: 40, deploymentStepDelayMs: 5 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

interface StatusBody {
  reason: string;
  message: string;
  details: { causes: { reason: string; message: string; field: string }[] };
}

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
