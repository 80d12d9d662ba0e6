/**
 * A synthetic controller run for benchmarks and load tests: N Foos reconciled by W workers, each
 * Foo going through "episodes" of one to three passes:
 *
 *   external   someone changed the Foo: watch(update, oldRv ≠ rv) → enqueue(watch) → dequeue →
 *              read → write deployment → write status → done(synced)
 *   self       the controller's own status write came back through the informer:
 *              watch(update, rv = the rv our write returned) → enqueue → … → write status with
 *              no change (changed=false, same rv) → done(synced)
 *   conflict   the status write got 409 Conflict → done(requeued)
 *   retry      the pass after a conflict: enqueue(retry, delayMs) → dequeue → read → write → done
 *
 * Invariants: deterministic for a seed (xorshift32); `seq` starts at 1 and increases by one per
 * event; `ts` (µs) never decreases along seq; events of different Foos interleave the way W
 * workers interleave them, events of one Foo never overlap (one worker holds a key at a time).
 * Exactly `events` events are produced (the last episode may be cut short, like a log that ends
 * mid-pass).
 */
import type { TraceEvent, UnsequencedEvent } from "../../packages/trace/src/index.ts";

export interface ScenarioOptions {
  /** Total events to produce. */
  events: number;
  /** Distinct Foos; default events / 100 (at least 10). */
  foos?: number;
  /** Workers (interleaved passes); default 2. */
  workers?: number;
  /** Share of episodes whose status write echoes back as a self-triggered pass. */
  selfShare?: number;
  /** Share of episodes whose status write conflicts (then a retry pass follows). */
  conflictShare?: number;
  seed?: number;
  /** µs since the epoch of the first event. */
  start?: number;
}

export interface ScenarioCounts {
  events: number;
  foos: number;
  passes: number;
  self: number;
  conflicts: number;
  retries: number;
}

/** xorshift32 in [0, 1): the same trace on every machine. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** An event before the clock and the counter give it `ts` and `seq`. */
type Draft = UnsequencedEvent extends infer E ? (E extends unknown ? Omit<E, "ts"> : never) : never;

/** The events of one episode of one Foo, before numbering and timing. */
function* episode(
  key: string,
  foo: number,
  worker: number,
  rand: () => number,
  opts: Required<Pick<ScenarioOptions, "selfShare" | "conflictShare">>,
  state: { rv: number; fooRv: Float64Array; counts: ScenarioCounts },
): Generator<Draft> {
  const [ns, name] = key.split("/");
  const c = state.counts;
  const first = state.fooRv[foo] === 0;
  const old = state.fooRv[foo] || ++state.rv;
  let rv = first ? old : ++state.rv;
  const src = (line: number) => `controller.go:${line}`;
  yield first
    ? { stage: "watch", key, kind: "Foo", event: "add", ns, name, rv: String(rv), src: src(133) }
    : {
        stage: "watch",
        key,
        kind: "Foo",
        event: "update",
        ns,
        name,
        rv: String(rv),
        oldRv: String(old),
        src: src(133),
      };
  yield { stage: "enqueue", key, len: 1 + Math.floor(rand() * 3), cause: "watch", src: src(338) };
  const conflict = rand() < opts.conflictShare;
  const echo = !conflict && rand() < opts.selfShare;
  const pass = function* (
    kind: "external" | "self" | "retry",
    writeConflicts: boolean,
  ): Generator<Draft> {
    c.passes++;
    yield { stage: "dequeue", key, len: 0, worker, src: src(207) };
    yield { stage: "read", key, rv: String(rv), generation: 1, worker, src: src(256) };
    if (kind !== "self") {
      yield {
        stage: "write",
        key,
        verb: "update",
        target: `deployments/${key}`,
        code: 200,
        rv: String(++state.rv),
        changed: true,
        fields: ["spec.replicas"],
        worker,
        src: src(301),
      };
    }
    if (writeConflicts) {
      yield {
        stage: "write",
        key,
        verb: "updateStatus",
        target: `foos/${key}/status`,
        code: 409,
        reason: "Conflict",
        worker,
        src: src(325),
      };
      yield {
        stage: "done",
        key,
        outcome: "requeued",
        error: "the object has been modified",
        delayMs: 5,
        worker,
        src: src(222),
      };
      return;
    }
    const changed = kind !== "self";
    const wrote = changed ? ++state.rv : rv;
    yield {
      stage: "write",
      key,
      verb: "updateStatus",
      target: `foos/${key}/status`,
      code: 200,
      rv: String(wrote),
      changed,
      ...(changed ? { fields: ["status.availableReplicas"] } : {}),
      worker,
      src: src(325),
    };
    yield { stage: "done", key, outcome: "synced", worker, src: src(222) };
    rv = wrote;
  };
  yield* pass("external", conflict);
  if (conflict) {
    c.conflicts++;
    c.retries++;
    yield { stage: "enqueue", key, len: 1, cause: "retry", delayMs: 5, src: src(338) };
    yield* pass("retry", false);
  }
  if (echo) {
    c.self++;
    yield {
      stage: "watch",
      key,
      kind: "Foo",
      event: "update",
      ns,
      name,
      rv: String(rv),
      oldRv: String(old),
      src: src(133),
    };
    yield { stage: "enqueue", key, len: 1, cause: "watch", src: src(338) };
    yield* pass("self", false);
  }
  state.fooRv[foo] = rv;
}

/** The whole run, as numbered events. `counts` is filled in as the generator advances. */
export function* scenario(
  o: ScenarioOptions,
  counts: ScenarioCounts = emptyCounts(),
): Generator<TraceEvent> {
  const foos = Math.max(1, o.foos ?? Math.max(10, Math.round(o.events / 100)));
  const workers = Math.max(1, o.workers ?? 2);
  const opts = { selfShare: o.selfShare ?? 0.3, conflictShare: o.conflictShare ?? 0.05 };
  const rand = rng(o.seed ?? 20261202);
  const state = { rv: 1000, fooRv: new Float64Array(foos), counts };
  counts.foos = foos;
  let ts = o.start ?? Date.UTC(2026, 11, 2, 9, 0, 0) * 1000;
  let next = 0; // round-robin over Foos, so every Foo gets its episodes spread over the run
  const slots: (Generator<Draft> | undefined)[] = Array.from({ length: workers }, () => undefined);
  const busy = new Set<number>();
  const slotFoo = new Int32Array(workers).fill(-1);
  while (counts.events < o.events) {
    const w = Math.floor(rand() * workers);
    if (!slots[w]) {
      // Take the next Foo no other worker holds (the workqueue never hands one key to two).
      let foo = next;
      for (let tries = 0; busy.has(foo) && tries < foos; tries++) foo = (foo + 1) % foos;
      if (busy.has(foo)) continue;
      next = (foo + 1) % foos;
      busy.add(foo);
      slotFoo[w] = foo;
      slots[w] = episode(`ns-${foo % 17}/foo-${foo}`, foo, w + 1, rand, opts, state);
    }
    const r = slots[w]!.next();
    if (r.done) {
      slots[w] = undefined;
      busy.delete(slotFoo[w]);
      continue;
    }
    ts += 1 + Math.floor(rand() * 400);
    counts.events++;
    yield { ...r.value, seq: counts.events, ts } as TraceEvent;
  }
}

export function emptyCounts(): ScenarioCounts {
  return { events: 0, foos: 0, passes: 0, self: 0, conflicts: 0, retries: 0 };
}
