/**
 * The lanes' tooltip names what is under the pointer now: after a wheel zoom or a pan with the
 * pointer still, the pass it named has moved away, and a tooltip left as it was described the
 * wrong thing (a 1,500-pass Foo's "#2 external" sat over dozens of other passes).
 */
import { expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "../ui/styles.css";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import type { DrawnGeometry } from "./draw.ts";
import { Timeline } from "./Timeline.tsx";

const KEY = "default/example-foo";

it("names what is under the still pointer after the window moves", async () => {
  const session = sessionFromText(canonical);
  const view = new ViewStore({ selectedKeys: [KEY] });
  const screen = await render(
    <div style={{ width: 1000, height: 420, display: "flex" }}>
      <Timeline session={session} view={view} />
    </div>,
  );
  const canvas = screen.container.querySelector("canvas")!;
  const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const geometry = () => (canvas as HTMLCanvasElement & { __geometry?: DrawnGeometry }).__geometry;
  await expect.poll(() => geometry()?.passes.length ?? 0).toBeGreaterThan(3);
  const first = geometry()!.passes[0]!;
  const lane = geometry()!.labels.find((l) => l.kind === "lane" && l.text === "read")!;
  const at = { x: (first.x0 + first.x1) / 2, y: lane.y + lane.h / 2 };
  const move = () => {
    const r = canvas.getBoundingClientRect();
    canvas.dispatchEvent(
      new MouseEvent("mousemove", {
        clientX: r.left + at.x,
        clientY: r.top + at.y,
        bubbles: true,
      }),
    );
  };
  const tip = () => screen.container.querySelector("[data-testid=tooltip]")?.textContent ?? "";
  move();
  await expect.poll(tip).toContain("#1");
  const before = tip();
  // The fourth pass's span fills the window: the first pass is far off to the left.
  const fourth = session.passesOf(KEY)[3]!;
  view.set({ window: [fourth.start, fourth.end ?? fourth.start + 1_000] });
  await frame();
  const still = tip();
  expect(still).not.toBe(before);
  move();
  await frame();
  expect(still).toBe(tip());
});
