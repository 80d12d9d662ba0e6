/**
 * Narration: for every event, a plain-language sentence saying what just happened and which part
 * of the client-go machinery did it, phrasing what the Analyzer classified — a watch event that
 * is the echo of our own write, the cause and triggers of a pass, a no-op or changing write, the
 * hot-loop run a pass extends and the Analyzer's threshold for calling it a hot loop. Narration
 * classifies nothing itself, so the step-through, the lanes, the findings and `loopscope stats`
 * never disagree.
 *
 * Invariants: one Narration per input event, same order, same seq; a claim about cause, echo,
 * change or loop is made only when the Analyzer made it (an inferred one is said to be inferred).
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
import { eventAssumed } from "../event.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import { refusedWrite } from "../analysis/refused-write.ts";
import type { Pass, Trigger } from "../analysis/model.ts";
import type { NarrationPart } from "./parts.ts";
import { listInBrief } from "../list-in-brief.ts";

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
  /** The event belongs to or feeds a self-triggered pass. */
  self?: boolean;
  /**
   * The event is the echo of our own write (a watch event), or the add it made: a self trigger,
   * whose pass may still count as external when another trigger merged into it.
   */
  echo?: boolean;
}

/** What narration phrases: the Analyzer's passes of a key and its hot-loop threshold. */
export interface NarrationContext {
  passes(key: string): readonly Pass[];
  readonly hotLoopThreshold: number;
}

/** Narrates a trace, as `ctx` analysed it; without `ctx`, an Analyzer with its defaults does. */
export function narrate(events: readonly TraceEvent[], ctx?: NarrationContext): Narration[] {
  let context = ctx;
  if (!context) {
    const a = new Analyzer();
    a.pushAll(events);
    context = a;
  }
  return new Narrator(context, events).all(events);
}

class Narrator {
  /** seq of a dequeue, read, write or done → its pass. */
  private readonly bySeq = new Map<number, Pass>();
  /** seq of an enqueue or of the watch event it came from → the pass it feeds and its trigger. */
  private readonly feeds = new Map<number, { pass: Pass; trigger: Trigger }>();
  /** Writes, reads and watch events by seq: what a trigger or a pass points at. */
  private readonly lookup = new Map<number, WriteEvent | ReadEvent | WatchEvent>();
  /**
   * Per kind: the seq of our informer's note that its watch ended with 410 Gone, while the re-list
   * that follows hands its objects over (until the next event that is no watch or enqueue).
   */
  private readonly relisting = new Map<string, number>();
  /** Watch events a re-list handed over (after 410 Gone): no watch event carried them. */
  private readonly relisted = new Set<number>();
  /** Keys re-added while a worker held them; Done hands them straight back to the queue. */
  private readonly parked = new Set<string>();
  /** Per key, the seq of its last enqueue: a watch event after it queued nothing. */
  private readonly lastEnqueue = new Map<string, number>();

  constructor(
    private readonly ctx: NarrationContext,
    events: readonly TraceEvent[],
  ) {
    const keys = new Set<string>();
    for (const e of events) {
      if (e.key !== "") keys.add(e.key);
      if (e.stage === "write" || e.stage === "read" || e.stage === "watch")
        this.lookup.set(e.seq, e);
      else if (e.stage === "enqueue") this.lastEnqueue.set(e.key, e.seq);
    }
    for (const key of keys) {
      for (const pass of ctx.passes(key)) {
        for (const s of [pass.dequeueSeq, pass.readSeq, pass.endSeq, ...pass.writeSeqs])
          if (s !== undefined) this.bySeq.set(s, pass);
        for (const trigger of pass.triggers) {
          this.feeds.set(trigger.enqueueSeq, { pass, trigger });
          if (trigger.watchSeq !== undefined) this.feeds.set(trigger.watchSeq, { pass, trigger });
        }
      }
    }
  }

