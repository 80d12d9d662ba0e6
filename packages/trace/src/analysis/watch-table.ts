/**
 * How each key's latest watch events were classified, as one table: a key's ring is a row of
 * RECENT slots, and a slot is [seq, code, writeSeq]. An enqueue looks its watch event up here (the
 * latest, or by seq); an echo that turns up after its write corrects a slot's cause.
 *
 * Why a table: a key's watch events come once per pass, long after its last pass, so each
 * object they touched was a cache miss — the ring's array and a record per slot. Here a watch
 * event writes three doubles side by side.
 *
 * Invariants:
 * - A slot is named by a number, ring × RECENT + index; it keeps its classification until the
 *   ring comes round to it again (RECENT watch events of the key later).
 * - An empty slot has code 0, whatever its seq: seqs are any safe integers.
 */
import type { PassCause } from "./model.ts";
import { CAUSE_CODE, PASS_CAUSES } from "./model.ts";
import { RowChunks } from "./row-chunks.ts";

/** Slots per ring: a power of two, so a slot's ring and index are a shift and a mask. */
export const WATCH_SLOTS = 16;
const SLOT_BITS = 4;

/** A slot's doubles. */
const SEQ = 0;
/** 1 + the cause's code (see CAUSE_CODE) times 2, plus 1 when inferred; 0: empty. */
const CODE = 1;
const WRITE_SEQ = 2;
const SLOT_WIDTH = 3;

export class WatchTable {
  private readonly rows = new RowChunks(WATCH_SLOTS * SLOT_WIDTH);

  /** A new, empty ring; its number. */
  add(): number {
    return this.rows.add();
  }

  /** Slot `index` (0 ‥ WATCH_SLOTS - 1) of the ring. */
  slot(ring: number, index: number): number {
    return (ring << SLOT_BITS) | index;
  }

  /** Fills the slot with a watch event's classification; returns the slot. */
  set(
    slot: number,
    seq: number,
    cause: PassCause,
    inferred: boolean,
    writeSeq: number | undefined,
  ): number {
    const n = this.nums(slot);
    const o = this.at(slot);
    n[o + SEQ] = seq;
    n[o + CODE] = 1 + CAUSE_CODE[cause] * 2 + (inferred ? 1 : 0);
    n[o + WRITE_SEQ] = writeSeq ?? NaN;
    return slot;
  }

  seq(slot: number): number {
    return this.nums(slot)[this.at(slot) + SEQ];
  }

  cause(slot: number): PassCause {
    return PASS_CAUSES[(this.nums(slot)[this.at(slot) + CODE] - 1) >> 1];
  }

  inferred(slot: number): boolean {
    return ((this.nums(slot)[this.at(slot) + CODE] - 1) & 1) === 1;
  }

  writeSeq(slot: number): number | undefined {
    const w = this.nums(slot)[this.at(slot) + WRITE_SEQ];
    return w === w ? w : undefined;
  }

  /** The ring's slot that holds the watch event `seq`, or -1. */
  find(ring: number, seq: number): number {
    const n = this.rows.nums(ring);
    const o = this.rows.at(ring);
    for (let i = 0; i < WATCH_SLOTS; i++) {
      const j = o + i * SLOT_WIDTH;
      if (n[j + CODE] !== 0 && n[j + SEQ] === seq) return this.slot(ring, i);
    }
    return -1;
  }

  private nums(slot: number): Float64Array {
    return this.rows.nums(slot >> SLOT_BITS);
  }

  private at(slot: number): number {
    return this.rows.at(slot >> SLOT_BITS) + (slot & (WATCH_SLOTS - 1)) * SLOT_WIDTH;
  }
}
