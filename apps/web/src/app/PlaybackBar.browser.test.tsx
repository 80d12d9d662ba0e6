import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { ViewStore } from "../store/viewState.ts";
import { PlaybackBar } from "./PlaybackBar.tsx";

const KEY = "default/example-foo";
const ADD = "STAGE/watch kind=Foo event=add key=default/example-foo rv=1001";

async function zoomButton(text: string) {
  const view = new ViewStore({ selectedKeys: [KEY] });
  const screen = await render(<PlaybackBar session={sessionFromText(text)} view={view} />);
  return screen.getByTestId("fit-creation");
}

describe("playback bar", () => {
  it("zooms to a created Foo's creation", async () => {
    const button = await zoomButton(canonical);
    await expect.element(button).toHaveTextContent("creation");
    await expect.element(button).toHaveAttribute("title", expect.stringMatching(/creation/));
  });

  it("zooms to a listed Foo's initial list, never calling it a creation", async () => {
    const button = await zoomButton(canonical.replace(ADD, `${ADD} initial=true`));
    await expect.element(button).toHaveTextContent("initial list");
    const title = button.element().getAttribute("title")!;
    expect(title).toContain("from the informer's initial list (it existed before the run)");
    expect(title).not.toMatch(/creat/);
  });
});

describe("the playhead slider", () => {
  it("is read as the time shown beside it, also after a key moves it", async () => {
    const view = new ViewStore({ selectedKeys: [KEY] });
    const screen = await render(<PlaybackBar session={sessionFromText(canonical)} view={view} />);
    const slider = screen.getByRole("slider", { name: "Playhead" });
    const clock = screen.getByTestId("playhead-time");
    await expect.element(slider).toHaveAttribute("aria-valuetext", clock.element().textContent);
    (slider.element() as HTMLElement).focus();
    await userEvent.keyboard("{Home}");
    await expect.poll(() => view.get().playhead).toBeDefined();
    await expect.element(slider).toHaveAttribute("aria-valuetext", clock.element().textContent);
    expect(clock.element().textContent).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
  });
});
