import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { QueueView } from "./QueueView.tsx";
import { workshopData } from "./workshopData.ts";

const KEY = "default/example-foo";

describe("queue view", () => {
  it("labels each chart's time axis in one unit, as the timeline's axis is", async () => {
    // The fixture's Foo runs from its creation to a resync 30 s later.
    const session = sessionFromText(canonical);
    const screen = await render(
      <div style={{ width: 1200 }}>
        <QueueView session={session} data={workshopData(session, KEY)} focusKey={KEY} />
      </div>,
    );
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
});
