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

/**
 * The object's resourceVersion steps within the life of the key's Foo that `atSeq` belongs to.
 * A Foo deleted and created again under the same name is another object with its own history (and
 * so is the Deployment it makes): mixed in one table, three Foos' rvs read as one. A Foo "add" at
 * an rv other than the one the Foo had begins a life; at the same rv it is a re-list.
 */
export function rvHistory(
  store: TraceStore,
  key: string,
  object: string,
  atSeq: number,
): { steps: RvStep[]; lifeStartSeq: number | undefined } {
  const rows = store.rowsOf(key);
  let steps: RvStep[] = [];
  let lifeStartSeq: number | undefined;
  let fooRv: string | undefined;
  let lives = 0;
  for (let i = 0; i < rows.length; i++) {
    const e = store.event(rows[i]);
    // Judged by rvs only: an add without one (a bare STAGE/watch line, which may be an update)
    // has none to judge by.
    const add = e.stage === "watch" && e.kind === "Foo" && e.event === "add";
    if (add && e.rv !== undefined && e.rv !== fooRv) {
      // A new life: what came before was another Foo's, unless the selected event was in it.
      if (e.seq > atSeq && lives > 0) break;
      if (e.seq <= atSeq) {
        steps = [];
        lifeStartSeq = lives > 0 ? e.seq : undefined;
      }
      lives++;
    }
    if ((e.stage === "watch" && e.kind === "Foo") || e.stage === "read") fooRv = e.rv ?? fooRv;
    if (e.stage === "done" || e.stage === "note" || e.stage === "enqueue" || e.stage === "dequeue")
      continue;
    if (!e.rv || objectOf(e) !== object) continue;
    const what =
      e.stage === "watch"
        ? `${e.event}`
        : e.stage === "write"
          ? `${e.verb}${e.code ? ` ${e.code}` : ""}`
          : "lister";
    steps.push({ seq: e.seq, ts: e.ts, stage: e.stage, rv: e.rv, what });
  }
  return { steps, lifeStartSeq };
}
