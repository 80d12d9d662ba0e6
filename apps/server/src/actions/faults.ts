/**
 * Applies a setFault request to the embedded API server's fault injector. Only the fields
 * present change; the answer says what is now in force.
 */
import type { Faults } from "@loopscope/apiserver";
import type { ActionRequest } from "@loopscope/protocol";
import { HttpError } from "../http/respond.ts";

type FaultRequest = Extract<ActionRequest, { action: "setFault" }>["fault"];
const VERBS = ["get", "list", "watch", "create", "update", "patch", "delete"] as const;

export function applyFault(faults: Faults, f: FaultRequest): string {
  const done: string[] = [];
  if (f.latencyMs !== undefined) {
    if (typeof f.latencyMs !== "object" || f.latencyMs === null) {
      throw new HttpError(400, "latencyMs must be an object of verb → ms");
    }
    for (const [verb, ms] of Object.entries(f.latencyMs)) {
      if (!(VERBS as readonly string[]).includes(verb))
        throw new HttpError(400, `unknown verb ${verb}`);
      if (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > 60_000) {
        throw new HttpError(400, "latency must be an integer 0…60000 ms");
      }
      faults.setLatency(verb as (typeof VERBS)[number], ms as number);
      done.push(`${verb} latency ${ms} ms`);
    }
  }
  if (f.failNext !== undefined) {
    if (!Number.isInteger(f.failNext) || f.failNext < 0 || f.failNext > 10_000) {
      throw new HttpError(400, "failNext must be an integer 0…10000");
    }
    faults.failNext(f.failNext);
    done.push(`next ${f.failNext} requests fail`);
  }
  if (f.competingWriter === false) {
    faults.competingWriter.stop();
    done.push("competing writer off");
  } else if (f.competingWriter === true) {
    const t = f.competingWriterTarget;
    if (!t || typeof t.name !== "string") {
      throw new HttpError(400, "competingWriter needs competingWriterTarget { name }");
    }
    faults.competingWriter.start({
      kind: t.kind === "Deployment" ? "Deployment" : "Foo",
      namespace: typeof t.namespace === "string" ? t.namespace : "default",
      name: t.name,
      intervalMs: Number.isInteger(t.intervalMs) && t.intervalMs! >= 50 ? t.intervalMs! : 500,
    });
    done.push(`competing writer on ${t.name}`);
  }
  if (f.closeWatches === true) {
    faults.closeAllWatches();
    done.push("watches closed");
  }
  if (f.expireNextWatch === true) {
    faults.expireNextWatch();
    done.push("next watch expires");
  }
  if (done.length === 0) throw new HttpError(400, "no fault given");
  return done.join("; ");
}
