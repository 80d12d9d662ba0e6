/**
 * The divider between the timeline and the panels is a window splitter a keyboard can move and a
 * screen reader can read: a focusable separator with its value (the timeline row's height, the
 * default's as drawn), its bounds and orientation; ↑ / ↓ move it, Home / End to its bounds, Enter
 * back to the default.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import "../ui/styles.css";
import { SplitHandle } from "./SplitHandle.tsx";
import { SPLIT_MIN, splitMax, useSplit } from "./useSplit.ts";

/** App's grid, with a timeline row whose lanes need 300 px. */
function Page() {
  const split = useSplit();
  return (
    <div
      className="app"
      style={
        split.height === undefined
          ? undefined
          : ({ "--center-height": `${split.height}px` } as React.CSSProperties)
      }
    >
      <button>before</button>
      <main className="center" id="timeline-row">
        <div style={{ height: 300, flex: "none" }} />
      </main>
      <SplitHandle split={split} controls="timeline-row" />
      <section className="panel bottom" style={{ gridArea: "bottom" }} />
    </div>
  );
}

// A laptop's window: in a smaller one (below 900×680) the page scrolls and the divider steps aside.
beforeAll(() => page.viewport(1280, 800));
afterEach(() => localStorage.removeItem("loopscope-split"));

describe("the timeline / panel divider", () => {
  it("is a focusable horizontal separator: arrows, Home and End move it, Enter restores the default; its value says where it is", async () => {
    const screen = await render(<Page />);
    const row = document.getElementById("timeline-row")!;
    const height = () => Math.round(row.getBoundingClientRect().height);
    const handle = screen.getByRole("separator", { name: "Timeline height" });
    const el = handle.element() as HTMLElement;
    const value = () => Number(el.getAttribute("aria-valuenow"));
    expect(el.getAttribute("aria-orientation")).toBe("horizontal");
    expect(el.getAttribute("aria-controls")).toBe("timeline-row");
    expect(Number(el.getAttribute("aria-valuemin"))).toBe(SPLIT_MIN);
    expect(Number(el.getAttribute("aria-valuemax"))).toBe(splitMax());
    // The default: the row as tall as its lanes need, and the value says so.
    await expect.poll(value).toBe(height());
    expect(height()).toBe(300);
    // Tab reaches it.
    (screen.getByRole("button").element() as HTMLElement).focus();
    await userEvent.keyboard("{Tab}");
    expect(document.activeElement).toBe(el);
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(height).toBe(316);
    expect(value()).toBe(316);
    await userEvent.keyboard("{ArrowUp}{ArrowUp}");
    await expect.poll(height).toBe(284);
    await userEvent.keyboard("{Shift>}{ArrowUp}{/Shift}");
    await expect.poll(height).toBe(220);
    await userEvent.keyboard("{Home}");
    await expect.poll(height).toBe(SPLIT_MIN);
    expect(value()).toBe(SPLIT_MIN);
    await userEvent.keyboard("{End}");
    await expect.poll(height).toBe(splitMax());
    expect(value()).toBe(splitMax());
    expect(localStorage.getItem("loopscope-split")).toBe(String(splitMax()));
    await userEvent.keyboard("{Enter}");
    await expect.poll(height).toBe(300);
    await expect.poll(value).toBe(300);
    expect(localStorage.getItem("loopscope-split")).toBeNull();
  });
});
