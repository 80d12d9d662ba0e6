import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import hotLoop from "../../../../public/traces/hot-loop.jsonl?raw";
import burst from "../../../../public/traces/burst.jsonl?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { QueueView } from "./QueueView.tsx";
import { workshopData } from "./workshopData.ts";

const KEY = "default/example-foo";

/** The queue view of a trace's text, for its example-foo, 1200 px wide. */
function renderQueue(text: string, name?: string, key = KEY) {
  const session = sessionFromText(text, name);
  return render(
    <div style={{ width: 1200 }}>
      <QueueView session={session} data={workshopData(session, key)} focusKey={key} />
    </div>,
  );
}

describe("queue view", () => {
  it("labels each chart's time axis in one unit, as the timeline's axis is", async () => {
    // The fixture's Foo runs from its creation to a resync 30 s later.
    const screen = await renderQueue(canonical);
    // Queue depth and wait/work (no pass of the fixture failed: the backoff chart has no axes).
    const axes = screen.container.querySelectorAll(".axes");
    expect(axes.length).toBe(2);
    for (const axis of axes) {
      const times = [...axis.querySelectorAll(":scope > g > text")].map((t) => t.textContent!);
      expect(times.length).toBeGreaterThan(2);
      // "0.0 ms" beside "10.00 s" before: one unit, one precision.
      expect(new Set(times.map((t) => t.replace(/\d+/g, "9"))).size, times.join(" | ")).toBe(1);
      expect(times[0]).toBe("0 s");
      expect(times.at(-1)).toMatch(/^[1-9]\d s$/);
    }
  });

  it("labels retries' delays without writing one over another", async () => {
    // The sample hot loop: five passes ended in a 409 and were retried after 5 ms, within 200 ms.
    const screen = await renderQueue(hotLoop, "hot-loop.jsonl");
    const chart = screen.container.querySelectorAll("[data-testid=backoff-series]");
    // A synced pass ends a series (the rate limiter forgets the key): neighbours are two series'.
    expect(chart.length).toBeGreaterThan(1);
    const dots = [...chart].flatMap((g) => [...g.querySelectorAll("circle")]);
    expect(dots.map((d) => d.querySelector("title")?.textContent)).toEqual(Array(5).fill("5 ms"));
    const labels = [...chart]
      .flatMap((g) => [...g.querySelectorAll("text")])
      .map((t) => t.getBoundingClientRect())
      .sort((a, b) => a.left - b.left);
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThan(5);
    for (let i = 1; i < labels.length; i++) {
      const [a, b] = [labels[i - 1]!, labels[i]!];
      const overlap = a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;
      expect(overlap, `label ${i - 1} and ${i}`).toBe(false);
    }
  });

  it("writes a chart's unit above its plot, not over the values at its top", async () => {
    const screen = await renderQueue(hotLoop, "hot-loop.jsonl");
    // The queue's depth reaches its maximum (the top of the plot) right at the start.
    const depth = screen.getByTestId("depth-line").element().getBoundingClientRect();
    const unit = screen.container.querySelector("[data-testid=y-unit]")!;
    expect(unit.textContent).toBe("keys");
    expect(unit.getBoundingClientRect().bottom).toBeLessThanOrEqual(depth.top + 0.5);
  });

  it("says a burst's totals are every Foo's, and the focused Foo's apart", async () => {
    const screen = await renderQueue(burst, "burst.jsonl", "default/burst-01");
    const titles = [...screen.container.querySelectorAll("figcaption")].map((f) => f.textContent);
    const waiting = titles.find((t) => t?.startsWith("Waiting in the queue vs working"))!;
    expect(waiting).toMatch(
      /— all 8 Foos: [\d.]+ m?s waiting, [\d.]+ m?s working; default\/burst-01 \(outlined\): [\d.]+ m?s waiting, [\d.]+ m?s working$/,
    );
    // The single Foo of the hot loop: one pair of totals.
    const one = await renderQueue(hotLoop, "hot-loop.jsonl");
    const t = [...one.container.querySelectorAll("figcaption")].map((f) => f.textContent);
    expect(t.find((x) => x?.startsWith("Waiting"))).toMatch(
      /— [\d.]+ m?s waiting, [\d.]+ m?s working$/,
    );
  });
});
