/**
 * Seeded pseudo-random traces for tests that must reach every branch of the Analyzer: keys whose
 * logs carry resourceVersions or not, enqueue causes or not, dequeue lines or only pass-end
 * markers; echoes of our own writes (on time, late, missing), resyncs, retries, conflicts and
 * other failures, no-op writes, changed fields, hot loops with conflict stumbles, lost `done`
 * lines, notes and orphaned watch events — interleaved across keys, as a busy controller's are.
 *
 * The same seed always yields the same events (Node only; never imported by the library).
 */
import type { EnqueueCause, PassOutcome, TraceEvent, UnsequencedEvent } from "../event.ts";

/** mulberry32: small, fast, and the same everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How one key's log is written. */
interface KeyStyle {
  /** Watch lines carry rv/oldRv. */
  watchRv: boolean;
  /** Writes carry the rv the API returned. */
  writeRv: boolean;
  /** Writes say whether they changed the object (and sometimes which fields). */
  changedKnown: boolean;
  /** Enqueues say why (cause, causeSeq), as our probe's do. */
  causes: boolean;
  /** Passes begin with a dequeue line (else only markers: read, write, done). */
  dequeues: boolean;
  /** The key loops on its own writes. */
  hot: boolean;
}

const FIELDS = ["spec.replicas", "status.availableReplicas", "metadata.annotations"];

/** An event of a key's script: the trace assigns seq and ts as it interleaves the keys. */
type Step = UnsequencedEvent extends infer E ? (E extends unknown ? Omit<E, "ts"> : never) : never;

