/**
 * Passes as typed-array columns, for posting from the analysis worker to the page. Structured
 * cloning the Pass objects themselves (a pass, its lists and its triggers: half a dozen objects)
 * took longer than the analysis did, on the worker and again on the page's main thread.
 *
 * Invariants:
 * - one PassEncoder feeds one PassDecoder, batches in order (key and field-name ids continue
 *   from batch to batch, like the RowEncoder's);
 * - a decoded pass equals the encoded one field for field: an absent optional field stays absent,
 *   an empty list is the shared empty list.
 */
import { BatchIds, PASS_CAUSES, type Pass, type PassOutcome, type Trigger } from "@loopscope/trace";

export interface PassBatch {
  length: number;
  key: Uint32Array;
  index: Uint32Array;
  number: Uint32Array;
  start: Float64Array;
  /** Optional numbers: NaN when absent. */
  end: Float64Array;
  dequeueSeq: Float64Array;
  endSeq: Float64Array;
  readSeq: Float64Array;
  worker: Float64Array;
  /** Index in PASS_CAUSES. */
  cause: Uint8Array;
  /** INFERRED | FROM_MARKERS | HAS_CHANGING. */
  flags: Uint8Array;
  /** 0: absent, else 1 + index in OUTCOMES. */
  outcome: Uint8Array;
  changingWrites: Uint32Array;
  noopWrites: Uint32Array;
  conflicts: Uint32Array;
  loopRun: Uint32Array;
  /** Lists: a count per pass, the items of all passes one after another. */
  triggerCount: Uint32Array;
  triggerEnqueueSeq: Float64Array;
  triggerWatchSeq: Float64Array;
  triggerWriteSeq: Float64Array;
  triggerCause: Uint8Array;
  triggerInferred: Uint8Array;
  writeCount: Uint32Array;
  writeSeqs: Float64Array;
  changingCount: Uint32Array;
  changingSeqs: Float64Array;
  fieldCount: Uint32Array;
  fieldIds: Uint32Array;
  /** Key strings first used in this batch, ids from `firstKeyId` on; the same for field names. */
  firstKeyId: number;
  newKeys: string[];
  firstFieldId: number;
  newFields: string[];
}

const INFERRED = 1;
const FROM_MARKERS = 2;
const HAS_CHANGING = 4;
const OUTCOMES: readonly PassOutcome[] = ["synced", "requeued", "dropped"];
const CAUSE_CODE = new Map(PASS_CAUSES.map((c, i) => [c, i]));
const EMPTY: readonly never[] = Object.freeze([]);

/** The buffers of a batch, for `postMessage(batch, passTransferList(batch))`. */
export function passTransferList(b: PassBatch): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of Object.values(b)) if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  return out;
}

const opt = (v: number | undefined): number => (v === undefined ? NaN : v);

/** `n` items of `column` from `at`, as an array (no subarray: a typed-array view is a heavy object). */
function list(column: Float64Array, at: number, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = column[at + i];
  return out;
}
const unopt = (v: number): number | undefined => (Number.isNaN(v) ? undefined : v);

export class PassEncoder {
  private readonly keys = new BatchIds(0);
  private readonly fields = new BatchIds(0);

