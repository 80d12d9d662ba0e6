import { Profiler } from "react";
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { PassMirror } from "./PassMirror.tsx";

const KEY = "default/example-foo";

describe("the pass mirror", () => {
  it("marks the selected pass for screen readers, without rendering the list again", async () => {
    const session = sessionFromText(canonical);
    const view = new ViewStore({ selectedKeys: [KEY], selectedPass: { key: KEY, index: 0 } });
    let renders = 0;
    const screen = await render(
      <Profiler id="mirror" onRender={() => renders++}>
        <PassMirror session={session} view={view} keys={[KEY]} version={session.getVersion()} />
      </Profiler>,
    );
    const items = () => screen.getByTestId("timeline-pass").elements();
    const current = () =>
      items().flatMap((li, i) => (li.getAttribute("aria-current") === "true" ? [i] : []));
    await expect.poll(() => items().length).toBeGreaterThan(1);
    expect(current()).toEqual([0]);
    const before = renders;
    view.set({ selectedPass: { key: KEY, index: 1 } });
    expect(current()).toEqual([1]);
    view.set({ selectedPass: undefined });
    expect(current()).toEqual([]);
    expect(renders).toBe(before);
  });
});
