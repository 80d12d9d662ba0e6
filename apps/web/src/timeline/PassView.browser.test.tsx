import { TraceReader, type TraceEvent } from "@loopscope/trace";
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import burst from "../../../../public/traces/burst.jsonl?raw";
import "../ui/styles.css";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { PassView } from "./PassView.tsx";

const KEY = "default/example-foo";

/** The fixture's events, as a live session receives them. */
function events(): TraceEvent[] {
  const reader = new TraceReader();
  return [...reader.push(canonical), ...reader.end()];
}

/** The pass view of a live session holding the fixture's first `n` events, following live. */
async function livePassView(n: number, selectedPass?: { key: string; index: number }) {
  const all = events();
  const session = new TraceSession({ kind: "live" });
  session.push(all.slice(0, n));
  const view = new ViewStore({ selectedKeys: [KEY], timelineView: "passes", selectedPass });
  const screen = await render(
    <div style={{ width: 600, display: "flex" }}>
      <PassView session={session} view={view} />
    </div>,
  );
  const wrap = screen.getByTestId("pass-view").element() as HTMLElement;
  return { session, view, wrap, rest: all.slice(n) };
}

const atEnd = (el: HTMLElement) => el.scrollWidth - el.clientWidth - el.scrollLeft;

describe("pass view, following live", () => {
  it("scrolls each new pass into view, as the lanes keep the newest event in view", async () => {
    const { session, view, wrap, rest } = await livePassView(12);
    expect(view.get().follow).toBe(true);
    session.push(rest);
    await expect.poll(() => session.passesOf(KEY).length).toBeGreaterThan(4);
    await expect
      .poll(() => wrap.querySelectorAll("[data-testid=pass-column]").length)
      .toBe(session.passesOf(KEY).length);
    // Wider than the 600 px it has: the newest column is in view only scrolled to the end.
    expect(wrap.scrollWidth).toBeGreaterThan(wrap.clientWidth + 400);
    await expect.poll(() => atEnd(wrap)).toBeLessThanOrEqual(1);
  });

  it("stops following when scrolled back to earlier passes, as a pan of the lanes does", async () => {
    const { session, view, wrap, rest } = await livePassView(12);
    const half = rest.length >> 1;
    session.push(rest.slice(0, half));
    await expect.poll(() => wrap.scrollLeft).toBeGreaterThan(0);
    await expect.poll(() => atEnd(wrap)).toBeLessThanOrEqual(1);
    wrap.scrollLeft = 0;
    await expect.poll(() => view.get().follow).toBe(false);
    // The passes that come after that leave the view where it was scrolled.
    session.push(rest.slice(half));
    await expect
      .poll(() => wrap.querySelectorAll("[data-testid=pass-column]").length)
      .toBe(session.passesOf(KEY).length);
    expect(wrap.scrollLeft).toBe(0);
  });

  it("opens on the newest pass with an earlier one selected, and keeps following", async () => {
    const { view, wrap } = await livePassView(Infinity, { key: KEY, index: 0 });
    await expect.poll(() => wrap.scrollLeft).toBeGreaterThan(0);
    await expect.poll(() => atEnd(wrap)).toBeLessThanOrEqual(1);
    expect(view.get().follow).toBe(true);
  });

  it("leaves a replay's pass view at its start", async () => {
    const session = new TraceSession({ kind: "replay", name: "fixture.log" });
    session.push(events());
    const view = new ViewStore({ selectedKeys: [KEY], timelineView: "passes" });
    const screen = await render(
      <div style={{ width: 600, display: "flex" }}>
        <PassView session={session} view={view} />
      </div>,
    );
    const wrap = screen.getByTestId("pass-view").element() as HTMLElement;
    expect(wrap.scrollWidth).toBeGreaterThan(wrap.clientWidth + 400);
    expect(wrap.scrollLeft).toBe(0);
  });
});

describe("pass view, scrolled", () => {
  it("keeps the Foo's name and the stage names at its left edge, over the passes scrolled under them", async () => {
    const { wrap } = await livePassView(Infinity);
    await expect.poll(() => atEnd(wrap)).toBeLessThanOrEqual(1);
    expect(wrap.scrollLeft).toBeGreaterThan(400);
    const left = wrap.getBoundingClientRect().left;
    const names = [...wrap.querySelectorAll(".pv-stage")];
    expect(names.map((t) => t.textContent)).toEqual([
      "watch",
      "enqueue",
      "dequeue",
      "read",
      "write",
    ]);
    for (const t of [...names, wrap.querySelector(".pv-key")!]) {
      const x = t.getBoundingClientRect().left - left;
      expect(x, t.textContent!).toBeGreaterThanOrEqual(0);
      expect(x, t.textContent!).toBeLessThan(40);
    }
    // Drawn over the columns: what lies under a stage name is the name's own band, not a pass.
    const name = names[0]!.getBoundingClientRect();
    const under = document.elementFromPoint(name.left + 2, name.top + name.height / 2);
    expect(under?.closest("[data-testid=pass-column]")).toBeNull();
  });
});

describe("pass view labels", () => {
  it("keep a merged pass's cause where its whole label does not fit, not its number alone", async () => {
    const reader = new TraceReader();
    const session = new TraceSession({ kind: "replay" });
    session.push([...reader.push(burst), ...reader.end()]);
    const key = session.store
      .keyList()
      .find((k) => session.passesOf(k).some((p) => p.triggers.length > 1 && p.cause !== "self"))!;
    const merged = session.passesOf(key).find((p) => p.triggers.length > 1 && p.cause !== "self")!;
    const view = new ViewStore({ selectedKeys: [key], timelineView: "passes" });
    const screen = await render(
      <div style={{ width: 1400, display: "flex" }}>
        <PassView session={session} view={view} />
      </div>,
    );
    const labels = () =>
      [...screen.container.querySelectorAll("[data-testid=pass-column-label]")].map(
        (l) => l.textContent ?? "",
      );
    await expect.poll(() => labels().length).toBeGreaterThan(0);
    const said = labels().find((l) => l.startsWith(`#${merged.number}`))!;
    expect(said).toMatch(new RegExp(`^#${merged.number} ${merged.cause}`));
  });
});