  encode(passes: readonly Pass[]): PassBatch {
    const n = passes.length;
    let triggers = 0;
    let writes = 0;
    let changing = 0;
    let fields = 0;
    // Indexed loops throughout: the for-of loops here allocated an iterator result per item
    // (this runs a few dozen times per load, too rarely to be optimized before it is done).
    for (let i = 0; i < n; i++) {
      const p = passes[i];
      triggers += p.triggers.length;
      writes += p.writeSeqs.length;
      changing += p.changingWriteSeqs?.length ?? 0;
      fields += p.changedFields.length;
    }
    const b: PassBatch = {
      length: n,
      key: new Uint32Array(n),
      index: new Uint32Array(n),
      number: new Uint32Array(n),
      start: new Float64Array(n),
      end: new Float64Array(n),
      dequeueSeq: new Float64Array(n),
      endSeq: new Float64Array(n),
      readSeq: new Float64Array(n),
      worker: new Float64Array(n),
      cause: new Uint8Array(n),
      flags: new Uint8Array(n),
      outcome: new Uint8Array(n),
      changingWrites: new Uint32Array(n),
      noopWrites: new Uint32Array(n),
      conflicts: new Uint32Array(n),
      loopRun: new Uint32Array(n),
      triggerCount: new Uint32Array(n),
      triggerEnqueueSeq: new Float64Array(triggers),
      triggerWatchSeq: new Float64Array(triggers),
      triggerWriteSeq: new Float64Array(triggers),
      triggerCause: new Uint8Array(triggers),
      triggerInferred: new Uint8Array(triggers),
      writeCount: new Uint32Array(n),
      writeSeqs: new Float64Array(writes),
      changingCount: new Uint32Array(n),
      changingSeqs: new Float64Array(changing),
      fieldCount: new Uint32Array(n),
      fieldIds: new Uint32Array(fields),
      firstKeyId: 0,
      newKeys: [],
      firstFieldId: 0,
      newFields: [],
    };
    let t = 0;
    let w = 0;
    let c = 0;
    let f = 0;
    for (let i = 0; i < n; i++) {
      const p = passes[i];
      b.key[i] = this.keys.id(p.key);
      b.index[i] = p.index;
      b.number[i] = p.number;
      b.start[i] = p.start;
      b.end[i] = opt(p.end);
      b.dequeueSeq[i] = opt(p.dequeueSeq);
      b.endSeq[i] = opt(p.endSeq);
      b.readSeq[i] = opt(p.readSeq);
      b.worker[i] = opt(p.worker);
      b.cause[i] = CAUSE_CODE.get(p.cause)!;
      b.flags[i] =
        (p.inferred ? INFERRED : 0) |
        (p.fromMarkers ? FROM_MARKERS : 0) |
        (p.changingWriteSeqs !== undefined ? HAS_CHANGING : 0);
      b.outcome[i] = p.outcome === undefined ? 0 : 1 + OUTCOMES.indexOf(p.outcome);
      b.changingWrites[i] = p.changingWrites;
      b.noopWrites[i] = p.noopWrites;
      b.conflicts[i] = p.conflicts;
      b.loopRun[i] = p.loopRun;
      const trs = p.triggers;
      b.triggerCount[i] = trs.length;
      for (let k = 0; k < trs.length; k++) {
        const tr = trs[k];
        b.triggerEnqueueSeq[t] = tr.enqueueSeq;
        b.triggerWatchSeq[t] = opt(tr.watchSeq);
        b.triggerWriteSeq[t] = opt(tr.writeSeq);
        b.triggerCause[t] = CAUSE_CODE.get(tr.cause)!;
        b.triggerInferred[t++] = tr.inferred ? 1 : 0;
      }
      const ws = p.writeSeqs;
      b.writeCount[i] = ws.length;
      for (let k = 0; k < ws.length; k++) b.writeSeqs[w++] = ws[k];
      const cs = p.changingWriteSeqs ?? EMPTY;
      b.changingCount[i] = cs.length;
      for (let k = 0; k < cs.length; k++) b.changingSeqs[c++] = cs[k];
      const fs = p.changedFields;
      b.fieldCount[i] = fs.length;
      for (let k = 0; k < fs.length; k++) b.fieldIds[f++] = this.fields.id(fs[k]);
    }
    const k = this.keys.take();
    const fl = this.fields.take();
    b.firstKeyId = k.first;
    b.newKeys = k.values;
    b.firstFieldId = fl.first;
    b.newFields = fl.values;
    return b;
  }
}

/** A batch as the decoder keeps it: where each row's list items start. */
interface Held {
  b: PassBatch;
  triggerAt: Uint32Array;
  writeAt: Uint32Array;
  changingAt: Uint32Array;
  fieldAt: Uint32Array;
}

function starts(counts: Uint32Array): Uint32Array {
  const at = new Uint32Array(counts.length);
  for (let i = 1; i < counts.length; i++) at[i] = at[i - 1] + counts[i - 1];
  return at;
}

/**
 * Keeps the batches of one PassEncoder and builds a Pass from any row of them on demand: the page
 * decodes only the passes a view asks for (a few keys' worth) instead of every pass of the trace
 * as it loads.
 */
