/**
 * What a single event looks like on its lane: glyph, colour and a short label. Pure; the renderer
 * paints these, the tooltip and the tests read them.
 */
import { eventAssumed, STAGES } from "@loopscope/trace";
import type { TraceStore } from "../store/traceStore.ts";
import { FAILED_WRITE_COLOR, OKABE_ITO, STAGE_COLOR } from "../ui/palette.ts";

export type Glyph =
  "tick" | "diamond" | "hollow-diamond" | "triangle" | "circle" | "square" | "cross";

export interface MarkStyle {
  glyph: Glyph;
  color: string;
  /** Short text drawn beside the mark when there is room ("Foo add", "updateStatus 409"). */
  label: string;
}

/** Style of the mark for the event at `row` (stage code < 5; pass ends and notes have none). */
export function markStyle(store: TraceStore, row: number): MarkStyle {
  const stage = STAGES[store.stage.get(row)];
  const d = store.detailOf(row);
  switch (stage) {
    case "watch": {
      const kind = String(d.kind ?? "?");
      // A bare STAGE/watch line says no event: not "add" on a mark that may be an update.
      const ev = eventAssumed(d) ? "event" : String(d.event ?? "");
      const color = kind === "Foo" ? OKABE_ITO.skyBlue : OKABE_ITO.orange;
      return {
        glyph: ev === "delete" ? "cross" : kind === "Foo" ? "circle" : "square",
        color,
        label: `${kind} ${ev}`.trim(),
      };
    }
    case "enqueue": {
      const merged = d.merged === "dirty" || d.merged === "processing";
      const cause = typeof d.cause === "string" ? d.cause : "";
      return {
        glyph: merged ? "hollow-diamond" : "diamond",
        color: STAGE_COLOR.enqueue,
        label: merged ? `merged (${String(d.merged)})` : cause,
      };
    }
    case "dequeue": {
      const w = d.worker === undefined ? "" : `w${String(d.worker)}`;
      return { glyph: "triangle", color: STAGE_COLOR.dequeue, label: w };
    }
    case "read":
      return {
        glyph: d.found === false ? "cross" : "circle",
        color: STAGE_COLOR.read,
        label: d.found === false ? "not found" : "",
      };
    case "write": {
      const code = typeof d.code === "number" ? d.code : undefined;
      const failed = code !== undefined && code >= 400;
      const noop = d.changed === false;
      // Vermillion is the legend's 409 conflict; any other refusal is told by its code alone.
      const failedColor = code === 409 ? OKABE_ITO.vermillion : FAILED_WRITE_COLOR;
      return {
        glyph: failed ? "cross" : noop ? "tick" : "square",
        color: failed ? failedColor : STAGE_COLOR.write,
        label: `${String(d.verb ?? "write")}${failed ? ` ${code}` : noop ? " (no-op)" : ""}`,
      };
    }
    default:
      return { glyph: "tick", color: OKABE_ITO.grey, label: "" };
  }
}
