import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import { DiagnosticsList } from "./DiagnosticsList.tsx";

describe("diagnostics list", () => {
  it("counts lines, not messages, and keeps notes apart from lines skipped or read with a loss", async () => {
    const screen = await render(
      <DiagnosticsList
        diagnostics={[
          { line: 1, level: "info", message: "klog lines carry no year" },
          { line: 34, message: "STAGE/enqueue without a key" },
          { line: 34, message: "a second complaint about the same line" },
          { line: 40, level: "warn", message: "torn last line" },
        ]}
      />,
    );
    await expect
      .element(screen.getByTestId("diagnostics-summary"))
      .toHaveTextContent(
        "1 line could not be read; 1 line read with something lost or assumed; everything else loaded.",
      );
    expect(screen.getByTestId("diagnostic").elements()).toHaveLength(4);
  });

  it("says when the source sent only the first of its problems", async () => {
    const screen = await render(
      <DiagnosticsList
        diagnostics={[
          { line: 3, message: "not a JSON record" },
          { line: 5, message: "not a JSON record" },
        ]}
        total={250}
      />,
    );
    await expect
      .element(screen.getByTestId("diagnostics-summary"))
      .toHaveTextContent(
        "2 lines could not be read (the first 2 of 250 problems); everything else loaded.",
      );
    await expect.element(screen.getByText("… and 248 more.")).toBeInTheDocument();
  });

  it("calls a trace with only notes loaded whole", async () => {
    const screen = await render(
      <DiagnosticsList diagnostics={[{ line: 1, level: "info", message: "no year" }]} />,
    );
    await expect
      .element(screen.getByTestId("diagnostics-summary"))
      .toHaveTextContent("Notes on this trace; everything loaded.");
  });
});
