import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import "../ui/styles.css";
import "./workshop.css";
import { AlignedTimelines, ComparePanel } from "./ComparePanel.tsx";
import type { RunSide } from "./compareModel.ts";

/** A run whose Foo had `n` passes, 40 ms each, the first at 0 and the others ending 200 ms apart. */
function side(name: string, n: number): RunSide {
  const passes = Array.from({ length: n }, (_, i) => ({
    start: Math.max(0, i * 200 - 40),
    end: Math.max(40, i * 200),
    cause: i === 0 ? ("external" as const) : ("self" as const),
    writes: 1,
    changing: 1,
  }));
  return {
    name,
    key: "default/example-foo",
    summary: undefined,
    t0: 0,
    listed: false,
    passes,
    writes: passes.map((p) => p.start + 20),
  };
}

describe("the compare view's aligned timelines", () => {
  it("name each run whole left of the bars, and draw every label inside the chart", async () => {
    // A recorded run's name, and a sample's; the longer run ends at 1.6 s, a tick's time.
    const sides = [side("2026-12-02T09-14-06Z.jsonl", 9), side("fix-hot-loop.jsonl", 4)];
    const screen = await render(
      <div style={{ width: 860 }}>
        <AlignedTimelines sides={sides} />
      </div>,
    );
    const svg = screen.container.querySelector("svg")!;
    await expect.poll(() => svg.querySelectorAll("[data-testid=aligned-row]").length).toBe(2);
    const rows = [...svg.querySelectorAll("[data-testid=aligned-row]")];
    expect(rows.map((r) => r.querySelector("text")!.textContent)).toEqual(sides.map((s) => s.name));
    // The line at 0 (the Foo's creation): where the bars and the write ticks start.
    const zero = Number(svg.querySelector(".creation-line")!.getAttribute("x1"));
    for (const row of rows)
      for (const t of row.querySelectorAll(":scope > text")) {
        const box = (t as SVGTextElement).getBBox();
        expect(box.x + box.width, `"${t.textContent}" runs into the bars`).toBeLessThan(zero);
      }
    const width = svg.viewBox.baseVal.width;
    const ticks = [...svg.querySelectorAll(":scope > text[text-anchor=middle]")];
    // One unit for the axis ("800 ms" stood beside "1.0 s"), its last tick whole.
    expect(ticks.map((t) => t.textContent)).toEqual(
      ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2", "1.4", "1.6"].map((s) => `${s} s`),
    );
    for (const t of svg.querySelectorAll("text")) {
      const box = (t as SVGTextElement).getBBox();
      expect(box.x, `"${t.textContent}" cut on the left`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `"${t.textContent}" cut on the right`).toBeLessThanOrEqual(width);
    }
  });
});

describe("the compare view's file picker", () => {
  it("is reached by Tab and opens the file chooser on Enter and on Space", async () => {
    const screen = await render(
      <QueryClientProvider client={new QueryClient()}>
        <ComparePanel session={sessionFromText(canonical)} />
      </QueryClientProvider>,
    );
    const input = screen.getByTestId("compare-file").element() as HTMLInputElement;
    let chooser = 0;
    // The click the chooser opens on, stopped before a dialog the test cannot close.
    input.addEventListener("click", (e) => {
      chooser++;
      e.preventDefault();
    });
    const sample = screen.getByTestId("compare-sample").element() as HTMLElement;
    sample.focus();
    await userEvent.keyboard("{Tab}");
    expect(document.activeElement?.textContent).toBe("a file…");
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => chooser).toBe(1);
    await userEvent.keyboard(" ");
    await expect.poll(() => chooser).toBe(2);
  });
});
