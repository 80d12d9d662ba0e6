import { STAGES } from "@loopscope/trace";
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { GROUP_GAP, GROUP_HEADER, layoutLanes, totalHeight } from "./layout.ts";
import { Timeline } from "./Timeline.tsx";

describe("lane layout", () => {
  it("gives each selected Foo five lanes in pipeline order, stacked without overlap", () => {
    const groups = layoutLanes(["default/a", "default/b"], 30);
    expect(groups).toHaveLength(2);
    for (const g of groups) {
      expect(g.lanes.map((l) => l.stage)).toEqual([...STAGES]);
      expect(g.lanes[0].y).toBe(g.y + GROUP_HEADER);
      g.lanes.forEach((l, i) => i > 0 && expect(l.y).toBe(g.lanes[i - 1].y + 30));
    }
    expect(groups[1].y).toBe(groups[0].y + groups[0].height + GROUP_GAP);
    expect(totalHeight(groups)).toBe(2 * (GROUP_HEADER + 5 * 30) + GROUP_GAP);
  });

  it("renders the timeline canvas for the selected Foo with one entry per pass", async () => {
    const session = sessionFromText(canonical);
    const view = new ViewStore({ selectedKeys: ["default/example-foo"], theme: "dark" });
    const screen = await render(
      <div style={{ width: 1000, height: 420, display: "flex" }}>
        <Timeline session={session} view={view} />
      </div>,
    );
    await expect.element(screen.getByRole("img")).toBeInTheDocument();
    const passes = screen.getByTestId("timeline-pass").elements();
    expect(passes).toHaveLength(session.passesOf("default/example-foo").length);
    expect(passes.map((p) => p.getAttribute("data-cause"))).toEqual([
      "external",
      "self",
      "external",
      "external",
      "external",
      "self",
      "resync",
    ]);
    // The canvas really painted lanes: the area right of the gutter is not blank.
    const canvas = screen.container.querySelector("canvas")!;
    const ctx = canvas.getContext("2d")!;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < px.length; i += 4 * 97)
      colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    expect(colours.size).toBeGreaterThan(5);
  });
});
