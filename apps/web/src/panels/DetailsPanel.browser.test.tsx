import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { otherControllerNote, readTraceText, type TraceEvent } from "@loopscope/trace";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "../ui/styles.css";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { DetailsPanel } from "./DetailsPanel.tsx";

const KEY = "default/example-foo";

/** The exercise's delete + apply: the fixture's creation twice, a minute apart. */
function recreated(lines = true): TraceSession {
  const life = readTraceText(canonical, { year: 2026 }).events.map((e) =>
    lines ? e : ({ ...e, line: undefined } as TraceEvent),
  );
  const again = life.map((e) => {
    const x = { ...e, ts: e.ts + 60_000_000 } as Record<string, unknown>;
    for (const f of ["rv", "oldRv"])
      if (typeof x[f] === "string") x[f] = String(Number(x[f]) + 500);
    return x as unknown as TraceEvent;
  });
  const session = new TraceSession({ kind: "replay", name: "recreated.jsonl" });
  session.push([...life, ...again].map((e, i) => ({ ...e, seq: i + 1 })));
  return session;
}

async function details(session: TraceSession, index: number) {
  const view = new ViewStore({ selectedKeys: [KEY], selectedPass: { key: KEY, index } });
  const screen = await render(<DetailsPanel session={session} view={view} />);
  return screen.container.querySelector<HTMLElement>('[data-testid="pass-details"]')!;
}

