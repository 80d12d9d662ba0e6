/**
 * Text widths measured once per font and string, not once per frame: measureText is slow (a
 * font shaping call), and a zoomed-out hot loop measured the label of each of its 5,000 passes on
 * every frame of a drag. A frame's labels are the same strings from frame to frame.
 */

/** Past this many strings in one font (a long session's pass numbers), start again. */
const MAX_PER_FONT = 50_000;

const byFont = new Map<string, Map<string, number>>();

/** Widths of text in the context's current font (read once: set the font first). */
export function textMeasure(ctx: CanvasRenderingContext2D): (text: string) => number {
  const font = ctx.font;
  let widths = byFont.get(font);
  if (!widths) {
    widths = new Map();
    byFont.set(font, widths);
  }
  const cache = widths;
  return (text) => {
    let w = cache.get(text);
    if (w === undefined) {
      const current = ctx.font;
      if (current !== font) ctx.font = font;
      w = ctx.measureText(text).width;
      if (current !== font) ctx.font = current;
      if (cache.size >= MAX_PER_FONT) cache.clear();
      cache.set(text, w);
    }
    return w;
  };
}
