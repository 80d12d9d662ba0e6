import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import { ViewStore } from "../store/viewState.ts";
import { Legend } from "./Legend.tsx";

describe("the legend", () => {
  it("names its ? button by what it opens, not as a question mark", async () => {
    const screen = await render(<Legend view={new ViewStore()} onHelp={() => {}} />);
    await expect
      .element(screen.getByRole("button", { name: "Keyboard shortcuts", exact: true }))
      .toHaveTextContent("?");
  });
});
