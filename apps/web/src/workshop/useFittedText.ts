/**
 * A narration is read whole, not scrolled: while `box` has more content than room, `text`'s type
 * shrinks a pixel at a time, down to `minPx` (past it, the box scrolls). The stylesheet's size is
 * the start each time (a shorter narration, a bigger window), so the type is as large as fits.
 */
import { useLayoutEffect, type RefObject } from "react";

export function useFittedText(
  box: RefObject<HTMLElement | null>,
  text: RefObject<HTMLElement | null>,
  content: string | undefined,
  minPx: number,
): void {
  useLayoutEffect(() => {
    const b = box.current;
    const t = text.current;
    if (!b || !t) return;
    const fit = () => {
      t.style.fontSize = "";
      let px = parseFloat(getComputedStyle(t).fontSize);
      // Not a pixel over: a box one pixel short still shows its scroll bar (and the text, a
      // scroll bar's width narrower, wraps to more lines).
      while (b.scrollHeight > b.clientHeight && px > minPx) {
        // A stylesheet's size need not be whole (23.7 px): the last step stops at the floor.
        px = Math.max(minPx, px - 1);
        t.style.fontSize = `${px}px`;
      }
    };
    fit();
    // A resize of the window (or of the dock) refits, a frame later: fitting inside the
    // observer's callback would resize what it observes.
    let frame = 0;
    const resized = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(fit);
    });
    resized.observe(b.parentElement ?? b);
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
    };
  }, [box, text, content, minPx]);
}
