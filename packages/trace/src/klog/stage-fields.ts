/**
 * A STAGE line taken apart (see stage-bytes.ts): its fields as one record, refilled line after
 * line.
 *
 * A reader that stores rows instead of events (the page's replay worker: typed-array columns)
 * takes the record as it is (`StageRowTaker`), and no event object is made for the line at all:
 * on a klog file of a million lines that object, and walking its fields to encode it, cost more
 * than reading the line.
 */
import type { Stage } from "../event.ts";

/** Where a line's event is read: its time, source location and line number, refilled per line. */
export interface LineContext {
  ts: number;
  src: string;
  line: number;
  /**
   * The seq the line's event takes. The byte path numbers its events with it as it builds them:
   * the reader's own `e.seq = …` on events of a dozen shapes is a megamorphic store per event.
   */
  seq: number;
  /** The key of the byte path's last event: read from here, not from the event (same reason). */
  key: string | undefined;
}

/** Every field a STAGE line may carry that a row holds; undefined when the line does not. */
export interface StageFields {
  stage: Stage;
  key: string;
  rv: string | undefined;
  oldRv: string | undefined;
  len: number | undefined;
  worker: number | undefined;
  generation: number | undefined;
  code: number | undefined;
  kind: string | undefined;
  event: "add" | "update" | "delete" | undefined;
  name: string | undefined;
  ns: string | undefined;
  verb: string | undefined;
  target: string | undefined;
  reason: string | undefined;
  cause: "watch" | "resync" | "retry" | undefined;
  merged: false | "dirty" | "processing" | undefined;
  found: boolean | undefined;
  changed: boolean | undefined;
  /** `fields=` as written: a comma-separated list (the event's `fields` is its non-empty parts). */
  fields: string | undefined;
  /** The number of the line's source location (one per distinct one): equal numbers, equal texts. */
  srcId: number;
}

/**
 * Takes a klog log's canonical lines as rows: STAGE lines (`take`) and the controller's
 * "Successfully synced" lines (`takeSynced`: a pass's end; of `f` only the key and `srcId` are
 * set). Each returns false to decline (the line then becomes an event as usual). The line is
 * text[start, end) (the event's `raw`); its row takes the seq `at.seq`.
 */
export interface StageRowTaker {
  take(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean;
  takeSynced(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean;
}

/** An empty record (one per reader: it is refilled for every line). */
export function stageFields(): StageFields {
  return {
    stage: "watch",
    key: "",
    rv: undefined,
    oldRv: undefined,
    len: undefined,
    worker: undefined,
    generation: undefined,
    code: undefined,
    kind: undefined,
    event: undefined,
    name: undefined,
    ns: undefined,
    verb: undefined,
    target: undefined,
    reason: undefined,
    cause: undefined,
    merged: undefined,
    found: undefined,
    changed: undefined,
    fields: undefined,
    srcId: -1,
  };
}
