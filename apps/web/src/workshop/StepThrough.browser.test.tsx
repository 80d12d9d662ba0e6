import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import burst from "../../../../public/traces/burst.jsonl?raw";
import { useView } from "../app/hooks.ts";
import { SHORTCUTS } from "../app/shortcuts.ts";
import { ShortcutsOverlay } from "../app/ShortcutsOverlay.tsx";
import { sessionFromText } from "../testing/fixtureSession.ts";
import type { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { StepThrough } from "./StepThrough.tsx";
import { stepSeqs, workshopData } from "./workshopData.ts";

const KEY = "default/example-foo";

/** The step-through as the dock shows it: it re-renders when the view's selection moves. */
function Stepping({
  session,
  view,
  focusKey = KEY,
}: {
  session: TraceSession;
  view: ViewStore;
  focusKey?: string;
}) {
  const state = useView(view);
  return (
    <StepThrough
      session={session}
      view={view}
      data={workshopData(session, focusKey)}
      focusKey={focusKey}
      selectedSeq={state.selectedSeq}
    />
  );
}

/** The step-through on the fixture's creation, at its second step. */
async function stepping() {
  const session = sessionFromText(canonical);
  const steps = stepSeqs(workshopData(session, KEY), KEY, session.summaryOf(KEY)?.firstTs);
  const view = new ViewStore({ selectedKeys: [KEY], selectedSeq: steps[1] });
  await render(<Stepping session={session} view={view} />);
  return { view, steps };
}

/** Presses `key` on the page; whether a handler took it (prevented its default), once React has
 * drawn what it did. */
async function press(key: string, mods: KeyboardEventInit = {}): Promise<boolean> {
  const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...mods });
  document.body.dispatchEvent(e);
  await new Promise((r) => requestAnimationFrame(r));
  return e.defaultPrevented;
}

describe("step-through keys", () => {
  it("n / PageDown step on, p / PageUp step back", async () => {
    const { view, steps } = await stepping();
    expect(await press("n")).toBe(true);
    expect(view.get().selectedSeq).toBe(steps[2]);
    await press("PageDown");
    expect(view.get().selectedSeq).toBe(steps[3]);
    await press("p");
    expect(view.get().selectedSeq).toBe(steps[2]);
    await press("PageUp");
    expect(view.get().selectedSeq).toBe(steps[1]);
  });

  it("leaves Ctrl, ⌘ and Alt with those keys to the browser (Ctrl+P prints, Ctrl+N opens a window)", async () => {
    const { view, steps } = await stepping();
    for (const mods of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }])
      for (const key of ["n", "p", "PageDown", "PageUp"]) {
        expect(await press(key, mods), `${key} ${JSON.stringify(mods)}`).toBe(false);
        expect(view.get().selectedSeq, `${key} ${JSON.stringify(mods)}`).toBe(steps[1]);
      }
  });

  it("are in the ? overlay, each of them", async () => {
    const listed = SHORTCUTS.flatMap((g) => g.items).flatMap((s) => s.keys);
    for (const key of ["n", "PageDown", "p", "PageUp"]) expect(listed).toContain(key);
    const screen = await render(<ShortcutsOverlay onClose={() => {}} />);
    const rows = [...screen.container.querySelectorAll(".shortcut")].map((r) => r.textContent);
    expect(rows.find((r) => r?.includes("PageDown"))).toMatch(/^n PageDown.*next step/);
    expect(rows.find((r) => r?.includes("PageUp"))).toMatch(/^p PageUp.*step before/);
  });
});

describe("switching the Foo", () => {
  it("does not tell the previous Foo's step under the new Foo's name", async () => {
    const session = sessionFromText(burst);
    const first = "default/burst-01";
    const read = Array.from(session.store.rowsOf(first), (r) => session.store.event(r)).find(
      (e) => e.stage === "read",
    )!;
    // burst-01's read is selected; the workshop's Foo is now burst-05.
    const view = new ViewStore({ selectedKeys: ["default/burst-05"], selectedSeq: read.seq });
    const screen = await render(
      <Stepping session={session} view={view} focusKey="default/burst-05" />,
    );
    const text = screen.getByTestId("narration").element().textContent ?? "";
    expect(text).not.toContain("burst-01");
    expect(text).toContain("default/burst-05");
    expect(screen.getByTestId("ws-step-pos").element().textContent).not.toContain("read");
  });
});
