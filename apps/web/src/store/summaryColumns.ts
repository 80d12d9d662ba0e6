/**
 * Key summaries as one Float64Array, for posting from the analysis worker to the page. While a
 * big file loads, every key has events in every second of it: the worker sent ten thousand
 * KeySummary objects (three objects each) every second, and structured cloning them out and back
 * in was the page's longest task (~50 ms each).
 *
 * Invariants: a decoded summary equals the encoded one field for field (`reconcilesForCreate`'s
 * null is NaN in the column); a key's latest summary replaces its earlier ones.
 */
import { PASS_CAUSES, STAGES, type KeySummary } from "@loopscope/trace";

export interface SummaryBatch {
  keys: string[];
  /** STRIDE numbers per key, in `keys` order (see `write`). */
  values: Float64Array;
}

const BY_STAGE = 1;
const PASSES = BY_STAGE + STAGES.length;
const BY_CAUSE = PASSES + 1;
const REST = BY_CAUSE + PASS_CAUSES.length;
const STRIDE = REST + 10;

function write(s: KeySummary, out: Float64Array, at: number): void {
  out[at] = s.firstTs;
  for (let i = 0; i < STAGES.length; i++) out[at + BY_STAGE + i] = s.byStage[STAGES[i]];
  out[at + PASSES] = s.passes;
  for (let i = 0; i < PASS_CAUSES.length; i++)
    out[at + BY_CAUSE + i] = s.passCauses[PASS_CAUSES[i]];
  out[at + REST] = s.selfTriggered;
  out[at + REST + 1] = s.writes;
  out[at + REST + 2] = s.changingWrites;
  out[at + REST + 3] = s.noopWrites;
  out[at + REST + 4] = s.conflicts;
  out[at + REST + 5] = s.reconcilesForCreate ?? NaN;
  out[at + REST + 6] = s.quiescent ? 1 : 0;
  out[at + REST + 7] = s.hotLoop ? 1 : 0;
  out[at + REST + 8] = s.listed ? 1 : 0;
  out[at + REST + 9] = s.deleted ? 1 : 0;
}

function read(key: string, v: Float64Array, at: number): KeySummary {
  const r = v[at + REST + 5];
  return {
    key,
    firstTs: v[at],
    byStage: Object.fromEntries(
      STAGES.map((s, i) => [s, v[at + BY_STAGE + i]]),
    ) as KeySummary["byStage"],
    passes: v[at + PASSES],
    passCauses: Object.fromEntries(
      PASS_CAUSES.map((c, i) => [c, v[at + BY_CAUSE + i]]),
    ) as KeySummary["passCauses"],
    selfTriggered: v[at + REST],
    writes: v[at + REST + 1],
    changingWrites: v[at + REST + 2],
    noopWrites: v[at + REST + 3],
    conflicts: v[at + REST + 4],
    reconcilesForCreate: Number.isNaN(r) ? null : r,
    quiescent: v[at + REST + 6] === 1,
    hotLoop: v[at + REST + 7] === 1,
    listed: v[at + REST + 8] === 1,
    deleted: v[at + REST + 9] === 1,
  };
}

export function encodeSummaries(list: readonly KeySummary[]): SummaryBatch {
  const values = new Float64Array(list.length * STRIDE);
  const keys = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) {
    keys[i] = list[i].key;
    write(list[i], values, i * STRIDE);
  }
  return { keys, values };
}

export const NO_SUMMARIES: SummaryBatch = { keys: [], values: new Float64Array(0) };

/** Every key's latest summary, kept as numbers; a KeySummary is built when asked for. */
export class SummaryTable {
  private readonly rowOf = new Map<string, number>();
  private values = new Float64Array(64 * STRIDE);

  add(b: SummaryBatch): void {
    for (let i = 0; i < b.keys.length; i++) {
      const key = b.keys[i];
      let row = this.rowOf.get(key);
      if (row === undefined) {
        row = this.rowOf.size;
        this.rowOf.set(key, row);
        if ((row + 1) * STRIDE > this.values.length) {
          const next = new Float64Array(this.values.length * 2);
          next.set(this.values);
          this.values = next;
        }
      }
      this.values.set(b.values.subarray(i * STRIDE, (i + 1) * STRIDE), row * STRIDE);
    }
  }

  get(key: string): KeySummary | undefined {
    const row = this.rowOf.get(key);
    return row === undefined ? undefined : read(key, this.values, row * STRIDE);
  }
}
