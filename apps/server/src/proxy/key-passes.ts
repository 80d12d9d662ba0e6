/**
 * One key's passes as the WireTracer infers them (its rules are in wire-tracer.ts): which watch
 * events trigger which pass, where a pass opens and ends, the rate-limited retry after a failed
 * one — and in what order the events go out, since the Analyzer reads a pass's triggers off that
 * order (every enqueue before the event it opens the pass at is that pass's).
 *
 * A pass's events are held until the key's next pass begins, or until the key has been quiet for
 * the pass gap: only then is it known whether the next pass had a trigger of its own. A pass
 * never runs without one (every pass is a workqueue Get of an added key), so when the next one
 * shows none, the latest trigger given to this one came too late for it: the proxy passed the
 * event on before the pass's first request reached it, but after the controller's worker had
 * taken the key. It is moved to the next pass. The dashboard therefore shows a key's pass once
 * its next pass begins or the key is quiet (the pass gap, default 250 ms).
 *
 * Invariants: every watch event given to `watch` goes out exactly once, followed (at once or
 * later) by exactly one enqueue naming it; events go out in an order where each enqueue follows
 * its watch event; nothing is held past `flush`.
 */
import type { UnsequencedEvent } from "@loopscope/trace";

/** An event on its way out; `seq` once emitted. */
interface Item {
  e: UnsequencedEvent;
  /** For an enqueue: the watch event it names (its seq becomes `causeSeq`). */
  cause?: Item;
  seq?: number;
}

/** A watch event no pass has taken yet. */
interface Waiting {
  watch: Item;
  /** Whether `watch` is in `out` already (else it goes there when the trigger is taken). */
  placed: boolean;
  ts: number;
  /** The object it is about (a name key) and the resourceVersion it brought. */
  object: string;
  rv?: string;
  /** A rate-limited re-add (no watch event): due at `ts`. */
  retry?: boolean;
}

/** client-go's default per-item limiter (sample-controller's, controller-runtime's): 5 ms × 2^n. */
const RETRY_BASE_US = 5_000;
const RETRY_MAX_US = 1000 * 1_000_000;

export class KeyPasses {
  /** What waits to go out, in order. */
  private out: Item[] = [];
  /** A pass is open: its first read or write was seen, its end not yet. */
  open = false;
  /** µs of the open pass's latest read or write, or of the last pass's end. */
  private last = 0;
  private failed = false;
  /** Consecutive failed passes (the retry's backoff); a pass that succeeds resets it. */
  private failures = 0;
  /** A pass began: its first request reached the proxy (at `beganAt`) but has no answer yet. */
  began = false;
  private beganAt = 0;
  /** How many of `waiting` the begun pass takes. */
  private takes = 0;
  private waiting: Waiting[] = [];
  /** Watch events parked during the open pass (their enqueues follow its opening event). */
  private parked = 0;
  /** The rate-limited re-add after a failed pass goes out once the next pass has opened. */
  private retryAfterNext = false;
  /** The held pass's opening item and the enqueue items it took, for the move in `release`. */
  private opening: Item | undefined;
  private taken: Item[] = [];

  constructor(
    readonly key: string,
    private readonly emit: (e: UnsequencedEvent) => number,
    private readonly gapUs: number,
  ) {}

  /** A watch event about the key (`object`: its name key; `rv`: what it brought). */
  watch(e: UnsequencedEvent, object: string, rv: string | undefined): void {
    const watch: Item = { e };
    if (this.open) {
      this.out.push(watch, this.enqueueOf(watch, e.ts));
      this.parked++;
      return;
    }
    // After a pass began, the event goes out after the event that opens the pass: the echo of the
    // pass's own write often comes before the write's answer, and the Analyzer takes an echo for
    // the pass's only if it follows the pass's start.
    const placed = !this.began;
    if (placed) this.out.push(watch);
    this.wait({ watch, placed, ts: e.ts, object, ...(rv !== undefined ? { rv } : {}) });
    this.release();
  }

  /**
   * A read or write of the key reached the proxy: with no pass open, the next pass has begun.
   * `sent`: the object its body carries and the resourceVersion it sent for it, if any.
   */
  begin(ts: number, sent: { object: string; rv?: string } | undefined): void {
    if (this.open || this.began) return;
    this.began = true;
    this.beganAt = ts;
    let takes = 0;
    while (takes < this.waiting.length && this.waiting[takes].ts <= ts) takes++;
    this.takes = sent?.rv !== undefined ? this.seenBefore(sent.object, sent.rv, takes) : takes;
    // The pass held is complete: if this one has no trigger (none waiting, none parked during the
    // held one, no retry), the held one took this one's.
    if (this.takes === 0 && this.parked === 0 && !this.retryAfterNext) this.moveLastTrigger();
    this.opening = undefined;
    this.release();
  }

