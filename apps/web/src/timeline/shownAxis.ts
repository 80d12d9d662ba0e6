/**
 * The time axis the lanes last drew, per view store: what the keyboard's zoom and pan go through,
 * so that `+` in folded time zooms as the wheel does there (about a point on the screen, through
 * the same fold), not linearly in wall time. The Timeline sets it on every render and clears it
 * when it goes (the pass view has no time axis).
 */
import type { ViewStore } from "../store/viewState.ts";
import type { TimeAxis } from "./timeScale.ts";

const shown = new WeakMap<ViewStore, TimeAxis>();

export function setShownAxis(view: ViewStore, axis: TimeAxis | undefined): void {
  if (axis) shown.set(view, axis);
  else shown.delete(view);
}

export function shownAxis(view: ViewStore): TimeAxis | undefined {
  return shown.get(view);
}
