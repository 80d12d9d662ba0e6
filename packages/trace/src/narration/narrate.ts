/**
 * Narration: for every event, a plain-language sentence saying what just happened and which part
 * of the client-go machinery did it, using what the analysis knows around it — a watch event
 * that is the echo of our own write (same resourceVersion), the pass an enqueue will feed, the
 * triggers of a pass, a lister read that is behind our own last write, a no-op write.
 *
 * Invariants: one Narration per input event, same order, same seq; the text never claims more
 * than the trace shows (no resourceVersion → no echo claim, no `changed` → no change claim).
 * Pure: no I/O, no clock.
 */
import type {
  DequeueEvent,
  EnqueueEvent,
  PassEndEvent,
  ReadEvent,
  TraceEvent,
  WatchEvent,
  WriteEvent,
} from "../event.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import type { Pass } from "../analysis/model.ts";
import type { NarrationPart } from "./parts.ts";

export interface Narration {
  seq: number;
  /** Parts of the machinery to highlight, the one that acted first. */
  parts: NarrationPart[];
  text: string;
  /**
   * The number of the pass (within its Foo's life, see Pass.number) the event belongs to or, for
   * a trigger, feeds.
   */
  pass?: number;
  /** The event belongs to or feeds a self-triggered pass (or is the echo of our own write). */
  self?: boolean;
}

/** What the narration needs from the analysis: the passes of a key (an Analyzer has it). */
export interface NarrationContext {
  passes(key: string): readonly Pass[];
}

interface OwnWrite {
  seq: number;
  verb: string;
  key: string;
}

/**
 * Narrates a trace. Without `ctx`, the events are analysed here first (packages/trace's
 * Analyzer, the same rules as everywhere else).
 */
export function narrate(events: readonly TraceEvent[], ctx?: NarrationContext): Narration[] {
  let context = ctx;
  if (!context) {
    const a = new Analyzer();
    a.pushAll(events);
    context = a;
  }
  return new Narrator(context).all(events);
}

class Narrator {
  /** resourceVersion returned by one of the controller's writes → that write. */
  private readonly ownRvs = new Map<string, OwnWrite>();
  /** Per key: rv of our latest successful write of the Foo (status). */
  private readonly ownFooRv = new Map<string, { rv: string; seq: number }>();
  /** Per key: the Foo's latest resourceVersion seen (watch, read, or our own write). */
  private readonly fooRv = new Map<string, string>();
  private readonly bySeq = new Map<number, Pass>();
  private readonly feeds = new Map<number, Pass>();
  private readonly watchOf = new Map<number, WatchEvent>();
  /**
   * Watch events that came before the log line of the write they echo (the Analyzer matched them
   * by rv when the write came) → that write.
   */
  private readonly earlyEchoes = new Map<number, OwnWrite>();
  /** Per key: the Foo's rv as the latest pass read it from the lister, and that read's seq. */
  private readonly readFoo = new Map<string, { rv: string; seq: number }>();
  /** Per key: the first watch event of the Foo since the latest read that no write of ours explains. */
  private readonly othersFoo = new Map<string, { rv: string; seq: number }>();
  /**
   * Per kind: the seq of our informer's note that its watch ended with 410 Gone, while the re-list
   * that follows hands its objects over (until the next event that is no watch or enqueue).
   */
  private readonly relisting = new Map<string, number>();
  /** Keys re-added while a worker held them; Done hands them straight back to the queue. */
  private readonly parked = new Set<string>();

  constructor(private readonly ctx: NarrationContext) {}