describe("pass details", () => {
  it("names a log's events by line and passes by number, the chain of a self-triggered pass in order", async () => {
    const session = recreated();
    const passes = session.passesOf(KEY);
    const self = passes.find((p) =>
      p.triggers.some((t) => t.writeSeq !== undefined && t.watchSeq !== undefined),
    )!;
    const panel = await details(session, self.index);
    const t = self.triggers.find((x) => x.writeSeq !== undefined && x.watchSeq !== undefined)!;
    // As the excerpt beside it names them.
    const line = (seq: number) => session.store.numOf("line", session.store.rowOfSeq(seq));
    const chain = [...panel.querySelectorAll("li")].map((li) => li.textContent);
    expect(chain).toContain(
      `self: write line ${line(t.writeSeq!)} → watch line ${line(t.watchSeq!)} → enqueue line ${line(t.enqueueSeq)} → dequeue line ${line(self.dequeueSeq!)}`,
    );
  });

  it("names a JSONL trace's events by seq and passes by number, the chain in order", async () => {
    const session = recreated(false);
    const passes = session.passesOf(KEY);
    const self = passes.find((p) =>
      p.triggers.some((t) => t.writeSeq !== undefined && t.watchSeq !== undefined),
    )!;
    expect(self).toBeDefined();
    const panel = await details(session, self.index);
    expect(panel.querySelector("h3")!.textContent).toMatch(
      new RegExp(`^Pass ${KEY} #${self.number} self-triggered( · \\d adds → 1 dequeue)?$`),
    );
    const t = self.triggers.find((x) => x.writeSeq !== undefined && x.watchSeq !== undefined)!;
    const chain = [...panel.querySelectorAll("li")].map((li) => li.textContent);
    expect(chain).toContain(
      `self: write seq ${t.writeSeq} → watch seq ${t.watchSeq} → enqueue seq ${t.enqueueSeq} → dequeue seq ${self.dequeueSeq}`,
    );
    expect(panel.textContent).not.toMatch(/#\d+ →|→ #\d+/);
  });

  it("calls a re-created Foo's first pass 'new Foo · #1'", async () => {
    const session = recreated();
    const first = session.passesOf(KEY).find((p) => p.index > 0 && p.number === 1)!;
    expect(first).toBeDefined();
    const panel = await details(session, first.index);
    expect(panel.querySelector("h3")!.textContent).toBe(`Pass ${KEY} new Foo · #1 external`);
  });

  it("says a pass triggered by the initial list's add is of a Foo that existed before the run, not anyone's change", async () => {
    const read = readTraceText(canonical, { year: 2026 }).events;
    const add = read.findIndex((e) => e.stage === "watch" && e.event === "add");
    const events = read.map((e, i) => (i === add ? ({ ...e, initial: true } as TraceEvent) : e));
    const session = new TraceSession({ kind: "replay", name: "listed.jsonl" });
    session.push(events);
    const first = session.passesOf(KEY)[0]!;
    expect(first.cause).toBe("external");
    const panel = await details(session, first.index);
    expect(panel.querySelector('[data-testid="trigger-initial-list"]')?.textContent).toBe(
      " (an add of the informer's initial list: the Foo existed before the run)",
    );
    // Even with another controller at work, nobody changed a listed Foo to start its first pass.
    expect(panel.querySelector('[data-testid="pass-other-controller"]')).toBeNull();
  });

  it("counts a pass's writes in words that agree with the number (1 conflict, 2 conflicts)", async () => {
    const read = readTraceText(canonical, { year: 2026 }).events;
    const status = read.findIndex((e) => e.stage === "write" && e.verb === "updateStatus");
    const events = read.map((e, i) =>
      i === status ? ({ ...e, code: 409, reason: "Conflict", rv: undefined } as TraceEvent) : e,
    );
    const session = new TraceSession({ kind: "replay", name: "conflict.jsonl" });
    session.push(events);
    const pass = session.passesOf(KEY).find((p) => p.conflicts === 1)!;
    const panel = await details(session, pass.index);
    const writes = [...panel.querySelectorAll("dt")].find((dt) => dt.textContent === "writes")!;
    expect(writes.nextElementSibling!.textContent).toMatch(/, 1 conflict\)$/);
  });

  it("tells an external pass that another controller at work may have caused it", async () => {
    const events = readTraceText(canonical, { year: 2026 }).events;
    const last = events[events.length - 1]!;
    const note = {
      stage: "note",
      key: KEY,
      level: "W",
      text: otherControllerNote({ name: "loopscope-42@vm", reason: "Synced", key: KEY, at: "" }),
      ts: last.ts + 1,
      seq: last.seq + 1,
    } as TraceEvent;
    const session = new TraceSession({ kind: "replay", name: "other.jsonl" });
    session.push([...events, note]);
    const external = session.passesOf(KEY).find((p) => p.cause === "external")!;
    const panel = await details(session, external.index);
    expect(panel.querySelector('[data-testid="pass-other-controller"]')?.textContent).toBe(
      "Another controller is also reconciling Foos on this cluster (loopscope-42@vm): an external trigger may be its write, and its own passes are not in this trace.",
    );
    const self = session.passesOf(KEY).find((p) => p.cause === "self")!;
    const selfPanel = await details(session, self.index);
    expect(selfPanel.querySelector('[data-testid="pass-other-controller"]')).toBeNull();
  });
});

describe("the details' links and the focus", () => {
  it("a trigger's event, then back to its pass: the focus stays in the panel, never on <body>", async () => {
    const session = recreated(false);
    const view = new ViewStore({ selectedKeys: [KEY], selectedPass: { key: KEY, index: 0 } });
    const screen = await render(<DetailsPanel session={session} view={view} />);
    const panel = screen.getByRole("region", { name: "Details" });
    const watch = screen.getByRole("button", { name: /^watch seq/ }).element() as HTMLElement;
    watch.focus();
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => view.get().selectedSeq).toBeDefined();
    await expect.element(screen.getByTestId("event-pass")).toBeInTheDocument();
    expect(panel.element().contains(document.activeElement)).toBe(true);
    // Tab goes on from the panel: to its first link.
    await userEvent.keyboard("{Tab}");
    expect(panel.element().contains(document.activeElement)).toBe(true);
    (screen.getByRole("button", { name: /^pass #1/ }).element() as HTMLElement).focus();
    await userEvent.keyboard("{Enter}");
    await expect.element(screen.getByTestId("pass-details")).toBeInTheDocument();
    expect(panel.element().contains(document.activeElement)).toBe(true);
  });
});