export class PassDecoder {
  private readonly keys: string[] = [];
  private readonly fields: string[] = [];
  private readonly held: Held[] = [];

  /** Takes the next batch; returns its number (for `key` and `pass`). */
  add(b: PassBatch): number {
    if (b.firstKeyId !== this.keys.length || b.firstFieldId !== this.fields.length) {
      throw new Error("PassDecoder: batch out of step with the ones before it");
    }
    for (const k of b.newKeys) this.keys.push(k);
    for (const f of b.newFields) this.fields.push(f);
    this.held.push({
      b,
      triggerAt: starts(b.triggerCount),
      writeAt: starts(b.writeCount),
      changingAt: starts(b.changingCount),
      fieldAt: starts(b.fieldCount),
    });
    return this.held.length - 1;
  }

  /** The key of row `i` of batch `batch`. */
  key(batch: number, i: number): string {
    return this.keys[this.held[batch].b.key[i]];
  }

  /** Every pass of a batch, in order. */
  decode(b: PassBatch): Pass[] {
    const n = this.add(b);
    const out = new Array<Pass>(b.length);
    for (let i = 0; i < b.length; i++) out[i] = this.pass(n, i);
    return out;
  }

  /** The pass in row `i` of batch `batch`. */
  pass(batch: number, i: number): Pass {
    const { b, triggerAt, writeAt, changingAt, fieldAt } = this.held[batch];
    const flags = b.flags[i];
    const p: Pass = {
      key: this.keys[b.key[i]],
      index: b.index[i],
      number: b.number[i],
      start: b.start[i],
      triggers: EMPTY as never[],
      cause: PASS_CAUSES[b.cause[i]],
      inferred: (flags & INFERRED) !== 0,
      writeSeqs: EMPTY as never[],
      changingWrites: b.changingWrites[i],
      noopWrites: b.noopWrites[i],
      conflicts: b.conflicts[i],
      loopRun: b.loopRun[i],
      changedFields: EMPTY as never[],
      fromMarkers: (flags & FROM_MARKERS) !== 0,
    };
    const end = unopt(b.end[i]);
    if (end !== undefined) p.end = end;
    const dequeueSeq = unopt(b.dequeueSeq[i]);
    if (dequeueSeq !== undefined) p.dequeueSeq = dequeueSeq;
    const endSeq = unopt(b.endSeq[i]);
    if (endSeq !== undefined) p.endSeq = endSeq;
    const readSeq = unopt(b.readSeq[i]);
    if (readSeq !== undefined) p.readSeq = readSeq;
    const worker = unopt(b.worker[i]);
    if (worker !== undefined) p.worker = worker;
    if (b.outcome[i] !== 0) p.outcome = OUTCOMES[b.outcome[i] - 1];
    const nt = b.triggerCount[i];
    if (nt > 0) {
      const triggers: Trigger[] = new Array<Trigger>(nt);
      for (let j = 0, t = triggerAt[i]; j < nt; j++, t++) {
        const tr: Trigger = {
          enqueueSeq: b.triggerEnqueueSeq[t],
          cause: PASS_CAUSES[b.triggerCause[t]],
          inferred: b.triggerInferred[t] !== 0,
        };
        const watchSeq = unopt(b.triggerWatchSeq[t]);
        if (watchSeq !== undefined) tr.watchSeq = watchSeq;
        const writeSeq = unopt(b.triggerWriteSeq[t]);
        if (writeSeq !== undefined) tr.writeSeq = writeSeq;
        triggers[j] = tr;
      }
      p.triggers = triggers;
    }
    const nw = b.writeCount[i];
    if (nw > 0) p.writeSeqs = list(b.writeSeqs, writeAt[i], nw);
    if ((flags & HAS_CHANGING) !== 0) {
      p.changingWriteSeqs = list(b.changingSeqs, changingAt[i], b.changingCount[i]);
    }
    const nf = b.fieldCount[i];
    if (nf > 0) {
      const names = new Array<string>(nf);
      for (let j = 0, f = fieldAt[i]; j < nf; j++, f++) names[j] = this.fields[b.fieldIds[f]];
      p.changedFields = names;
    }
    return p;
  }
}
