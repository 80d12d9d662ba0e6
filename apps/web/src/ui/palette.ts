/**
 * Colours: the Okabe–Ito palette (distinguishable under the common colour-vision deficiencies),
 * one hue per stage and per pass cause. Cause is never shown by colour alone: self-triggered passes
 * also get a hatch pattern and a text label, so the distinction survives greyscale projectors.
 */
import type { PassCause, Stage } from "@loopscope/trace";

export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
  grey: "#999999",
} as const;

export const STAGE_COLOR: Record<Stage, string> = {
  watch: OKABE_ITO.skyBlue,
  enqueue: OKABE_ITO.orange,
  dequeue: OKABE_ITO.blue,
  read: OKABE_ITO.bluishGreen,
  write: OKABE_ITO.reddishPurple,
};

/**
 * A write refused for anything but a conflict (401, 403, 500 …): neutral grey, as vermillion is
 * the 409's — the legend says "✕ 409 — conflict: stale read, retried", which a 401 is not.
 */
export const FAILED_WRITE_COLOR = OKABE_ITO.grey;

export interface CauseStyle {
  color: string;
  /** Diagonal hatching over the band: only self-triggered passes have it. */
  hatch: boolean;
  /** Text drawn on the band and in legends. */
  label: string;
}

const CAUSE_STYLE: Record<PassCause, CauseStyle> = {
  self: { color: OKABE_ITO.vermillion, hatch: true, label: "self-triggered" },
  external: { color: OKABE_ITO.blue, hatch: false, label: "external" },
  resync: { color: OKABE_ITO.bluishGreen, hatch: false, label: "resync" },
  retry: { color: OKABE_ITO.yellow, hatch: false, label: "retry" },
  unknown: { color: OKABE_ITO.grey, hatch: false, label: "unknown cause" },
};

/** How a pass of this cause is drawn. `inferred` classifications say so in the label. */
export function causeStyle(cause: PassCause, inferred = false): CauseStyle {
  const s = CAUSE_STYLE[cause] ?? CAUSE_STYLE.unknown;
  return inferred ? { ...s, label: `${s.label} (inferred)` } : s;
}

export interface ThemeColors {
  background: string;
  panel: string;
  text: string;
  muted: string;
  grid: string;
  laneAlt: string;
  selection: string;
  /**
   * A self-triggered pass's label ("#2 self-triggered"): vermillion's hue, darker on the light
   * canvas and lighter on the dark ones, so the text reads at 4.5:1 on the header row (the band
   * and its chip keep OKABE_ITO.vermillion itself). The stylesheet's --bad-text is the same.
   */
  selfText: string;
}

export const THEMES: Record<"dark" | "light" | "presenter", ThemeColors> = {
  dark: {
    background: "#14171c",
    panel: "#1c2028",
    text: "#e8eaed",
    muted: "#9aa3ad",
    grid: "#2c323c",
    laneAlt: "#191d24",
    selection: "#ffffff",
    selfText: "#ff843e",
  },
  light: {
    background: "#ffffff",
    panel: "#f4f5f7",
    text: "#15181d",
    muted: "#59616b",
    grid: "#dde1e6",
    laneAlt: "#f7f8fa",
    selection: "#000000",
    selfText: "#af3b00",
  },
  /** Presenter mode (workshop.css): black, white type, grid lines a projector still shows. */
  presenter: {
    background: "#000000",
    panel: "#0b0b0b",
    text: "#ffffff",
    muted: "#d0d0d0",
    grid: "#4a4a4a",
    laneAlt: "#111111",
    selection: "#ffffff",
    selfText: "#ff843e",
  },
};
