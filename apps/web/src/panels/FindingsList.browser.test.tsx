import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import type { Finding } from "@loopscope/trace";
import { ViewStore } from "../store/viewState.ts";
import { FindingsList } from "./FindingsList.tsx";
import { SHOWN_FINDINGS } from "./findingsFilter.ts";

/** Per Foo a conflict and a retry, as a busy trace has; one hot loop among them. */
function busy(foos: number): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < foos; i++) {
    out.push({
      kind: "conflict",
      key: `ns/foo-${i}`,
      detail: "write answered 409",
      seq: 2 * i,
      count: 1,
      lives: 1,
    });
    out.push({
      kind: "retry",
      key: `ns/foo-${i}`,
      detail: "requeued",
      seq: 2 * i + 1,
      count: 1,
      lives: 1,
    });
  }
  out.push({
    kind: "hot-loop",
    key: "ns/foo-7",
    detail: "5 consecutive passes",
    seq: 99_999,
    count: 5,
    lives: 1,
  });
  return out;
}

describe("findings list", () => {
  it("narrows thousands of findings by kind and to the selected Foo, drawing a bounded few", async () => {
    const view = new ViewStore();
    const screen = await render(
      <FindingsList findings={busy(2000)} view={view} focusKey="ns/foo-7" />,
    );
    await expect.element(screen.getByTestId("findings-kind-all")).toHaveTextContent("all 4,001");
    // Most serious first.
    const kinds = screen
      .getByRole("group")
      .getByRole("button")
      .elements()
      .map((b) => b.textContent);
    expect(kinds).toEqual(["all 4,001", "hot-loop 1", "conflict 2,000", "retry 2,000"]);
    expect(screen.getByTestId("finding").elements()).toHaveLength(SHOWN_FINDINGS);
    await expect.element(screen.getByTestId("findings-more")).toHaveTextContent("… and 3,701 more");

    await screen.getByTestId("findings-kind-hot-loop").click();
    expect(screen.getByTestId("finding").elements()).toHaveLength(1);
    await expect.element(screen.getByTestId("finding")).toHaveTextContent("ns/foo-7");

    await screen.getByTestId("findings-kind-all").click();
    await screen.getByTestId("findings-only-focus").click();
    const mine = screen.getByTestId("finding").elements();
    expect(mine.map((li) => li.getAttribute("data-kind"))).toEqual([
      "conflict",
      "retry",
      "hot-loop",
    ]);
    expect(screen.getByTestId("findings-more").elements()).toHaveLength(0);

    await screen.getByTestId("findings-kind-retry").click();
    expect(screen.getByTestId("finding").elements()).toHaveLength(1);

    // A finding selects its Foo and event.
    await screen.getByRole("button", { name: "retry ns/foo-7" }).click();
    expect(view.get().selectedKeys).toEqual(["ns/foo-7"]);
    expect(view.get().selectedSeq).toBe(15);
  });

  it("marks a finding about an earlier life of its Foo", async () => {
    const screen = await render(
      <FindingsList
        findings={busy(2)}
        view={new ViewStore()}
        earlierLife={(f) => f.kind === "hot-loop"}
      />,
    );
    const marked = screen.getByTestId("finding-earlier-life").elements();
    expect(marked).toHaveLength(1);
    expect(marked[0]!.closest("li")!.getAttribute("data-kind")).toBe("hot-loop");
  });
});