  all(events: readonly TraceEvent[]): Narration[] {
    const keys = new Set(events.map((e) => e.key).filter((k) => k !== ""));
    /** Our write's seq → the watch event, logged before it, that echoes it. */
    const early = new Map<number, number>();
    for (const key of keys) {
      for (const p of this.ctx.passes(key)) {
        for (const s of [p.dequeueSeq, p.readSeq, p.endSeq, ...p.writeSeqs])
          if (s !== undefined) this.bySeq.set(s, p);
        for (const t of p.triggers) {
          this.feeds.set(t.enqueueSeq, p);
          if (t.watchSeq !== undefined) this.feeds.set(t.watchSeq, p);
          const { writeSeq, watchSeq } = t;
          if (
            t.cause === "self" &&
            !t.inferred &&
            writeSeq !== undefined &&
            watchSeq !== undefined &&
            writeSeq > watchSeq
          )
            early.set(writeSeq, watchSeq);
        }
      }
    }
    if (early.size > 0) {
      for (const e of events) {
        const watchSeq = early.get(e.seq);
        if (e.stage === "write" && watchSeq !== undefined)
          this.earlyEchoes.set(watchSeq, { seq: e.seq, verb: e.verb, key: e.key });
      }
    }
    return events.map((e) => this.one(e));
  }

  private one(e: TraceEvent): Narration {
    if (e.stage !== "watch" && e.stage !== "enqueue") this.relisting.clear();
    if (e.stage === "note") {
      const gone = RELIST.exec(e.text);
      if (gone) this.relisting.set(gone[1], e.seq);
    }
    switch (e.stage) {
      case "watch":
        return this.watch(e);
      case "enqueue":
        return this.enqueue(e);
      case "dequeue":
        return this.dequeue(e);
      case "read":
        return this.read(e);
      case "write":
        return this.write(e);
      case "done":
        return this.done(e);
      case "note": {
        const scenario = e.src === "scenario" || e.text.startsWith("scenario: ");
        return scenario
          ? {
              seq: e.seq,
              parts: ["scenario"],
              text: `Scenario step: ${e.text.replace(/^scenario: /, "")}.`.replace(/\.\.$/, "."),
            }
          : { seq: e.seq, parts: ["log"], text: `Controller log: ${e.text}` };
      }
    }
  }

  private watch(e: WatchEvent): Narration {
    this.watchOf.set(e.seq, e);
    const obj = `${e.kind} ${e.ns ? `${e.ns}/` : ""}${e.name}`;
    const rv = e.rv ? ` (rv ${e.rv})` : "";
    const parts: NarrationPart[] = ["informer", "handler"];
    const fed = this.feeds.get(e.seq);
    const base: Narration = { seq: e.seq, parts, text: "" };
    if (fed) base.pass = fed.number;
    if (e.key === "") {
      base.text = `The ${e.kind} informer delivered a watch event — ${obj} ${VERB_TEXT[e.event]}${rv} — and the event handler found no Foo that owns it (any more), so it queues nothing.`;
      return base;
    }
    if (e.event === "update" && e.rv !== undefined && e.oldRv === e.rv) {
      base.text = `Periodic resync: the ${e.kind} informer re-delivered ${obj} unchanged (same rv ${e.rv}); the event handler queues ${e.key} anyway.`;
      return base;
    }
    const known = this.fooRv.get(e.key);
    if (e.kind === "Foo" && e.rv !== undefined) this.fooRv.set(e.key, e.rv);
    // As the Analyzer decides: an add of the Foo at the rv it already had is a re-list.
    if (e.kind === "Foo" && e.event === "add" && e.rv !== undefined && e.rv === known) {
      base.text = `The Foo informer listed ${obj} again${rv}, unchanged — the controller restarted, or its watch was set up anew — and the event handler queues ${e.key}: like a resync, not a new Foo.`;
      return base;
    }
    const own = e.rv !== undefined ? this.ownRvs.get(e.rv) : undefined;
    const route =
      e.kind === "Foo"
        ? `the event handler queues its key`
        : `the event handler resolves its owner to Foo ${e.key} and queues that key`;
    const relist = this.relisting.get(e.kind);
    const head =
      relist !== undefined
        ? `The ${e.kind} informer's re-list (its watch ended with 410 Gone, seq ${relist}) found ${obj} ${VERB_TEXT[e.event]}${rv} against its cache and handed that over as an event — no watch event carried it — and ${route}.`
        : `The ${e.kind} informer's reflector received a watch event — ${obj} ${VERB_TEXT[e.event]}${rv} — and ${route}.`;
    if (own && own.key === e.key) {
      base.self = true;
      base.text = `${head} It is the echo of our own ${own.verb} at seq ${own.seq} (same resourceVersion), so the pass it triggers is self-triggered.`;
      return base;
    }
    const ahead = this.earlyEchoes.get(e.seq);
    if (ahead) {
      base.self = true;
      base.text = `${head} It is the echo of our own ${ahead.verb} logged below at seq ${ahead.seq} (same resourceVersion): the API server sent the watch event before the write's response came back. The pass it triggers is self-triggered.`;
      return base;
    }
    if (e.kind === "Foo" && e.rv !== undefined && !this.othersFoo.has(e.key))
      this.othersFoo.set(e.key, { rv: e.rv, seq: e.seq });
    const who =
      e.kind === "Foo"
        ? e.event === "add"
          ? "A user created the Foo"
          : e.event === "delete"
            ? "The Foo was deleted"
            : "Someone other than this controller changed the Foo"
        : e.event === "delete"
          ? "Someone deleted the Deployment"
          : "Someone else changed the Deployment (the Deployment controller reporting progress, or a user)";
    base.text = `${head} ${who}: an external trigger.`;
    return base;
  }

