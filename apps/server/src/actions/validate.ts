/**
 * Checks a POST /api/action body against ActionRequest before anything touches the cluster.
 * Names follow Kubernetes DNS-1123 rules, so no user string reaches a URL path unchecked.
 */
import type { ActionRequest, LessonSwitches } from "@loopscope/protocol";
import { HttpError } from "../http/respond.ts";

const DNS_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const LESSONS: readonly (keyof LessonSwitches)[] = ["hotLoopBug", "idempotentStatus"];

export function parseActionRequest(text: string): ActionRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "body is not JSON");
  }
  if (typeof body !== "object" || body === null) throw new HttpError(400, "body is not an object");
  const b = body as Record<string, unknown>;
  switch (b.action) {
    case "createFoo":
      return {
        action: "createFoo",
        namespace: ns(b.namespace),
        name: name(b.name),
        replicas: b.replicas === undefined ? undefined : replicas(b.replicas),
      };
    case "deleteFoo":
      return { action: "deleteFoo", namespace: ns(b.namespace), name: name(b.name) };
    case "scaleFoo":
      return {
        action: "scaleFoo",
        namespace: ns(b.namespace),
        name: name(b.name),
        replicas: replicas(b.replicas),
      };
    case "applyManifest":
      if (typeof b.yaml !== "string" || b.yaml.trim() === "")
        throw new HttpError(400, "yaml missing");
      return { action: "applyManifest", yaml: b.yaml };
    case "runScenario":
      if (typeof b.scenario !== "string" || !/^[a-z0-9-]{1,64}$/.test(b.scenario)) {
        throw new HttpError(400, "scenario must be a scenario name");
      }
      return { action: "runScenario", scenario: b.scenario };
    case "stopScenario":
      return { action: "stopScenario" };
    case "setLesson":
      if (!LESSONS.includes(b.lesson as keyof LessonSwitches) || typeof b.enabled !== "boolean") {
        throw new HttpError(
          400,
          `lesson must be one of ${LESSONS.join(", ")} with enabled: boolean`,
        );
      }
      return { action: "setLesson", lesson: b.lesson as keyof LessonSwitches, enabled: b.enabled };
    case "setFault":
      if (typeof b.fault !== "object" || b.fault === null)
        throw new HttpError(400, "fault missing");
      return {
        action: "setFault",
        fault: b.fault as Extract<ActionRequest, { action: "setFault" }>["fault"],
      };
    default:
      throw new HttpError(400, `unknown action ${JSON.stringify(b.action)}`);
  }
}

function ns(v: unknown): string {
  if (v === undefined) return "default";
  if (typeof v !== "string" || !NAMESPACE.test(v)) throw new HttpError(400, "bad namespace");
  return v;
}

function name(v: unknown): string {
  if (typeof v !== "string" || !DNS_NAME.test(v)) {
    throw new HttpError(400, "name must be a lowercase DNS name (a-z, 0-9, '-', '.')");
  }
  return v;
}

function replicas(v: unknown): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 1000) {
    throw new HttpError(400, "replicas must be an integer 0…1000");
  }
  return v as number;
}
