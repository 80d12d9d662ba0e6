import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import hotLoop from "../../../../packages/trace/fixtures/stage/hot-loop.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { CountsTable } from "./CountsTable.tsx";

describe("counts table", () => {
  it("contrasts 'expected one of each' with the counts observed from creation to quiescent, as the excerpt beside it tallies them", async () => {
    const session = sessionFromText(canonical);
    const { excerpt, text } = session.excerpt("default/example-foo")!;
    const screen = await render(<CountsTable excerpt={excerpt} />);
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
    // The excerpt's span, not the Foo's whole trace (9 watch, 9 enqueue, 7, 7, 8 with the resync
    // after it): the table and the excerpt's closing tally agree.
    expect(observed).toEqual([8, 8, 6, 6, 7]);
    expect(text).toContain("Tags: watch 8 · enqueue 8 · dequeue 6 · read 6 · write 7");
    // Every stage differs from the expected 1, so every row is flagged.
    expect(rows.every((r) => r.classList.contains("differs"))).toBe(true);
    await expect
      .element(screen.getByTestId("count-reconciles"))
      .toHaveTextContent("reconciles for one create16");
    await expect
      .element(
        screen.getByText(
          /Expected one of each; from creation to quiescent, observed 8 watch, 8 enqueue, 6 dequeue, 6 read, 7 write, in 6 reconciles\./,
        ),
      )
      .toBeInTheDocument();
    await expect
      .element(screen.getByText(/2 passes were triggered by the controller's own writes/))
      .toBeInTheDocument();
  });

  it("says a Foo of the informer's initial list was listed, not created", async () => {
    const add = "STAGE/watch kind=Foo event=add key=default/example-foo rv=1001";
    const session = sessionFromText(canonical.replace(add, `${add} initial=true`));
    const { excerpt } = session.excerpt("default/example-foo")!;
    const screen = await render(<CountsTable excerpt={excerpt} />);
    await expect
      .element(screen.getByTestId("count-reconciles"))
      .toHaveTextContent("reconciles after the initial list16");
    await expect
      .element(
        screen.getByText(
          /Expected one of each; from the informer's initial list \(it existed before the run\) to quiescent, observed 8 watch/,
        ),
      )
      .toBeInTheDocument();
  });

  it("says a Foo that never settled is not quiescent in this trace, not 'yet': a saved trace has ended", async () => {
    const session = sessionFromText(hotLoop);
    const { excerpt } = session.excerpt("default/hot-foo")!;
    const screen = await render(<CountsTable excerpt={excerpt} />);
    await expect
      .element(screen.getByTestId("count-reconciles"))
      .toHaveTextContent(/^reconciles for one create1not quiescent$/);
    await expect
      .element(
        screen.getByText(
          /^Expected one of each; from creation \(not quiescent in this trace\), observed/,
        ),
      )
      .toBeInTheDocument();
  });
});
