import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { CountsTable } from "./CountsTable.tsx";

describe("counts table", () => {
  it("contrasts 'expected one of each' with the observed counts and reconciles for one create", async () => {
    const session = sessionFromText(canonical);
    const summary = session.summaryOf("default/example-foo")!;
    const screen = await render(<CountsTable summary={summary} />);
    const rows = screen.getByTestId("count-row").elements();
    expect(rows.map((r) => r.getAttribute("data-stage"))).toEqual([
      "watch",
      "enqueue",
      "dequeue",
      "read",
      "write",
    ]);
    const observed = rows.map((r) =>
      Number(r.querySelector('[data-testid="count-observed"]')!.textContent),
    );
    expect(observed).toEqual([9, 9, 7, 7, 8]);
    // Every stage differs from the expected 1, so every row is flagged.
    expect(rows.every((r) => r.classList.contains("differs"))).toBe(true);
    await expect
      .element(screen.getByTestId("count-reconciles"))
      .toHaveTextContent("reconciles for one create16");
    await expect
      .element(
        screen.getByText(
          /Expected one of each; observed 9 watch, 9 enqueue, 7 dequeue, 7 read, 8 write, in 6 reconciles\./,
        ),
      )
      .toBeInTheDocument();
    await expect
      .element(screen.getByText(/2 passes were triggered by the controller's own writes/))
      .toBeInTheDocument();
  });
});