  /** A read or write event of the key: it belongs to the open pass, or opens one. */
  activity(e: UnsequencedEvent): void {
    if (!this.open) {
      if (!this.began) this.begin(e.ts, undefined);
      // The pass's triggers, then the event the Analyzer opens it at, then what came too late
      // for it (the next pass's: the Analyzer keeps enqueues that come while a pass is open).
      this.taken = this.waiting.splice(0, this.takes).map((w) => this.takeWaiting(w));
      this.open = true;
      this.failed = false;
      this.began = false;
      this.opening = { e };
      this.out.push(this.opening);
      this.parked = this.waiting.length;
      for (const w of this.waiting.splice(0)) this.takeWaiting(w);
      if (this.retryAfterNext) {
        this.retryAfterNext = false;
        this.out.push(this.retryOf(e.ts));
        this.parked++;
      }
    } else {
      this.out.push({ e });
    }
    this.last = e.ts;
  }

  /** The open pass ends (after its last read or write); `failed`: one of its writes failed. */
  end(failed = false): void {
    if (failed) this.failed = true;
    if (!this.open) return;
    this.open = false;
    this.out.push({
      e: {
        stage: "done",
        ts: this.last,
        key: this.key,
        outcome: this.failed ? "requeued" : "synced",
        inferred: true,
      },
    });
    if (!this.failed) {
      this.failures = 0;
      return;
    }
    this.failures++;
    // Parked events re-add the key at Done, ahead of the rate-limited re-add.
    if (this.parked > 0) this.retryAfterNext = true;
    else {
      const delay = Math.min(RETRY_MAX_US, RETRY_BASE_US * 2 ** (this.failures - 1));
      const ts = this.last + delay;
      this.wait({ watch: this.retryOf(ts), placed: false, ts, object: "", retry: true });
    }
  }

  /** Whether `advance` may still have something to do for this key. */
  get busy(): boolean {
    return this.open || this.began || this.out.length > 0 || this.waiting.length > 0;
  }

  /**
   * Time is now `nowUs`: ends the open pass if it has been quiet for the gap, gives up on a begun
   * pass never answered, lets a quiet key's held pass and old waiting triggers go.
   */
  advance(nowUs: number): void {
    if (this.open && nowUs - this.last >= this.gapUs) this.end();
    if (this.began && nowUs - this.beganAt >= this.gapUs) this.began = false;
    if (this.open || this.began) return;
    if (nowUs - this.last >= this.gapUs) this.opening = undefined;
    // Triggers whose pass never showed (it read and wrote nothing): their enqueues go out.
    let n = 0;
    while (n < this.waiting.length && nowUs - this.waiting[n].ts >= this.gapUs) n++;
    for (const w of this.waiting.splice(0, n)) this.takeWaiting(w);
    this.release();
  }

  /** Everything out now (the proxy stops: what was seen is all there will be). */
  flush(): void {
    if (this.open) this.end();
    this.began = false;
    for (const w of this.waiting.splice(0)) this.takeWaiting(w);
    this.opening = undefined;
    this.release();
  }

  // ──────────────────────────────────────────────────────────────────────────────────────────

  private wait(w: Waiting): void {
    // In time order: a retry is due later than it is scheduled.
    let i = this.waiting.length;
    while (i > 0 && this.waiting[i - 1].ts > w.ts) i--;
    this.waiting.splice(i, 0, w);
  }

  /** Puts a waiting trigger's enqueue (and its watch event, if not there yet) into `out`. */
  private takeWaiting(w: Waiting): Item {
    if (w.retry) {
      this.out.push(w.watch);
      return w.watch;
    }
    if (!w.placed) this.out.push(w.watch);
    const item = this.enqueueOf(w.watch, w.ts);
    this.out.push(item);
    return item;
  }

  /**
   * How many of the first `takes` waiting watch events the controller had received, given that it
   * sent `rv` as the resourceVersion of `object`: up to the first event of that object after the
   * one that brought `rv` (every event of it, when none did: the controller had an older one).
   */
  private seenBefore(object: string, rv: string, takes: number): number {
    const w = this.waiting;
    let i = takes - 1;
    while (i >= 0 && !(w[i].object === object && w[i].rv === rv)) i--;
    for (let j = i + 1; j < takes; j++) if (w[j].object === object) return j;
    return takes;
  }

  /** The held pass's latest trigger becomes the next pass's (see the file's comment). */
  private moveLastTrigger(): void {
    const opening = this.opening;
    if (opening === undefined || this.taken.length < 2) return;
    const moved = this.taken.pop()!;
    if (moved.e.stage === "enqueue" && moved.e.cause === "retry") return;
    this.out.splice(this.out.indexOf(moved), 1);
    this.out.splice(this.out.indexOf(opening) + 1, 0, moved);
  }

  /** Emits `out`, unless a pass is held (see the file's comment). */
  private release(): void {
    if (this.opening !== undefined) return;
    const out = this.out;
    this.out = [];
    this.taken = [];
    for (const item of out) {
      if (item.cause !== undefined) (item.e as { causeSeq?: number }).causeSeq = item.cause.seq;
      item.seq = this.emit(item.e);
    }
  }

  private enqueueOf(watch: Item, ts: number): Item {
    return {
      // The cause said, as our probe says it: the Analyzer then takes retries from the retry
      // enqueues, not from its guess for logs that never say why a key was added.
      e: { stage: "enqueue", ts, key: this.key, cause: "watch", inferred: true },
      cause: watch,
    };
  }

  private retryOf(ts: number): Item {
    return { e: { stage: "enqueue", ts, key: this.key, cause: "retry", inferred: true } };
  }
}
