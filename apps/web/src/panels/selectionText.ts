/**
 * What the selection is, in a few words: the Details panel's heading for it, and what the page
 * announces when it changes ("dequeue · seq 4", "Pass default/example-foo #1 external").
 */
import type { Pass, TraceEvent } from "@loopscope/trace";
import { passLabel } from "../timeline/layout.ts";

export function eventText(e: Pick<TraceEvent, "stage" | "seq">): string {
  return `${e.stage} · seq ${e.seq}`;
}

export function passText(p: Pass): string {
  return `Pass ${p.key} ${passLabel(p)}`;
}