  all(events: readonly TraceEvent[]): Narration[] {
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

  /** The Narration of an event of `pass` (or feeding it): its number, and whether it is self. */
  private of(seq: number, parts: NarrationPart[], pass: Pass | undefined, echo = false) {
    const n: Narration = { seq, parts, text: "" };
    if (pass) n.pass = pass.number;
    if (pass?.cause === "self") n.self = true;
    if (echo) n.echo = true;
    return n;
  }

  /**
   * What an echo means for the pass it feeds: self-triggered only when every trigger of it is
   * (docs/stages.md) — another trigger merged into the same pass makes it that trigger's.
   */
  private echoVerdict(pass: Pass | undefined, inferred: boolean): string {
    const counts = inferred ? "counts as" : "is";
    if (!pass || pass.cause === "self") return `the pass it triggers ${counts} self-triggered`;
    return `a self trigger — but pass ${pass.number}, which it feeds, also takes ${CAUSE_PHRASE[pass.cause]}, so that pass counts as ${pass.cause}: a pass is self-triggered only when every trigger of it is`;
  }

  /** " (the watch event at seq 12)": the first external trigger's event — or the re-list's. */
  private firstWatch(p: Pass): string {
    const t = p.triggers.find((x) => x.cause === "external" && x.watchSeq !== undefined);
    if (!t) return "";
    return this.relisted.has(t.watchSeq!)
      ? ` (the re-list's event at seq ${t.watchSeq}, no watch event)`
      : ` (the watch event at seq ${t.watchSeq})`;
  }

  private writeAt(seq: number): WriteEvent | undefined {
    const w = this.lookup.get(seq);
    return w?.stage === "write" ? w : undefined;
  }

  /** "our own updateStatus at seq 9": the write a self trigger names. */
  private ownWrite(writeSeq: number): string {
    const w = this.lookup.get(writeSeq);
    return `our own ${w?.stage === "write" ? w.verb : "write"} at seq ${writeSeq}`;
  }

  private watch(e: WatchEvent): Narration {
    const obj = `${e.kind} ${e.ns ? `${e.ns}/` : ""}${e.name}`;
    const rv = e.rv ? ` (rv ${e.rv})` : "";
    const fed = this.feeds.get(e.seq);
    const t = fed?.trigger;
    const n = this.of(e.seq, ["informer", "handler"], fed?.pass, t?.cause === "self");
    if (e.key === "") {
      n.text = e.initial
        ? `The ${e.kind} informer listed ${obj}${rv} in its initial list and the event handler found no Foo that owns it, so it queues nothing: the informers list side by side, and the Foo informer may not have listed its owner yet (the Foo's own add queues it) — or that Foo is gone.`
        : `The ${e.kind} informer delivered a watch event — ${obj} ${VERB_TEXT[e.event]}${rv} — and the event handler found no Foo that owns it (any more), so it queues nothing.`;
      return n;
    }
    // The event itself says it is a resync (the same rv as before); the Analyzer also calls an add
    // of an object it already had, unchanged, one: the informer listed it again.
    if (t?.cause === "resync" || (e.event === "update" && e.rv !== undefined && e.oldRv === e.rv)) {
      n.text =
        e.event === "add"
          ? `The Foo informer listed ${obj} again${rv}, unchanged — the controller restarted, or its watch was set up anew — and the event handler queues ${e.key}: like a resync, not a new Foo.`
          : `Periodic resync: the ${e.kind} informer re-delivered ${obj} unchanged${e.rv ? ` (same rv ${e.rv})` : ""}; the event handler queues ${e.key} anyway.`;
      return n;
    }
    // A trace with enqueue lines that has none after this event: the queue took nothing (a
    // controller that is stopping shuts its queue first), or the trace ends here.
    const queued = !this.lastEnqueue.size || (this.lastEnqueue.get(e.key) ?? 0) > e.seq;
    const route = !queued
      ? `the event handler would queue ${e.key} — but no enqueue of it follows in this trace (a controller that is stopping adds nothing to its shut-down queue; or the trace ends here)`
      : e.kind === "Foo"
        ? `the event handler queues its key`
        : `the event handler resolves its owner to Foo ${e.key} and queues that key`;
    const relist = this.relisting.get(e.kind);
    if (relist !== undefined && !e.initial) this.relisted.add(e.seq);
    const head = e.initial
      ? `The ${e.kind} informer listed ${obj}${rv} as the controller started — an add of its initial list, not of a watch event — and ${route}.`
      : relist !== undefined
        ? `The ${e.kind} informer's re-list (its watch ended with 410 Gone, seq ${relist}) found ${obj} ${VERB_TEXT[e.event]}${rv} against its cache and handed that over as an event — no watch event carried it — and ${route}.`
        : `The ${e.kind} informer's reflector received a watch event — ${obj} ${eventAssumed(e) ? "(its STAGE line does not say added or updated)" : VERB_TEXT[e.event]}${rv} — and ${route}.`;
    if (t?.cause === "self" && t.writeSeq !== undefined) {
      const own = this.ownWrite(t.writeSeq);
      const verdict = this.echoVerdict(fed?.pass, t.inferred);
      n.text = t.inferred
        ? `${head} The Analyzer takes it for the echo of ${own}, by timing (the trace has no resourceVersions to match), so ${verdict}.`
        : t.writeSeq > e.seq
          ? `${head} It is the echo of ${own.replace(" at ", " logged below at ")} (same resourceVersion): the API server sent the watch event before the write's response came back. ${capitalized(verdict)}.`
          : `${head} It is the echo of ${own} (same resourceVersion), so ${verdict}.`;
      return n;
    }
    if (t?.cause !== "external") {
      n.text = head; // No pass took it up yet: the Analyzer has not classified it.
      return n;
    }
    if (e.initial) {
      n.text = `${head} It existed before the run — no creation: the controller catches up with what was already there, an external trigger.`;
      return n;
    }
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
    const guess = t.inferred ? " (by timing: no write of ours came just before it)" : "";
    n.text = `${head} ${who}: an external trigger${guess}.`;
    return n;
  }

  private enqueue(e: EnqueueEvent): Narration {
    const fed = this.feeds.get(e.seq);
    const t = fed?.trigger;
    const self = t?.cause === "self" && t.writeSeq !== undefined;
    const n = this.of(e.seq, ["workqueue"], fed?.pass, self);
    const echo = self
      ? ` (${t.inferred ? "taken by timing for " : ""}the echo of our own write at seq ${t.writeSeq}${fed && fed.pass.cause !== "self" ? `; pass ${fed.pass.number} counts as ${fed.pass.cause}, another trigger merged into it` : ""})`
      : "";
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
    const n = this.of(e.seq, ["worker", "workqueue"], p);
    n.text = `${worker} takes ${e.key} off the workqueue (Get) and starts ${p ? `pass ${p.number}` : "a pass"} for it${left}.`;
    if (!p) return n;
    const echoes = p.triggers.filter((t) => t.cause === "self").length;
    const merged =
      p.triggers.length <= 1
        ? ""
        : p.cause !== "self" && echoes > 0
          ? ` ${p.triggers.length} triggers merged into this one pass, ${echoes === 1 ? "one of them" : `${echoes} of them`} our own write coming back: with another cause among them, it is not a self-triggered pass.`
          : ` ${p.triggers.length} triggers merged into this one pass.`;
    const guess = p.inferred ? " (inferred by timing: the trace has no resourceVersions)" : "";
    switch (p.cause) {
      case "self": {
        const writes = [
          ...new Set(p.triggers.map((t) => t.writeSeq).filter((s) => s !== undefined)),
        ];
        n.text += ` Every trigger was our own write coming back${writes.length ? ` (seq ${writes.join(", ")})` : ""}: a self-triggered pass${guess}.${this.loop(p)}${merged}`;
        break;
      }
      case "external":
        n.text += ` It was triggered by an external change${this.firstWatch(p)}${guess}.${merged}`;
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
   * What a self-triggered pass does to the Analyzer's hot-loop run (Pass.loopRun), told at its
   * dequeue — before it writes, so in the future tense, naming its write.
   */
  private loop(p: Pass): string {
    const threshold = this.ctx.hotLoopThreshold;
    if (p.loopRun === 0) {
      return p.end !== undefined && p.outcome === "synced" && p.changingWrites === 0
        ? " It will find nothing left to do."
        : "";
    }
    const fields = p.changedFields.length > 0 ? listInBrief(p.changedFields) : "something";
    const at = p.changingWriteSeqs?.[0];
    const write = `This pass will change ${fields}${at !== undefined ? ` (its write at seq ${at})` : ""}`;
    // Passes refused with 409 inside the run are bridged, not counted (as the finding says).
    const passes = this.ctx.passes(p.key);
    let refused = 0;
    for (let i = p.index - 1, want = p.loopRun - 1; want >= 1 && i >= 0; i--) {
      if (passes[i]!.loopRun === want) want--;
      else refused++;
    }
    const run =
      p.loopRun === 1
        ? "the first self-triggered pass in a row to change something"
        : refused > 0
          ? `${p.loopRun} self-triggered passes that each changed something, with ${refused} refused with 409 between them (not counted)`
          : `${p.loopRun} self-triggered passes in a row that each changed something`;
    return p.loopRun >= threshold
      ? ` ${write}: the key is looping on its own writes — a hot loop: ${run}; the Analyzer's threshold is ${threshold}.`
      : ` ${write}: ${p.loopRun === 1 ? "" : "the key is looping on its own writes, "}${run}; the Analyzer calls ${threshold} a hot loop.`;
  }

  private read(e: ReadEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const n = this.of(e.seq, ["lister"], p);
    if (e.found === false) {
      n.text = `The pass looks ${e.key} up in the lister (the informer's local cache, no API call) and finds nothing: the Foo is gone, so the pass ends without writing.`;
      return n;
    }
    const gen = e.generation !== undefined ? `, generation ${e.generation}` : "";
    n.text = `The pass reads Foo ${e.key} from the lister — the informer's local cache, no API call${e.rv ? `: rv ${e.rv}${gen}` : ""}.`;
    return n;
  }

  private write(e: WriteEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const n = this.of(e.seq, ["api"], p);
    const what = targetText(e.target);
    // A write whose line said no answer, refused as its pass's error says (a 409).
    const refusedByError = p !== undefined && refusedWrite(p, (s) => this.writeAt(s)) === e.seq;
    const failed =
      (e.code !== undefined && e.code >= 400) ||
      (e.code === undefined && !!e.reason) ||
      refusedByError;
    if (failed) {
      // The pass's end says what became of the key: a controller that is stopping drops it.
      const then =
        p?.outcome === "dropped"
          ? "so the pass fails — and the controller is stopping, so the key is dropped, not retried"
          : "so the pass fails and the key will be retried with backoff";
      n.text =
        (e.code === 409 && e.reason !== "AlreadyExists") || refusedByError
          ? `The API refused ${writeNoun(e.verb, e.target)} with 409 Conflict: the object changed after this pass read it${this.since(e, p)}, ${then}.`
          : `The API refused ${writeNoun(e.verb, e.target)}: ${[e.code, e.reason].filter((x) => x !== undefined).join(" ")}, ${then}.`;
      return n;
    }
    const code = e.code !== undefined ? `${e.code}, ` : "";
    const rv = e.rv !== undefined ? `rv ${e.rv}` : "";
    const fields = e.fields && e.fields.length > 0 ? `${listInBrief(e.fields)} changed, ` : "";
    if (!p?.changingWriteSeqs?.includes(e.seq)) {
      n.text = !p
        ? `The pass ${writeVerbPhrase(e.verb, what)} through the API (${code}${rv || "ok"}).`
        : `The pass ${e.verb === "updateStatus" ? "writes the Foo's status" : writeVerbPhrase(e.verb, what)} again, identical: the API server stores nothing and returns ${rv ? `the same ${rv}` : "the object as it was"}, so no watch event follows — a no-op write.`;
    } else if (e.verb === "create") {
      n.text = `The pass creates ${what} through the API (${code}${rv || "created"}); the Deployment informer will deliver it back as an add — our own write's echo.`;
    } else if (e.verb === "updateStatus") {
      n.text = `The pass writes the Foo's status through the API (UpdateStatus, ${code}${fields}new ${rv || "resourceVersion"}); the Foo informer will deliver the change back — our own write's echo.`;
    } else {
      n.text = `The pass ${writeVerbPhrase(e.verb, what)} through the API (${code}${fields}${rv || "ok"}); its informer will deliver the change back — our own write's echo.`;
    }
    return n;
  }

  /**
   * What changed the object after the pass read it, as the Analyzer classified the watch events
   * of that object between the read and the refused write: our own earlier write, whose echo
   * reached the lister only after the read, or another writer's change.
   */
  private since(e: WriteEvent, p: Pass | undefined): string {
    const read = p?.readSeq !== undefined ? this.lookup.get(p.readSeq) : undefined;
    if (read?.stage !== "read") return "";
    const at = ` (${read.rv !== undefined ? `rv ${read.rv} ` : ""}at seq ${read.seq})`;
    const kind = e.target.startsWith("foos/") ? "Foo" : "Deployment";
    for (let s = read.seq + 1; s < e.seq; s++) {
      const w = this.lookup.get(s);
      const t = this.feeds.get(s)?.trigger;
      if (w?.stage !== "watch" || w.key !== e.key || w.kind !== kind || !t || t.inferred) continue;
      if (t.cause === "self" && t.writeSeq !== undefined && t.writeSeq < read.seq)
        return `${at}: ${this.ownWrite(t.writeSeq)} came back only at seq ${s}, after this read — the lister was behind our own write`;
      if (t.cause === "external") return `${at}: another writer's change came in at seq ${s}`;
    }
    return `${at} — the lister's copy was behind`;
  }

  private done(e: PassEndEvent): Narration {
    const p = this.bySeq.get(e.seq);
    const worker = e.worker !== undefined ? `Worker ${e.worker}` : "The worker";
    const n = this.of(e.seq, ["worker", "workqueue"], p);
    const back = this.parked.delete(e.key)
      ? ` ${e.key} was added again while this pass ran, so Done puts it straight back into the queue.`
      : "";
    // A dropped key is not retried, but one added again while the pass ran still goes back.
    n.text = doneText(e, p, worker) + back;
    return n;
  }
}

function doneText(e: PassEndEvent, p: Pass | undefined, worker: string): string {
  if (e.outcome === "requeued") {
    return `The pass failed (${short(e.error)}); ${worker.toLowerCase()} calls AddRateLimited and Done, so ${e.key} comes back after ${e.delayMs !== undefined ? `${e.delayMs} ms` : "a delay"} — the per-key backoff doubles with each failure in a row (5 ms, 10 ms, 20 ms …).`;
  }
  if (e.outcome === "dropped") {
    return `The pass failed while the controller was shutting down, so ${e.key} is dropped.`;
  }
  const text = `${worker} calls Done on ${e.key}: the pass ended synced and Forget resets the key's retry backoff.`;
  if (!p) return text;
  if (p.changingWrites === 0) {
    return (
      text +
      (p.cause === "self"
        ? " This self-triggered pass changed nothing: a no-op, as the idempotency rule requires."
        : " It changed nothing.")
    );
  }
  return `${text} It made ${plural(p.changingWrites, "changing write")}, whose echo${p.changingWrites === 1 ? "" : "es"} will bring the key back.`;
}

/** Our informer's note (foo-controller's) that a watch ended with 410 Gone: a re-list follows. */
/** A pass cause as the trigger a pass "also takes". */
const CAUSE_PHRASE: Record<Pass["cause"], string> = {
  external: "an external change",
  self: "an echo of our own write",
  resync: "a periodic resync",
  retry: "a retry of a failed pass",
  unknown: "an add of unknown cause",
};

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const RELIST = /^the (\S+) informer's watch ended with 410 Gone/;

const VERB_TEXT: Record<WatchEvent["event"], string> = {
  add: "added",
  update: "updated",
  delete: "deleted",
};

/** A write as the pass's verb: "updates Deployment default/x", "writes the status of Foo …". */
function writeVerbPhrase(verb: string, what: string): string {
  switch (verb) {
    case "create":
      return `creates ${what}`;
    case "update":
      return `updates ${what}`;
    case "updateStatus":
      return `writes ${what}`;
    case "patch":
      return `patches ${what}`;
    case "delete":
      return `deletes ${what}`;
    default:
      return `sends ${verb} ${what}`;
  }
}

/** A write as a noun: "the update of Deployment default/x", "the status write of Foo default/x". */
function writeNoun(verb: string, target: string): string {
  const what = targetText(target);
  if (verb === "updateStatus")
    return `the status write (UpdateStatus) of ${what.replace(/^the status of /, "")}`;
  return `the ${verb} of ${what}`;
}

function targetText(target: string): string {
  const m = /^(deployments|foos)\/([^/]+)\/([^/]+)(\/status)?$/.exec(target);
  if (!m) return target;
  const kind = m[1] === "deployments" ? "Deployment" : "Foo";
  return `${m[4] ? "the status of " : ""}${kind} ${m[2]}/${m[3]}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function short(s: string | undefined): string {
  if (!s) return "error";
  const first = s.split(":")[0] ?? s;
  return first.length > 90 ? `${first.slice(0, 87)}…` : first;
}
