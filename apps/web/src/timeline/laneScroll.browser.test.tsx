/**
 * In a short window (below 1024×768) the lanes show only some of the selected Foos: the one just
 * chosen — from the objects list, by keyboard as by ctrl-click — is scrolled into view, and a
 * scroll kept from a taller stack never leaves a single Foo's lanes out of sight.
 */
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import burst from "../../../../public/traces/burst.jsonl?raw";
import "../ui/styles.css";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import type { DrawnGeometry } from "./draw.ts";
import { Timeline } from "./Timeline.tsx";

const foo = (i: number) => `default/burst-0${i}`;

async function lanes(view: ViewStore) {
  const session = sessionFromText(burst, "burst.jsonl");
  // The timeline's share of a 1000×700 window: ~230 px.
  const screen = await render(
    <div style={{ width: 720, height: 230, display: "flex", flexDirection: "column" }}>
      <Timeline session={session} view={view} />
    </div>,
  );
  const canvas = screen.container.querySelector("canvas")!;
  const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  /** Whether the frame drew `key`'s header row (its pass labels) inside the canvas. */
  const shown = async (key: string) => {
    await frame();
    const g = (canvas as HTMLCanvasElement & { __geometry?: DrawnGeometry }).__geometry!;
    const ys = g.labels.filter((l) => l.pass?.key === key).map((l) => l.y);
    return ys.length > 0 && ys.every((y) => y >= 0 && y + 30 <= canvas.clientHeight);
  };
  await expect.poll(() => canvas.clientHeight).toBeLessThan(240);
  return {
    shown,
    scroll: () =>
      Number(screen.container.querySelector("[data-scroll]")!.getAttribute("data-scroll")),
  };
}

describe("lane scroll", () => {
  it("scrolls a Foo added to the stack into view, and a single Foo chosen after it back to the top", async () => {
    const view = new ViewStore({ selectedKeys: [foo(1)] });
    const { shown, scroll } = await lanes(view);
    await expect.poll(() => shown(foo(1))).toBe(true);
    view.toggleKey(foo(2), true);
    view.toggleKey(foo(3), true);
    await expect.poll(() => shown(foo(3))).toBe(true);
    expect(scroll()).toBeGreaterThan(0);
    // ↓ in the objects list: one Foo, whose lanes are in view (the stack's scroll had hidden them).
    view.toggleKey(foo(4), false);
    await expect.poll(() => shown(foo(4))).toBe(true);
    expect(scroll()).toBe(0);
  });
});
