import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import type { TraceEvent } from "@loopscope/trace";
import "../ui/styles.css";
import { TraceSession } from "../store/session.ts";
import { ExcerptPanel } from "./ExcerptPanel.tsx";

const KEY = "team-payments-production/checkout-service-frontend-canary";

/** One pass of a Foo with a long key: a watch, its enqueue, the dequeue, read and a write. */
function onePass(): TraceSession {
  const session = new TraceSession({ kind: "replay" });
  const events: TraceEvent[] = [
    {
      seq: 1,
      ts: 1_000_000,
      key: KEY,
      stage: "watch",
      kind: "Foo",
      name: "checkout-service-frontend-canary",
      event: "add",
      rv: "10",
    },
    { seq: 2, ts: 1_000_100, key: KEY, stage: "enqueue", len: 1, cause: "watch" },
    { seq: 3, ts: 1_000_200, key: KEY, stage: "dequeue", len: 0 },
    { seq: 4, ts: 1_000_300, key: KEY, stage: "read", rv: "10" },
    {
      seq: 5,
      ts: 1_000_400,
      key: KEY,
      stage: "write",
      verb: "create",
      target: "deployments/team-payments-production/checkout-service-frontend-canary",
      code: 201,
      changed: true,
    },
  ];
  session.push(events);
  return session;
}

describe("excerpt panel", () => {
  it("in a narrow pane, wraps the title at the left edge and a log line's rest under its column", async () => {
    const screen = await render(
      <div style={{ width: 360, height: 500, display: "flex" }}>
        <ExcerptPanel session={onePass()} keyName={KEY} />
      </div>,
    );
    const pre = screen.container.querySelector<HTMLElement>('[data-testid="excerpt"]')!;
    await expect.poll(() => pre.textContent).toContain("STAGE/write");
    const rows = [...pre.querySelectorAll<HTMLElement>(":scope > div")];
    const left = pre.getBoundingClientRect().left + parseFloat(getComputedStyle(pre).paddingLeft);
    // The title wraps into a few full-width lines, not a column of one word each.
    const title = rows[0]!;
    expect(title.textContent).toContain(`${KEY}: from creation`);
    const lineHeight = parseFloat(getComputedStyle(pre).lineHeight) || 16;
    expect(title.getBoundingClientRect().height).toBeLessThan(4 * lineHeight);
    const words = document.createRange();
    words.selectNodeContents(title);
    const boxes = [...words.getClientRects()];
    expect(Math.min(...boxes.map((b) => b.left))).toBeLessThan(left + 2);
    // An event row's wrapped rest starts under its log line's column, right of the stage column.
    const write = rows.find((r) => r.textContent!.includes("STAGE/write"))!;
    const range = document.createRange();
    range.selectNodeContents(write);
    const lines = [...range.getClientRects()];
    const lefts = [...new Set(lines.map((b) => Math.round(b.left)))].sort((a, b) => a - b);
    expect(lefts.length).toBeGreaterThan(1);
    expect(lefts[1]! - left).toBeGreaterThan(60);
    // Never so far right that the log text gets a sliver of the pane: at most half of it.
    expect(lefts[1]! - left).toBeLessThanOrEqual(pre.clientWidth / 2);
    // And its first line starts at the left edge, as the title does.
    expect(lefts[0]).toBeLessThan(left + 2);
  });
});
