import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import "../ui/styles.css";
import "./workshop.css";
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

  it("labels a doubling backoff without hiding a dot or running past the chart", async () => {
    // The not-owned lesson left running: each pass fails (the Deployment is not the Foo's) and is
    // retried after twice the last delay, 5 ms … 2560 ms.
    const lines = ['{"loopscope":"trace","version":1,"source":"live","scenario":"not-owned"}'];
    let ts = 1_796_202_711_000_000;
    let seq = 0;
    const ev = (e: object) => lines.push(JSON.stringify({ ...e, key: KEY, ts, seq: ++seq }));
    ev({ stage: "watch", kind: "Foo", event: "add", name: "example-foo", namespace: "default" });
    ev({ stage: "enqueue", len: 1, cause: "watch" });
    for (let i = 0; i < 10; i++) {
      ev({ stage: "dequeue", len: 0, worker: 1 });
      ts += 200;
      ev({ stage: "read", rv: "1001" });
      ts += 300;
      const delayMs = 5 * 2 ** i;
      const error = 'Resource "example-foo" already exists and is not managed by Foo';
      ev({ stage: "done", outcome: "requeued", error, delayMs, worker: 1 });
      ts += delayMs * 1000;
      ev({ stage: "enqueue", len: 1, cause: "retry" });
    }
    const screen = await renderQueue(lines.join("\n") + "\n", "not-owned.jsonl");
    const series = screen.container.querySelector("[data-testid=backoff-series]")!;
    const svg = series.closest("svg")!.getBoundingClientRect();
    const dots = [...series.querySelectorAll("circle")].map((c) => c.getBoundingClientRect());
    expect(dots).toHaveLength(10);
    const labels = [...series.querySelectorAll("text")].map((t) => ({
      text: t.textContent,
      box: t.getBoundingClientRect(),
    }));
    const axisTexts = [...series.closest("svg")!.querySelectorAll(".axes text")].map((t) => ({
      text: t.textContent,
      box: t.getBoundingClientRect(),
    }));
    const meets = (a: DOMRect, b: DOMRect) =>
      a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;
    // The longest delay, where the backoff got to, is always said.
    expect(labels.map((l) => l.text)).toContain("2560 ms");
    for (const [i, { text, box }] of labels.entries()) {
      expect(box.left, text!).toBeGreaterThanOrEqual(svg.left);
      expect(box.right, text!).toBeLessThanOrEqual(svg.right);
      for (const other of labels.slice(i + 1))
        expect(meets(box, other.box), `${text} over ${other.text}`).toBe(false);
      for (const [j, dot] of dots.entries())
        expect(meets(box, dot), `${text} over dot ${j}`).toBe(false);
      for (const tick of axisTexts)
        expect(meets(box, tick.box), `${text} over the axis's ${tick.text}`).toBe(false);
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
