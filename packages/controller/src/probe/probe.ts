/**
 * The stage probe: turns the controller's stage occurrences into trace events (packages/trace's
 * `UnsequencedEvent`) and, optionally, klog STAGE lines.
 *
 * Linking an enqueue to the watch event that caused it (`causeSeq`): `seq` is assigned by the
 * stream's owner, downstream of us. So the sink may **return the seq it assigned**; the probe
 * hands that back to the caller, which puts it into the enqueue's `causeSeq`. A sink that returns
 * nothing gets the probe's own 1-based ordinal of the event instead — equal to `seq` whenever the
 * consumer numbers this probe's events consecutively from 1 (the `run` command's JSONL writer
 * does), and at worst a stable local id otherwise.
 *
 * Invariants:
 * - `on` is false when there is neither a sink nor a klog writer; callers test it before building
 *   an event, so a controller without a probe pays one branch per stage.
 * - Every event gets `ts` (µs since the epoch, from a monotonic clock anchored at process start)
 *   and `src` (the probe call's `file.ts:line`, see site.ts).
 * - Events are delivered synchronously, in the order the stages happened.
 */
import type { UnsequencedEvent } from "@loopscope/trace";
import { resolveSite, type Site } from "./site.ts";
import { stageLine, structuredLine, type Severity } from "./klog.ts";

/** Receives each event; may return the seq it assigned (see the module comment). */
export type ProbeSink = (e: UnsequencedEvent) => number | void;

/** Writes one klog text line (without the trailing newline). */
export type KlogWriter = (line: string) => void;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as the controller describes it; the probe adds `ts` and `src`. */
export type Emittable = DistributiveOmit<UnsequencedEvent, "ts" | "src">;

/** µs since the epoch; performance.now() is monotonic and sub-ms. */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

export interface StageProbeOptions {
  sink?: ProbeSink;
  klog?: KlogWriter;
  /** klog verbosity: STAGE lines print at 2, "Processing object" at 4 (default 2). */
  verbosity?: number;
}

export class StageProbe {
  readonly on: boolean;
  private readonly sink: ProbeSink | undefined;
  private readonly klog: KlogWriter | undefined;
  readonly verbosity: number;
  private ordinal = 0;
  private readonly pid = process.pid;

  constructor(opts: StageProbeOptions = {}) {
    this.sink = opts.sink;
    this.klog = opts.klog;
    this.verbosity = opts.verbosity ?? 2;
    this.on = this.sink !== undefined || (this.klog !== undefined && this.verbosity >= 2);
  }

  /**
   * Emits one event from the call site `at` and returns its seq (or local ordinal). Must be
   * called directly from the instrumented line: the stack depth is fixed. Takes ownership of `e`
   * (a fresh object literal at every call site): `ts` and `src` are set on it, not on a copy.
   */
  emit(at: Site, e: Emittable): number {
    // The caller's fresh literal is completed in place: copying it (spread) costs ~70× more.
    const full = e as UnsequencedEvent;
    full.ts = nowMicros();
    full.src = at.src ?? resolveSite(at, 1);
    this.ordinal++;
    let seq: number | void = undefined;
    if (this.sink) seq = this.sink(full);
    if (this.klog && this.verbosity >= 2) {
      const line = stageLine(full, this.pid);
      if (line) this.klog(line);
    }
    return typeof seq === "number" ? seq : this.ordinal;
  }

  /** A controller message in klog's structured form (upstream's "Successfully synced" etc.). */
  log(
    at: Site,
    v: number,
    severity: Severity,
    msg: string,
    pairs: Array<[string, string | number]>,
  ): void {
    if (!this.klog || v > this.verbosity) return;
    const src = at.src ?? resolveSite(at, 1);
    this.klog(structuredLine(severity, nowMicros(), src, this.pid, msg, pairs));
  }
}