  private enqueue(e: EnqueueEvent): Narration {
    const fed = this.feeds.get(e.seq);
    const n: Narration = { seq: e.seq, parts: ["workqueue"], text: "" };
    if (fed) n.pass = fed.number;
    const watch = e.causeSeq !== undefined ? this.watchOf.get(e.causeSeq) : undefined;
    // A resync re-delivers the object as it is — often with the rv of our own last write — and
    // is no echo of it.
    const resync = e.cause === "resync" || (watch?.event === "update" && watch.oldRv === watch.rv);
    // The Analyzer's trigger says it exactly (by rv) even when the line names no watch event (a
    // klog log's enqueue lines do not); an inferred echo is not claimed.
    const trigger = fed?.triggers.find((t) => t.enqueueSeq === e.seq);
    const ownSeq =
      trigger?.cause === "self" && !trigger.inferred
        ? trigger.writeSeq
        : resync || watch?.rv === undefined
          ? undefined
          : this.ownRvs.get(watch.rv)?.key === e.key
            ? this.ownRvs.get(watch.rv)!.seq
            : this.earlyEchoes.get(watch.seq)?.seq;
    const echo = ownSeq !== undefined ? ` (the echo of our own write at seq ${ownSeq})` : "";
    if (echo) n.self = true;
    const waiting =
      e.len !== undefined ? ` ${plural(e.len, "key")} now wait${e.len === 1 ? "s" : ""}.` : "";
    let what: string;
    if (e.cause === "retry") {
      what = `The rate limiter's ${e.delayMs !== undefined ? `${e.delayMs} ms ` : ""}delay ran out: AddRateLimited puts ${e.key} back into the workqueue to retry the failed pass`;
    } else if (e.cause === "resync") {
      what = `The resync's add puts ${e.key} into the workqueue`;
    } else {
      what = `The event handler adds ${e.key} to the workqueue${echo}`;
    }
    if (e.merged === "processing") this.parked.add(e.key);
    if (e.merged === "dirty" && this.parked.has(e.key)) {
      // Dirty because parked: a worker still holds the key; it waits for Done, not in the queue.
      n.text = `${what}; the key is already parked (dirty) while a worker processes it, so this add merges into the one pass that follows that worker's Done.`;
    } else if (e.merged === "dirty") {
      n.text = `${what}, but the key is already waiting there, so the two adds merge into one pending pass.${waiting}`;
    } else if (e.merged === "processing") {
      n.text = `${what}; a worker is processing that key right now, so the workqueue parks it (marks it dirty) and hands it out again only after that worker's Done — never to two workers at once.`;
    } else {
      n.text = `${what}.${waiting}`;
    }
    return n;
  }

