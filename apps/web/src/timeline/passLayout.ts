/**
 * The pass view's layout (a sequence diagram): one column per pass of a Foo, the five stages as
 * rows. A column holds what made the pass run — its triggers' watch events and enqueues, stacked
 * when several adds merged into it — then the pass's own dequeue, read and writes, in order. A
 * trigger that echoed one of the controller's own writes is drawn as an arrow from that write (in
 * an earlier column) to the watch event in this one: the answer to "why did it run twice?".
 *
 * Pure: positions from the session's passes and rows; PassView.tsx only renders them.
 */
import type { Pass } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import { causeStyle, type CauseStyle } from "../ui/palette.ts";
import { causePassLabel, passLabel, shortPassLabel } from "./layout.ts";
import { markStyle, type MarkStyle } from "./marks.ts";

export interface PassMark {
  seq: number;
  /** Stage row, 0..4. */
  row: number;
  /** Position in the row's stack (merged adds, several writes: downwards). */
  slot: number;
  style: MarkStyle;
}

export interface PassColumn {
  pass: Pass;
  style: CauseStyle;
  label: string;
  /** The label without its merge ("#2 external"), then the shortest ("#2"). */
  cause: string;
  short: string;
  marks: PassMark[];
  /**
   * µs since the first event of the pass's life, at the pass's start: a Foo deleted and created
   * again under its name counts from its new creation, an earlier life's passes from theirs.
   */
  at: number;
  /** Idle time before this pass since the previous one ended, µs (0 for the first). */
  idle: number;
}

export interface EchoArrow {
  /** Column and seq of the write that was echoed. */
  fromColumn: number;
  fromSeq: number;
  /** Column and seq of the watch event that echoed it. */
  toColumn: number;
  toSeq: number;
}

export interface PassLayout {
  key: string;
  columns: PassColumn[];
  arrows: EchoArrow[];
  /** The most marks stacked in each row (rows grow to hold them). */
  stack: number[];
}

export function layoutPasses(session: TraceSession, key: string): PassLayout {
  const store = session.store;
  const passes = session.passesOf(key);
  const latest = session.summaryOf(key)?.firstTs;
  const tsOf = (seq: number | undefined) => {
    const row = seq === undefined ? -1 : store.rowOfSeq(seq);
    return row >= 0 ? store.ts.get(row) : undefined;
  };
  /**
   * When the life that `pass` (its first) begins started: the latest life's first event, as its
   * summary counts it; an earlier life's, its first pass's earliest trigger. Measured from the
   * latest creation, an earlier life's passes came out negative ("+-81066241 µs").
   */
  const lifeStart = (pass: Pass): number => {
    if (latest !== undefined && pass.start >= latest) return latest;
    let t = pass.start;
    for (const tr of pass.triggers)
      for (const seq of [tr.watchSeq, tr.enqueueSeq]) t = Math.min(t, tsOf(seq) ?? t);
    return t;
  };
  let origin = 0;
  const columnOfWrite = new Map<number, number>();
  const columns: PassColumn[] = [];
  const arrows: EchoArrow[] = [];
  const stack = [1, 1, 1, 1, 1];
  const mark = (seq: number | undefined, slot: number): PassMark | undefined => {
    if (seq === undefined) return undefined;
    const row = store.rowOfSeq(seq);
    if (row < 0) return undefined;
    const s = store.stage.get(row);
    if (s > 4) return undefined;
    stack[s] = Math.max(stack[s], slot + 1);
    return { seq, row: s, slot, style: markStyle(store, row) };
  };
  let prevEnd: number | undefined;
  passes.forEach((pass, c) => {
    if (c === 0 || pass.number === 1) origin = lifeStart(pass);
    const marks: PassMark[] = [];
    pass.triggers.forEach((t, i) => {
      const w = mark(t.watchSeq, i);
      const e = mark(t.enqueueSeq, i);
      if (w) marks.push(w);
      if (e) marks.push(e);
      if (t.cause === "self" && t.writeSeq !== undefined && t.watchSeq !== undefined) {
        const from = columnOfWrite.get(t.writeSeq);
        if (from !== undefined)
          arrows.push({ fromColumn: from, fromSeq: t.writeSeq, toColumn: c, toSeq: t.watchSeq });
      }
    });
    const d = mark(pass.dequeueSeq, 0);
    if (d) marks.push(d);
    const r = mark(pass.readSeq, 0);
    if (r) marks.push(r);
    pass.writeSeqs.forEach((seq, i) => {
      const m = mark(seq, i);
      if (m) marks.push(m);
      columnOfWrite.set(seq, c);
    });
    columns.push({
      pass,
      style: causeStyle(pass.cause, pass.inferred),
      label: passLabel(pass),
      cause: causePassLabel(pass),
      short: shortPassLabel(pass),
      marks,
      at: pass.start - origin,
      idle: prevEnd === undefined ? 0 : Math.max(0, pass.start - prevEnd),
    });
    prevEnd = pass.end ?? pass.start;
  });
  return { key, columns, arrows, stack };
}