export function randomTrace(seed: number, keyCount: number, passesPerKey: number): TraceEvent[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const chance = (p: number): boolean => r() < p;
  const int = (n: number): number => Math.floor(r() * n);

  let rvClock = 1000;
  const nextRv = (): string => String(++rvClock);

  function* script(key: string, style: KeyStyle): Generator<Step, void, number> {
    const [ns, name] = key.split("/");
    // The objects' resourceVersions on the server, and the last ones the informer delivered.
    let fooRv = nextRv();
    let deployRv: string | undefined;
    let seenFoo: string | undefined;
    let seenDeploy: string | undefined;
    /** Our writes whose echo has not been emitted yet. */
    let due: { kind: "Foo" | "Deployment"; rv: string; changed: boolean }[] = [];
    let lastOutcome: PassOutcome | undefined;
    const watchSeqs: number[] = [];
    const enqueue = (cause: EnqueueCause | undefined, causeSeq?: number): Step => {
      const e: Step = { stage: "enqueue", key, len: int(4) };
      if (style.causes && cause !== undefined) {
        e.cause = cause;
        if (causeSeq !== undefined) e.causeSeq = causeSeq;
      }
      return e;
    };
    const watch = (kind: "Foo" | "Deployment", rv: string, oldRv: string | undefined): Step => {
      const e: Step = {
        stage: "watch",
        key,
        kind,
        event: oldRv === undefined ? "add" : chance(0.05) ? "delete" : "update",
        ns,
        name,
      };
      if (style.watchRv) {
        e.rv = rv;
        if (oldRv !== undefined) e.oldRv = oldRv;
      }
      return e;
    };
    for (let pass = 0; pass < passesPerKey; pass++) {
      // Triggers: the echoes of the last pass's writes, then outside changes and resyncs.
      for (const d of due) {
        if (chance(style.hot ? 0.03 : 0.15)) continue; // an echo that never came
        const seq = yield watch(d.kind, d.rv, d.kind === "Foo" ? seenFoo : seenDeploy);
        watchSeqs.push(seq);
        if (d.kind === "Foo") seenFoo = d.rv;
        else seenDeploy = d.rv;
        if (chance(style.hot ? 0.97 : 0.85)) yield enqueue("watch", seq);
      }
      due = [];
      if (pass === 0 || (!style.hot && chance(0.5))) {
        fooRv = nextRv();
        const seq = yield watch("Foo", fooRv, seenFoo);
        seenFoo = fooRv;
        watchSeqs.push(seq);
        // Sometimes the enqueue names an older watch event than the last (or none at all).
        const causeSeq = chance(0.1) && watchSeqs.length > 20 ? watchSeqs[0] : seq;
        yield enqueue("watch", chance(0.9) ? causeSeq : undefined);
      }
      if (chance(style.hot ? 0.03 : 0.15)) {
        const seq = yield watch("Foo", seenFoo ?? fooRv, seenFoo ?? fooRv);
        yield enqueue("resync", chance(0.7) ? seq : undefined);
      }
      if (lastOutcome === "requeued" && chance(0.8)) yield enqueue("retry");
      if (!style.hot && chance(0.05)) yield enqueue(undefined);
      if (watchSeqs.length > 40) watchSeqs.splice(0, 20);

      // The pass.
      const worker = 1 + int(3);
      if (style.dequeues && chance(0.95)) yield { stage: "dequeue", key, len: int(3), worker };
      if (chance(0.03)) {
        yield { stage: "note", key, level: "I", text: `Foo ${key} in work queue no longer exists` };
      }
      if (chance(0.9)) {
        const e: Step = { stage: "read", key, rv: fooRv, worker };
        if (chance(0.03)) e.found = false;
        yield e;
      }
      let conflicted = false;
      const writes = style.hot ? 1 : int(4);
      for (let i = 0; i < writes; i++) {
        const kind = style.hot ? "Foo" : pick(["Foo", "Deployment", "Other"] as const);
        const verb =
          kind === "Foo"
            ? pick(["update", "updateStatus", "patch"])
            : kind === "Deployment"
              ? pick(["create", "update", "patch", "delete"])
              : pick(["create", "update", "updateStatus", "patch"]);
        const target =
          kind === "Foo"
            ? `foos/${key}/status`
            : kind === "Deployment"
              ? `deployments/${ns}/${name}-deploy`
              : `configmaps/${key}`;
        const e: Step = { stage: "write", key, verb, target, worker };
        const fate = r();
        if (fate < (style.hot ? 0.12 : 0.08)) {
          // A conflict, said by code, by reason, or both.
          if (chance(0.7)) e.code = 409;
          if (e.code === undefined || chance(0.5)) e.reason = pick(["Conflict", "AlreadyExists"]);
          conflicted = true;
        } else if (fate < 0.12) {
          if (chance(0.5)) e.code = pick([404, 422, 500]);
          else e.reason = pick(["NotFound", "InternalError", "connection refused"]);
        } else {
          if (chance(0.8)) e.code = verb === "create" ? 201 : 200;
          else if (chance(0.3)) e.reason = "";
          const noop = !style.hot && chance(0.3);
          const before = kind === "Foo" ? fooRv : kind === "Deployment" ? deployRv : undefined;
          const rv = noop && before !== undefined ? before : nextRv();
          if (style.writeRv) e.rv = rv;
          const changed = !(noop && before !== undefined);
          if (style.changedKnown && chance(0.8)) {
            e.changed = changed;
            if (changed && chance(0.6)) {
              e.fields = style.hot
                ? ["status.lastSyncTime", ...(chance(0.5) ? [pick(FIELDS)] : [])]
                : FIELDS.filter(() => chance(0.5));
            }
          }
          if (kind !== "Other" && changed) due.push({ kind, rv, changed });
          if (kind === "Foo") fooRv = rv;
          else if (kind === "Deployment") deployRv = rv;
        }
        yield e;
      }
      if (chance(0.05)) continue; // the done line was lost
      const outcome: PassOutcome = conflicted
        ? chance(0.9)
          ? "requeued"
          : "synced"
        : style.hot
          ? "synced"
          : pick(["synced", "synced", "synced", "synced", "synced", "requeued", "dropped"]);
      const done: Step = { stage: "done", key, outcome, worker };
      if (outcome === "requeued" && chance(0.7)) done.error = conflicted ? "conflict" : "boom";
      lastOutcome = outcome;
      yield done;
    }
  }

  const scripts: Generator<Step, void, number>[] = [];
  for (let k = 0; k < keyCount; k++) {
    const style: KeyStyle = {
      watchRv: chance(0.5),
      writeRv: chance(0.5),
      changedKnown: chance(0.5),
      causes: chance(0.5),
      dequeues: chance(0.75),
      hot: k % 4 === 1,
    };
    scripts.push(script(`ns${k % 3}/foo-${k}-${seed}`, style));
  }
  const events: TraceEvent[] = [];
  let ts = 1_764_600_000_000_000 + seed * 1_000_000;
  let seq = 0;
  const emit = (e: Step): number => {
    // A key's watch events may arrive long after its last write (past the echo window).
    ts += chance(0.01) ? 6_000_000 : 1 + int(40_000);
    events.push({ ...e, seq: ++seq, ts } as TraceEvent);
    return seq;
  };
  /** Per script: the seq of the event it yielded last (the value its `yield` returns). */
  const yielded: number[] = scripts.map(() => 0);
  const running = scripts.map(() => true);
  let live = scripts.length;
  while (live > 0) {
    const k = int(scripts.length);
    if (!running[k]) continue;
    const step = scripts[k].next(yielded[k]);
    if (step.done) {
      running[k] = false;
      live--;
      continue;
    }
    yielded[k] = emit(step.value);
    if (chance(0.01)) {
      emit({ stage: "watch", key: "", kind: "Deployment", event: "add", ns: "ns0", name: "stray" });
    }
    if (chance(0.01)) emit({ stage: "note", key: "", level: "W", text: "a line about nothing" });
  }
  return events;
}