  private dequeue(e: DequeueEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const worker = e.worker !== undefined ? `Worker ${e.worker}` : "A worker";
    const left =
      e.len !== undefined ? `; ${plural(e.len, "key")} still wait${e.len === 1 ? "s" : ""}` : "";
    const n: Narration = {
      seq: e.seq,
      parts: ["worker", "workqueue"],
      text: `${worker} takes ${e.key} off the workqueue (Get) and starts ${p ? `pass ${p.number}` : "a pass"} for it${left}.`,
    };
    if (!p) return n;
    n.pass = p.number;
    const merged =
      p.triggers.length > 1 ? ` ${p.triggers.length} triggers merged into this one pass.` : "";
    switch (p.cause) {
      case "self": {
        n.self = true;
        const writes = [
          ...new Set(p.triggers.map((t) => t.writeSeq).filter((s) => s !== undefined)),
        ];
        const prev = previousWriter(this.ctx.passes(e.key), p);
        const again = prev ? p.changedFields.filter((f) => prev.changedFields.includes(f)) : [];
        // Named when failed passes lie between: "the previous pass" would be one that failed.
        const skipped = prev !== undefined && prev.number < p.number - 1;
        const who = prev && skipped ? `Pass ${prev.number}` : "The previous pass";
        const since = skipped ? " (the passes after it failed, changing nothing)" : "";
        // Told at the dequeue, before the pass writes: what it will do is named by its write.
        const run = loopRun(this.ctx.passes(e.key), p);
        const at = p.changingWriteSeqs?.[0];
        const loop =
          prev && again.length > 0
            ? ` ${who} changed ${again.join(", ")}${since}${since ? "," : ""} and this pass will change ${again.length === 1 ? "it" : "them"} again${at !== undefined ? ` (its write at seq ${at})` : ""}: the key is looping on its own writes${run >= HOT_LOOP_RUN ? ` — a hot loop, ${run} self-triggered passes in a row that each changed something` : ""}.`
            : prev
              ? ` ${who} changed ${prev.changedFields.join(", ")}${since}; if this pass changes it again, the key will loop.`
              : " It should find nothing left to do.";
        n.text += ` Every trigger was our own write coming back${writes.length ? ` (seq ${writes.join(", ")})` : ""}: a self-triggered pass.${loop}${merged}`;
        break;
      }
      case "external":
        n.text += ` It was triggered by an external change${firstWatch(p)}.${merged}`;
        break;
      case "retry":
        n.text += ` It retries the key after a failed pass.${merged}`;
        break;
      case "resync":
        n.text += ` A periodic resync triggered it.${merged}`;
        break;
      default:
        n.text += merged;
    }
    return n;
  }

  /**
   * Why a write's resourceVersion was old, as far as the trace shows: the Foo changed after the
   * pass read it (a watch event from another writer came in between), or the lister had not yet
   * caught up with our own last write.
   */
  private whyStale(e: WriteEvent): string {
    const read = this.readFoo.get(e.key);
    const other = this.othersFoo.get(e.key);
    if (e.target.startsWith("foos/") && read && other && other.seq > read.seq) {
      return `another writer changed the Foo after this pass read it: rv ${other.rv} arrived at seq ${other.seq}`;
    }
    const own = this.ownFooRv.get(e.key);
    if (e.target.startsWith("foos/") && read && own && isOlder(read.rv, own.rv)) {
      return `the lister was behind our own last write, rv ${own.rv} at seq ${own.seq}`;
    }
    return "the lister was behind";
  }

