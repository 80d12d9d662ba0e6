import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "../ui/styles.css";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { WorkshopDock } from "./WorkshopDock.tsx";

const KEY = "default/example-foo";

async function dock() {
  const session = sessionFromText(canonical);
  const view = new ViewStore({ selectedKeys: [KEY] });
  const screen = await render(
    <div>
      <button>before</button>
      <WorkshopDock session={session} view={view} />
      <button>after</button>
    </div>,
  );
  const toggle = screen.getByTestId("workshop-toggle").element() as HTMLButtonElement;
  const panel = () => document.querySelector<HTMLElement>('[data-testid="workshop"]');
  return { toggle, panel };
}

afterEach(() => {
  sessionStorage.removeItem("loopscope-workshop-open");
});

describe("the workshop dock and the focus", () => {
  it("opened by its button, takes the focus (its first control, the selected tab); closed by ✕, gives it back to the button", async () => {
    const { toggle, panel } = await dock();
    toggle.focus();
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => panel()).not.toBeNull();
    await expect.poll(() => panel()!.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.getAttribute("role")).toBe("tab");
    expect(document.activeElement?.getAttribute("aria-selected")).toBe("true");
    // The next Tab is the dock's next control, not the page's.
    await userEvent.keyboard("{Tab}");
    expect(panel()!.contains(document.activeElement)).toBe(true);

    (panel()!.querySelector('[data-testid="workshop-close"]') as HTMLElement).focus();
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => panel()).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it("reopened by a reload (the tab had it open), leaves the focus where the page has it", async () => {
    sessionStorage.setItem("loopscope-workshop-open", "1");
    const { panel } = await dock();
    await expect.poll(() => panel()).not.toBeNull();
    expect(panel()!.contains(document.activeElement)).toBe(false);
  });
});
