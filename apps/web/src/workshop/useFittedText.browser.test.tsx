import { useRef } from "react";
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import { useFittedText } from "./useFittedText.ts";

const TEXT =
  "The Deployment informer's reflector received a watch event — Deployment default/example-foo " +
  "added (rv 17962048096) — and the event handler resolves its owner to Foo default/example-foo " +
  "and queues that key. It is the echo of our own create at seq 6 (same resourceVersion), so the " +
  "pass it triggers is self-triggered.";

/** A narration box `height` px tall that scrolls what it cannot hold, its text fitted to it. */
function Box({ height, minPx = 8 }: { height: number; minPx?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const text = useRef<HTMLParagraphElement>(null);
  useFittedText(box, text, TEXT, minPx);
  return (
    <div
      ref={box}
      data-testid="box"
      style={{
        width: 440,
        height,
        overflow: "auto",
        padding: "10px 14px",
        // The stylesheet's size, as the presenter's (clamp of vw): not a whole pixel.
        fontSize: 23.7,
        boxSizing: "border-box",
      }}
    >
      <p ref={text} style={{ lineHeight: 1.5, margin: "8px 0 0" }}>
        {TEXT}
      </p>
    </div>
  );
}

describe("presenter narration fitted to its box", () => {
  it("leaves nothing to scroll, not a pixel (a scroll bar showed beside text read whole)", async () => {
    for (let height = 160; height <= 320; height += 1) {
      const screen = await render(<Box height={height} />);
      const box = screen.getByTestId("box").element() as HTMLElement;
      expect(box.scrollHeight, `${height} px`).toBeLessThanOrEqual(box.clientHeight);
      await screen.unmount();
    }
  });

  it("never goes below its floor, from a size that is not whole (23.7 px)", async () => {
    const screen = await render(<Box height={60} minPx={14} />);
    const p = screen.container.querySelector("p")!;
    expect(parseFloat(getComputedStyle(p).fontSize)).toBe(14);
    await screen.unmount();
  });
});
