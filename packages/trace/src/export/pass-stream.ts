/**
 * Turns a stream of events into a stream of finished passes, for exporters that write a pass
 * once (a Chrome X slice, an OTLP span) as soon as it is complete.
 *
 * Invariants:
 * - Every event goes through the one incremental Analyzer, so passes, triggers and causes are
 *   exactly what the dashboard shows for the same trace.
 * - Each pass is handed out once, in the order its key's passes close; `rest()` hands out the
 *   passes still open at the end of the input (marked by their missing `end`).
 * - Memory is the Analyzer's (a small record per pass), never the events.
 * - Lives: a Foo deleted and created again under its name is another object (Analyzer.newLife).
 *   `life` says which of its key's lives the event just pushed belongs to (0 = the first): the
 *   life its pass is of, for an event in a pass (an old life's pass may end after the new life
 *   began), else the key's current one; `lifeOf` says it of a pass.
 */
import type { TraceEvent } from "../event.ts";
import type { Pass } from "../analysis/model.ts";
import { Analyzer, type AnalyzerOptions } from "../analysis/analyzer.ts";

export class PassStream {
  readonly analyzer: Analyzer;
  /** Per key: how many of its passes were handed out. */
  private readonly cursor = new Map<string, number>();
  /** Per key created again: the index of the first pass of each life, from the second on. */
  private readonly lifeStarts = new Map<string, number[]>();
  /** The life of the event last pushed (see the invariants). */
  life = 0;

  constructor(opts: AnalyzerOptions = {}) {
    this.analyzer = new Analyzer(opts);
  }

  /** Analyzes `e`; returns the passes of `e.key` that are closed now and were not handed out. */
  push(e: TraceEvent): Pass[] {
    const index = this.analyzer.push(e);
    this.life = e.key === "" ? 0 : this.lifeAt(e.key, index);
    if (e.key === "" || e.stage === "note") return [];
    return this.closed(e.key);
  }

  /** Which of its key's lives `p` is of (0 = the first). */
  lifeOf(p: Pass): number {
    return this.passLife(p.key, p.index);
  }

  /** The life of `key`'s latest event, in its pass `index` (-1: in none). */
  private lifeAt(key: string, index: number): number {
    const lives = this.analyzer.lives(key);
    if (lives <= 1) return 0;
    let starts = this.lifeStarts.get(key);
    if (starts === undefined) this.lifeStarts.set(key, (starts = []));
    // The event that began a life (its add) is in no pass: the new life's passes start at the next.
    while (starts.length < lives - 1) starts.push(this.analyzer.passCount(key));
    return index < 0 ? lives - 1 : this.passLife(key, index);
  }

  /** The life of `key`'s pass `index`. */
  private passLife(key: string, index: number): number {
    const starts = this.lifeStarts.get(key);
    if (starts === undefined) return 0;
    let life = starts.length;
    // A life with no pass starts where the next one does: a pass there is the later one's.
    while (life > 0 && starts[life - 1] > index) life--;
    return life;
  }

  /** After the last event: everything not handed out yet, open passes included, key by key. */
  rest(): Pass[] {
    const out: Pass[] = [];
    for (const key of this.analyzer.keys()) {
      const passes = this.analyzer.passes(key);
      for (let i = this.cursor.get(key) ?? 0; i < passes.length; i++) out.push(passes[i]);
      this.cursor.set(key, passes.length);
    }
    return out;
  }

  private closed(key: string): Pass[] {
    const a = this.analyzer;
    let i = this.cursor.get(key) ?? 0;
    // Asked after every event: count and look before building any pass.
    if (i >= a.passCount(key) || a.passEnd(key, i) === undefined) return [];
    const passes = a.passes(key);
    const out: Pass[] = [];
    while (i < passes.length && passes[i].end !== undefined) out.push(passes[i++]);
    this.cursor.set(key, i);
    return out;
  }
}