  private read(e: ReadEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const n: Narration = { seq: e.seq, parts: ["lister"], text: "" };
    if (e.rv !== undefined) {
      this.fooRv.set(e.key, e.rv);
      this.readFoo.set(e.key, { rv: e.rv, seq: e.seq });
      this.othersFoo.delete(e.key);
    }
    if (p) {
      n.pass = p.number;
      if (p.cause === "self") n.self = true;
    }
    if (e.found === false) {
      n.text = `The pass looks ${e.key} up in the lister (the informer's local cache, no API call) and finds nothing: the Foo is gone, so the pass ends without writing.`;
      return n;
    }
    const gen = e.generation !== undefined ? `, generation ${e.generation}` : "";
    n.text = `The pass reads Foo ${e.key} from the lister — the informer's local cache, no API call${e.rv ? `: rv ${e.rv}${gen}` : ""}.`;
    const own = this.ownFooRv.get(e.key);
    if (e.rv !== undefined && own && isOlder(e.rv, own.rv)) {
      n.text += ` The cache is behind our own last write (rv ${own.rv}, seq ${own.seq}): a status write based on this read will be refused with 409 Conflict.`;
    }
    return n;
  }

  private write(e: WriteEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const n: Narration = { seq: e.seq, parts: ["api"], text: "" };
    if (p) {
      n.pass = p.number;
      if (p.cause === "self") n.self = true;
    }
    const what = targetText(e.target);
    const failed = (e.code !== undefined && e.code >= 400) || (e.code === undefined && !!e.reason);
    if (failed) {
      n.text =
        e.code === 409 && e.reason !== "AlreadyExists"
          ? `The API refused the ${e.verb} of ${what} with 409 Conflict: the write carried an old resourceVersion (${this.whyStale(e)}), so the pass fails and the key will be retried with backoff.`
          : `The API refused the ${e.verb} of ${what}: ${[e.code, e.reason].filter((x) => x !== undefined).join(" ")}, so the pass fails and the key will be retried with backoff.`;
      return n;
    }
    // A log that does not say whether a write changed its object (the Go controller's) still
    // shows it: an update that returns the rv the Foo already had stored nothing.
    const before = e.target.startsWith("foos/") ? this.fooRv.get(e.key) : undefined;
    const unchanged =
      e.changed === false ||
      (e.changed === undefined && e.verb !== "create" && e.rv !== undefined && e.rv === before);
    if (e.rv !== undefined && !unchanged) {
      this.ownRvs.set(e.rv, { seq: e.seq, verb: e.verb, key: e.key });
      if (e.target.startsWith("foos/")) {
        this.ownFooRv.set(e.key, { rv: e.rv, seq: e.seq });
        this.fooRv.set(e.key, e.rv);
      }
    }
    const code = e.code !== undefined ? `${e.code}, ` : "";
    const rv = e.rv !== undefined ? `rv ${e.rv}` : "";
    const fields = e.fields && e.fields.length > 0 ? e.fields.join(", ") : undefined;
    if (e.verb === "create") {
      n.text = `The pass creates ${what} through the API (${code}${rv || "created"}); the Deployment informer will deliver it back as an add — our own write's echo.`;
    } else if (unchanged) {
      n.text = `The pass ${e.verb === "updateStatus" ? "writes the Foo's status" : `sends ${e.verb} ${what}`} again, identical: the API server stores nothing and returns the same ${rv || "resourceVersion"}, so no watch event follows — a no-op write.`;
    } else if (e.verb === "updateStatus") {
      n.text = `The pass writes the Foo's status through the API (UpdateStatus, ${code}${fields ? `${fields} changed, ` : ""}new ${rv || "resourceVersion"}); the Foo informer will deliver the change back — our own write's echo.`;
    } else {
      n.text = `The pass sends ${e.verb} ${what} through the API (${code}${fields ? `${fields} changed, ` : ""}${rv || "ok"}); its informer will deliver the change back — our own write's echo.`;
    }
    return n;
  }

  private done(e: PassEndEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const worker = e.worker !== undefined ? `Worker ${e.worker}` : "The worker";
    const n: Narration = { seq: e.seq, parts: ["worker", "workqueue"], text: "" };
    if (p) {
      n.pass = p.number;
      if (p.cause === "self") n.self = true;
    }
    const back = this.parked.delete(e.key)
      ? ` ${e.key} was added again while this pass ran, so Done puts it straight back into the queue.`
      : "";
    const n0 = this.doneText(e, p, worker);
    n.text = n0 + (e.outcome !== "dropped" ? back : "");
    return n;
  }

