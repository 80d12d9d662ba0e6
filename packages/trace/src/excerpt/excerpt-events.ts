/**
 * The events an excerpt is made of, picked from a trace as it streams by: those of the given key,
 * or — none given — of the default key, the first Foo created in the trace (else the first key
 * of an event that is no note).
 *
 * Invariants:
 * - `picked()` is the key's events in trace order, exactly those `events.filter(e => e.key ===
 *   key)` would give: a reader of a large log hands each event over and keeps nothing else.
 * - Until the first Foo is created, every keyed event is held (any key may turn out to be the
 *   default); from then on only that Foo's. A trace whose first Foo is created early — a patched
 *   controller's log, a recording — costs one Foo's events, not the trace's; one without watch
 *   lines (an unpatched controller's) is held whole until it ends.
 */
import type { TraceEvent } from "../event.ts";

export class ExcerptEvents {
  /** The key, once known: given, or the first Foo created. */
  private key: string | undefined;
  /** The key's events once it is known; before, every keyed event. */
  private kept: TraceEvent[] = [];
  /** The first key of an event that is no note: the default while no Foo is created. */
  private first: string | undefined;

  constructor(key?: string) {
    this.key = key;
  }

  take(e: TraceEvent): void {
    if (this.key !== undefined) {
      if (e.key === this.key) this.kept.push(e);
      return;
    }
    if (!e.key) return;
    if (this.first === undefined && e.stage !== "note") this.first = e.key;
    this.kept.push(e);
    if (e.stage === "watch" && e.kind === "Foo" && e.event === "add") {
      this.key = e.key;
      this.kept = this.kept.filter((x) => x.key === e.key);
    }
  }

  /** The key and its events so far; undefined while the trace names no key. */
  picked(): { key: string; events: TraceEvent[] } | undefined {
    if (this.key !== undefined) return { key: this.key, events: this.kept };
    const first = this.first;
    if (first === undefined) return undefined;
    return { key: first, events: this.kept.filter((e) => e.key === first) };
  }
}
