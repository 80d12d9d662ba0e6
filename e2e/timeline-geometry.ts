/**
 * Reads what the timeline's last frame drew — pass bands and every label, in canvas px, from the
 * same layout that painted them (Timeline.tsx keeps it on the canvas as `__geometry`) — and the
 * checks the timeline e2e and the README screenshot script make of it: passes wide enough, no
 * label over another, the self-triggered pass labelled.
 */
import type { Page } from "playwright-core";

/** What the painter records of a frame (apps/web/src/timeline/draw.ts): one declaration, read here. */
export type {
  DrawnGeometry as Geometry,
  DrawnLabel as Rect,
} from "../apps/web/src/timeline/draw.ts";
import type {
  DrawnGeometry as Geometry,
  DrawnLabel as Rect,
} from "../apps/web/src/timeline/draw.ts";

/** The geometry of a frame drawn after every change so far (two animation frames later). */
export async function readGeometry(page: Page): Promise<Geometry> {
  return page
    .getByTestId("timeline")
    .locator("canvas")
    .evaluate(
      (c) =>
        new Promise<Geometry>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve(
                JSON.parse(JSON.stringify((c as unknown as { __geometry: Geometry }).__geometry)),
              ),
            ),
          ),
        ),
    );
}

/** Pairs of labels whose boxes intersect (by more than half a pixel). */
export function overlappingLabels(labels: readonly Rect[]): [Rect, Rect][] {
  const out: [Rect, Rect][] = [];
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i];
      const b = labels[j];
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx > 0.5 && dy > 0.5) out.push([a, b]);
    }
  return out;
}

/** Mark labels drawn across a fold's break mark (±5 px of its middle), which would cut them. */
export function labelsOverBreaks(g: Geometry): Rect[] {
  return g.labels.filter(
    (l) => l.kind === "mark" && g.breaks.some((b) => l.x < b.mid + 5 && l.x + l.w > b.mid - 5),
  );
}

/** Self-triggered passes drawn, and whether one of them has its label in the header row. */
export function selfLabelled(g: Geometry): { drawn: number; labelled: boolean } {
  // A pass whose Foo's header row is scrolled under the axis has nowhere to be labelled.
  const self = g.passes.filter((p) => p.cause === "self" && p.headerInView);
  const labelled = g.labels.some(
    (l) =>
      l.kind === "pass" &&
      l.text.includes("self") &&
      self.some((p) => p.key === l.pass?.key && p.index === l.pass?.index),
  );
  return { drawn: self.length, labelled };
}