  private doneText(e: PassEndEvent, p: Pass | undefined, worker: string): string {
    const n = { text: "" };
    if (e.outcome === "requeued") {
      n.text = `The pass failed (${short(e.error)}); ${worker.toLowerCase()} calls AddRateLimited and Done, so ${e.key} comes back after ${e.delayMs !== undefined ? `${e.delayMs} ms` : "a delay"} — the per-key backoff doubles with each failure in a row (5 ms, 10 ms, 20 ms …).`;
      return n.text;
    }
    if (e.outcome === "dropped") {
      n.text = `The pass failed while the controller was shutting down, so ${e.key} is dropped.`;
      return n.text;
    }
    n.text = `${worker} calls Done on ${e.key}: the pass ended synced and Forget resets the key's retry backoff.`;
    if (!p) return n.text;
    if (p.changingWrites === 0) {
      n.text +=
        p.cause === "self"
          ? " This self-triggered pass changed nothing: a no-op, as the idempotency rule requires."
          : " It changed nothing.";
    } else {
      n.text += ` It made ${plural(p.changingWrites, "changing write")}, whose echo${p.changingWrites === 1 ? "" : "es"} will bring the key back.`;
    }
    return n.text;
  }
}

/**
 * The pass before `pass` that changed named fields, looking back past passes that failed and
 * changed nothing (a 409 requeued, an error at shutdown dropped); undefined if the one before
 * synced without a change, or belonged to an earlier Foo of the same name.
 */
/** Our informer's note (foo-controller's) that a watch ended with 410 Gone: a re-list follows. */
const RELIST = /^the (\S+) informer's watch ended with 410 Gone/;

/** The Analyzer's default hot-loop threshold (see AnalyzerOptions.hotLoopThreshold). */
const HOT_LOOP_RUN = 5;

/**
 * How many self-triggered passes that changed something end at `pass`, counting it (0 when it is
 * none); passes that only stumbled on a conflict in between do not break the run, as the
 * Analyzer's hot-loop rule has it.
 */
function loopRun(passes: readonly Pass[], pass: Pass): number {
  const first = pass.index - (pass.number - 1);
  let run = 0;
  for (let i = pass.index; i >= first; i--) {
    const q = passes[i]!;
    if (q.cause === "self" && q.changingWrites > 0) run++;
    else if (!(q.changingWrites === 0 && q.conflicts > 0 && q.outcome === "requeued")) break;
  }
  return run;
}

function previousWriter(passes: readonly Pass[], pass: Pass): Pass | undefined {
  const first = pass.index - (pass.number - 1);
  for (let i = pass.index - 1; i >= first; i--) {
    const q = passes[i]!;
    if (q.changingWrites > 0) return q.changedFields.length > 0 ? q : undefined;
    if (q.outcome !== "requeued" && q.outcome !== "dropped") return undefined;
  }
  return undefined;
}

const VERB_TEXT: Record<WatchEvent["event"], string> = {
  add: "added",
  update: "updated",
  delete: "deleted",
};

function targetText(target: string): string {
  const m = /^(deployments|foos)\/([^/]+)\/([^/]+)(\/status)?$/.exec(target);
  if (!m) return target;
  const kind = m[1] === "deployments" ? "Deployment" : "Foo";
  return `${m[4] ? "the status of " : ""}${kind} ${m[2]}/${m[3]}`;
}

function firstWatch(p: Pass): string {
  const t = p.triggers.find((x) => x.cause === "external" && x.watchSeq !== undefined);
  return t ? ` (the watch event at seq ${t.watchSeq})` : "";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function short(s: string | undefined): string {
  if (!s) return "error";
  const first = s.split(":")[0] ?? s;
  return first.length > 90 ? `${first.slice(0, 87)}…` : first;
}

/** Whether resourceVersion `a` is older than `b`: numeric when both are, else unknown (false). */
function isOlder(a: string, b: string): boolean {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return a.length === b.length ? a < b : a.length < b.length;
}
