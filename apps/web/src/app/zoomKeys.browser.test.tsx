/**
 * The lanes zoom and pan from the keyboard: + (or =) and − about the selected event, shift+←/→ a
 * fifth of the width; through the axis the lanes draw, folded time included. Not while typing in
 * the filter, nor while the `?` dialog is open — and the dialog lists them.
 */
import { useCallback, useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { HOT_KEY, hotLoopTrace } from "../../../../packages/trace/src/testing/hot-loop.ts";
import "../ui/styles.css";
import type { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { Timeline } from "../timeline/Timeline.tsx";
import { makeTimeAxis, type TimeAxis } from "../timeline/timeScale.ts";
import { sessionFold } from "../timeline/sessionFold.ts";
import { PAN_STEP, ZOOM_STEP } from "./navigation.ts";
import { ShortcutsOverlay } from "./ShortcutsOverlay.tsx";
import { useKeyboard } from "./useKeyboard.ts";

const KEY = "default/example-foo";
const WIDTH = 1000;

function Page({ session, view }: { session: TraceSession; view: ViewStore }) {
  const [help, setHelp] = useState(false);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const search = useRef<HTMLInputElement>(null);
  useKeyboard(session, view, search, toggleHelp);
  return (
    <>
      <input ref={search} aria-label="Filter objects" />
      <div style={{ width: WIDTH, height: 420, display: "flex" }}>
        <Timeline session={session} view={view} />
      </div>
      {help && <ShortcutsOverlay onClose={() => setHelp(false)} />}
    </>
  );
}

async function page(timeMode: "folded" | "linear") {
  const session = sessionFromText(canonical);
  const event = session.passesOf(KEY)[2]!.dequeueSeq!;
  const window: [number, number] = [...session.store.timeExtent()!];
  const view = new ViewStore({ selectedKeys: [KEY], selectedSeq: event, window, timeMode });
  const screen = await render(<Page session={session} view={view} />);
  const canvas = screen.container.querySelector("canvas")!;
  await expect.poll(() => canvas.clientWidth).toBe(WIDTH);
  (document.activeElement as HTMLElement | null)?.blur();
  /** The axis the lanes draw for a window (the same fold in folded time). */
  const axisFor = (w: [number, number]): TimeAxis =>
    makeTimeAxis(
      w,
      0,
      WIDTH,
      timeMode === "folded" ? sessionFold(session, [KEY], WIDTH - 8 - 96) : undefined,
    );
  const ts = session.store.ts.get(session.store.rowOfSeq(event));
  return { session, view, screen, axisFor, ts };
}

/** Within a hundredth of a pixel; for times, a µs (a fold's round trip at 1.8e15 µs is not exact). */
const close = (a: number, b: number) => Math.abs(a - b) < 0.01;
const sameWindow = (a: [number, number], b: [number, number]) =>
  Math.abs(a[0] - b[0]) < 1 && Math.abs(a[1] - b[1]) < 1;

describe("zoom and pan keys", () => {
  for (const timeMode of ["linear", "folded"] as const)
    it(`${timeMode} time: + and = zoom in about the selected event, − out, shift+←/→ pan a fifth of the width`, async () => {
      const { view, axisFor, ts } = await page(timeMode);
      const before = view.get().window!;
      const at = axisFor(before).x(ts);
      const [r0, r1] = axisFor(before).range;
      await userEvent.keyboard("=");
      const zoomed = view.get().window!;
      const z = axisFor(zoomed);
      // The selected event stays where it was on the screen, and the window is 1.5× narrower
      // there: what was 1.5 px apart is 1 px apart.
      expect(close(z.x(ts), at), `${z.x(ts)} vs ${at}`).toBe(true);
      expect(z.range[1] - z.range[0]).toBe(r1 - r0);
      expect(close(axisFor(before).x(zoomed[0]), at - (at - r0) / ZOOM_STEP)).toBe(true);
      await userEvent.keyboard("{Shift>}+{/Shift}");
      expect(view.get().window![1] - view.get().window![0]).toBeLessThan(zoomed[1] - zoomed[0]);
      await userEvent.keyboard("-");
      const out = view.get().window!;
      expect(sameWindow(out, zoomed), `${out} vs ${zoomed}`).toBe(true);
      // Pan: the window's left edge moves to where a fifth of the width was; the selection stays.
      const seq = view.get().selectedSeq;
      await userEvent.keyboard("{Shift>}{ArrowRight}{/Shift}");
      const panned = view.get().window!;
      expect(close(axisFor(out).x(panned[0]), r0 + PAN_STEP * (r1 - r0))).toBe(true);
      expect(view.get().selectedSeq).toBe(seq);
      await userEvent.keyboard("{Shift>}{ArrowLeft}{/Shift}");
      const back = view.get().window!;
      expect(sameWindow(back, out), `${back} vs ${out}`).toBe(true);
    });

  for (const timeMode of ["linear", "folded"] as const)
    it(`${timeMode} time: zoom out, by key or wheel, stops at twice the whole trace's fit`, async () => {
      // One − from the fit of a 273 s recording, in folded time, took the window to 15 years.
      const { session, view, screen } = await page(timeMode);
      const [lo, hi] = session.store.timeExtent()!;
      const most = 2 * 1.08 * (hi - lo) + 2;
      const wide = () => view.get().window![1] - view.get().window![0];
      for (let i = 0; i < 12; i++) await userEvent.keyboard("-");
      expect(wide(), "keys").toBeLessThanOrEqual(most);
      expect(wide()).toBeGreaterThan(hi - lo);
      // The whole trace is in view, about its middle.
      expect(view.get().window![0]).toBeLessThan(lo);
      expect(view.get().window![1]).toBeGreaterThan(hi);
      await userEvent.keyboard("===");
      expect(wide()).toBeLessThan(hi - lo);
      const canvas = screen.container.querySelector("canvas")!;
      const r = canvas.getBoundingClientRect();
      for (let i = 0; i < 12; i++) {
        canvas.dispatchEvent(
          new WheelEvent("wheel", {
            deltaY: 400,
            clientX: r.left + r.width / 2,
            clientY: r.top + 60,
            bubbles: true,
            cancelable: true,
          }),
        );
        // The lanes redraw (their axis is what the next notch zooms) before the next notch.
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      }
      expect(wide()).toBeGreaterThan(hi - lo);
      expect(wide(), "wheel").toBeLessThanOrEqual(most);
    });

  it("folded time: a Foo of 300 passes zooms out to no more than twice its fit in wall time too", async () => {
    // Many passes make the fold many fits wide (each pass its MIN_PASS_PX), and half a fit of
    // the slow margin beyond the trace was centuries: one − from the fit went to the year 1625.
    const session = sessionFromText(hotLoopTrace(300), "hot.jsonl");
    const view = new ViewStore({ selectedKeys: [HOT_KEY], timeMode: "folded" });
    const screen = await render(<Page session={session} view={view} />);
    const canvas = screen.container.querySelector("canvas")!;
    await expect.poll(() => canvas.clientWidth).toBe(WIDTH);
    (document.activeElement as HTMLElement | null)?.blur();
    const [lo, hi] = session.store.timeExtent()!;
    await userEvent.keyboard("f");
    for (let i = 0; i < 6; i++) {
      await userEvent.keyboard("-");
      const [w0, w1] = view.get().window!;
      expect(w1 - w0, `after ${i + 1} −`).toBeLessThanOrEqual(2 * 1.08 * (hi - lo) + 2);
      expect(w0).toBeGreaterThanOrEqual(lo - 0.6 * (hi - lo));
      expect(w1).toBeLessThanOrEqual(hi + 0.6 * (hi - lo));
    }
    expect(view.get().window![0]).toBeLessThan(lo);
    expect(view.get().window![1]).toBeGreaterThan(hi);
  });

  it("do nothing while typing in the filter, or while the ? dialog is open — which lists them", async () => {
    const { view, screen } = await page("folded");
    const before = view.get().window;
    const input = screen.getByRole("textbox").element() as HTMLInputElement;
    input.focus();
    await userEvent.keyboard("=-{Shift>}{ArrowRight}{/Shift}");
    expect(view.get().window).toEqual(before);
    expect(input.value).toBe("=-");
    input.blur();
    await userEvent.keyboard("?");
    const dialog = () => document.querySelector<HTMLElement>('[data-testid="shortcuts"]');
    await expect.poll(() => dialog()).not.toBeNull();
    await userEvent.keyboard("=-+{Shift>}{ArrowRight}{ArrowLeft}{/Shift}");
    expect(view.get().window).toEqual(before);
    const listed = [...dialog()!.querySelectorAll(".shortcut")].map((s) => s.textContent);
    expect(listed.some((t) => t?.includes("+") && t.includes("−") && /zoom/.test(t))).toBe(true);
    expect(listed.some((t) => t?.includes("shift") && t.includes("←") && /pan/.test(t))).toBe(true);
  });
});
