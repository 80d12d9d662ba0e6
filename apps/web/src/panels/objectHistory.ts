/**
 * Which Kubernetes object an event is about, and that object's resourceVersion history within the
 * key's events (for the details panel).
 */
import type { TraceEvent } from "@loopscope/trace";
import type { TraceStore } from "../store/traceStore.ts";

/** "Foo default/example-foo", "Deployment default/example-foo", or undefined. */
export function objectOf(e: TraceEvent): string | undefined {
  switch (e.stage) {
    case "watch": {
      const ns = e.ns ?? e.key.split("/")[0];
      return `${e.kind} ${ns ? `${ns}/` : ""}${e.name}`;
    }
    case "read":
      return `Foo ${e.key}`;
    case "write": {
      const [res, ns, name] = e.target.split("/");
      if (!ns || !name) return undefined;
      const kind = res === "foos" ? "Foo" : res === "deployments" ? "Deployment" : res;
      return `${kind} ${ns}/${name}`;
    }
    default:
      return undefined;
  }
}

export interface RvStep {
  seq: number;
  ts: number;
  stage: string;
  rv: string;
  what: string;
}

export function rvHistory(store: TraceStore, key: string, object: string): RvStep[] {
  const rows = store.rowsOf(key);
  const out: RvStep[] = [];
  for (let i = 0; i < rows.length; i++) {
    const e = store.event(rows[i]);
    if (e.stage === "done" || e.stage === "note" || e.stage === "enqueue" || e.stage === "dequeue")
      continue;
    if (!e.rv || objectOf(e) !== object) continue;
    const what =
      e.stage === "watch"
        ? `${e.event}`
        : e.stage === "write"
          ? `${e.verb}${e.code ? ` ${e.code}` : ""}`
          : "lister";
    out.push({ seq: e.seq, ts: e.ts, stage: e.stage, rv: e.rv, what });
  }
  return out;
}
