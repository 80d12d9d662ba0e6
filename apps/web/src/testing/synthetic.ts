/**
 * A synthetic, realistic event stream for scale tests: `keys` Foos reconciled round-robin, each
 * pass the shape our controller produces (watch → enqueue → dequeue → read → write ×2 → done),
 * resourceVersions increasing, produced in batches so a million events never sit in memory as
 * objects at once.
 */
import type { TraceEvent } from "@loopscope/trace";

export function* syntheticBatches(
  total: number,
  keys = 1000,
  batch = 10_000,
): Generator<TraceEvent[]> {
  let seq = 0;
  let rv = 1000;
  let ts = 1_796_199_516_000_000;
  let out: TraceEvent[] = [];
  let pass = 0;
  while (seq < total) {
    const key = `default/foo-${pass % keys}`;
    const name = `foo-${pass % keys}`;
    const w = pass % 3 === 0 ? 1 : 2;
    const shape: Omit<TraceEvent, "seq" | "ts">[] = [
      {
        stage: "watch",
        key,
        kind: "Deployment",
        event: "update",
        name,
        rv: String(rv + 1),
        oldRv: String(rv),
        src: "foo-controller.ts:326",
      },
      {
        stage: "enqueue",
        key,
        len: 1,
        merged: false,
        cause: "watch",
        causeSeq: seq + 1,
        src: "foo-controller.ts:306",
      },
      { stage: "dequeue", key, len: 0, worker: w, src: "foo-controller.ts:360" },
      {
        stage: "read",
        key,
        rv: String(rv + 1),
        generation: 1,
        worker: w,
        src: "foo-controller.ts:419",
      },
      {
        stage: "write",
        key,
        verb: "update",
        target: `deployments/default/${name}`,
        code: 200,
        rv: String(rv + 2),
        changed: true,
        worker: w,
        src: "foo-controller.ts:470",
      },
      {
        stage: "write",
        key,
        verb: "updateStatus",
        target: `foos/default/${name}/status`,
        code: 200,
        rv: String(rv + 2),
        changed: false,
        worker: w,
        src: "foo-controller.ts:462",
      },
      { stage: "done", key, outcome: "synced", worker: w, src: "foo-controller.ts:380" },
    ] as unknown as Omit<TraceEvent, "seq" | "ts">[];
    for (const e of shape) {
      if (seq >= total) break;
      ts += 137;
      out.push({ ...e, seq: ++seq, ts } as TraceEvent);
      if (out.length === batch) {
        yield out;
        out = [];
      }
    }
    rv += 3;
    pass++;
  }
  if (out.length) yield out;
}
