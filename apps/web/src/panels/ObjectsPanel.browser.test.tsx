import type { ComponentProps } from "react";
import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { TraceEvent } from "@loopscope/trace";
import "../ui/styles.css";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import {
  OBJECT_ROW_HEIGHT,
  OBJECT_ROW_HEIGHT_WITH_NAMESPACE as ROW,
  ObjectsPanel,
  optionLabel,
  STATE_GLYPH,
} from "./ObjectsPanel.tsx";

const FOOS = 3000;
const keyOf = (i: number) => `ns-${i % 7}/foo-${i}`;

function sessionWithFoos(n: number): TraceSession {
  const session = new TraceSession({ kind: "replay" });
  const events: TraceEvent[] = [];
  for (let i = 0; i < n; i++) {
    events.push({ seq: i + 1, ts: 1_000_000 + i, key: keyOf(i), stage: "enqueue", len: 1 });
  }
  session.push(events);
  return session;
}

/** The panel in a 420 px tall box, as the app's grid gives it a fixed share of the window. */
async function renderPanel(
  session: TraceSession,
  view = new ViewStore(),
  serverMode?: "live" | "replay",
  live: Pick<ComponentProps<typeof ObjectsPanel>, "readOnly" | "reachability" | "fooApi"> = {},
) {
  const screen = await render(
    <div
      style={{
        display: "grid",
        height: 420,
        width: 340,
        gridTemplateRows: "minmax(0, 1fr)",
        gridTemplateColumns: "minmax(0, 1fr)",
        // The panel places itself in the app grid's "objects" area.
        gridTemplateAreas: '"objects"',
      }}
    >
      <ObjectsPanel session={session} view={view} serverMode={serverMode} {...live} />
    </div>,
  );
  const panel = screen.container.querySelector("section.objects") as HTMLElement;
  const rows = () =>
    [...panel.querySelectorAll<HTMLElement>('[data-testid="object-row"]')].map((r) => ({
      key: r.dataset.key!,
      el: r,
    }));
  /** Keys of the rows whose middle is inside the panel's visible box. */
  const inView = () => {
    const box = panel.getBoundingClientRect();
    return rows()
      .filter(({ el }) => {
        const r = el.getBoundingClientRect();
        const mid = (r.top + r.bottom) / 2;
        return mid > box.top && mid < box.bottom;
      })
      .map((r) => r.key);
  };
  return { screen, panel, rows, inView };
}

const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));

/** The objects panel in a 320 px column (a 1280 px window's), one enqueue per key. */
async function renderNarrow(keys: string[], width = 320) {
  const session = new TraceSession({ kind: "replay" });
  session.push(keys.map((key, i) => ({ seq: i + 1, ts: i, key, stage: "enqueue" as const })));
  const screen = await render(
    <div
      style={{
        display: "grid",
        height: 300,
        width,
        gridTemplateRows: "minmax(0, 1fr)",
        gridTemplateColumns: "minmax(0, 1fr)",
        // The panel places itself in the app grid's "objects" area.
        gridTemplateAreas: '"objects"',
      }}
    >
      <ObjectsPanel session={session} view={new ViewStore()} />
    </div>,
  );
  await frame();
  return screen;
}

describe("objects table", () => {
  it("draws a screenful of 3000 Foos, every row as tall as it counts on", async () => {
    const { panel, rows, inView } = await renderPanel(sessionWithFoos(FOOS));
    await frame();
    const drawn = rows();
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(60);
    for (const { el } of drawn) {
      expect(el.getBoundingClientRect().height).toBe(ROW);
    }
    // The spacers make the table as tall as all its rows: the scrollbar spans every Foo.
    expect(panel.scrollHeight).toBeGreaterThan(FOOS * ROW);
    expect(panel.scrollHeight).toBeLessThan(FOOS * ROW + 200);
    expect(inView()[0]).toBe(keyOf(0));
    // A screen reader hears the whole list's size, not the screenful drawn.
    expect(drawn[0]!.el.getAttribute("aria-setsize")).toBe(String(FOOS));
  });

  it("is a listbox: ↑ ↓ Home End move the selection, and the list's active option is the one chosen, named in words", async () => {
    const session = sessionWithFoos(FOOS);
    const view = new ViewStore({ selectedKeys: [keyOf(2)] });
    const { screen } = await renderPanel(session, view);
    const list = screen.getByRole("listbox").element() as HTMLElement;
    expect(list.getAttribute("aria-multiselectable")).toBe("true");
    list.focus();
    expect(document.activeElement).toBe(list);
    /** The option aria-activedescendant names: it exists, is an option, and is selected. */
    const active = () => {
      const id = list.getAttribute("aria-activedescendant");
      const el = id ? document.getElementById(id) : null;
      return el &&
        el.getAttribute("role") === "option" &&
        el.getAttribute("aria-selected") === "true"
        ? {
            key: el.dataset.key,
            name: el.getAttribute("aria-label"),
            pos: el.getAttribute("aria-posinset"),
          }
        : undefined;
    };
    await expect.poll(() => active()?.key).toBe(keyOf(2));
    await userEvent.keyboard("{ArrowDown}");
    await expect.poll(() => active()?.key).toBe(keyOf(3));
    expect(active()).toEqual({
      key: keyOf(3),
      name: "foo-3 in ns-3: 0 passes, 0 self-triggered, 0 conflicts, settling",
      pos: "4",
    });
    expect(document.activeElement).toBe(list);
    await userEvent.keyboard("{End}");
    await expect.poll(() => active()?.key).toBe(keyOf(FOOS - 1));
    expect(active()?.pos).toBe(String(FOOS));
    await userEvent.keyboard("{Home}{ArrowDown}{ArrowUp}");
    await expect.poll(() => active()?.key).toBe(keyOf(0));
    // One option is named at a time: the others are not selected.
    expect(list.querySelectorAll('[role="option"][aria-selected="true"]')).toHaveLength(1);
  });

  it("multi-selects from the keyboard as ctrl-click stacks: shift+↑/↓ extend, ctrl+↑/↓ move, ctrl+space toggle", async () => {
    const session = sessionWithFoos(12);
    const view = new ViewStore({ selectedKeys: [keyOf(2)] });
    const { screen } = await renderPanel(session, view);
    const list = screen.getByRole("listbox").element() as HTMLElement;
    expect(list.getAttribute("aria-multiselectable")).toBe("true");
    list.focus();
    const activeKey = () => {
      const id = list.getAttribute("aria-activedescendant");
      return id ? document.getElementById(id)?.dataset.key : undefined;
    };
    const chosen = () =>
      [...list.querySelectorAll<HTMLElement>('[role="option"][aria-selected="true"]')].map(
        (el) => el.dataset.key,
      );
    await userEvent.keyboard("{Shift>}{ArrowDown}{ArrowDown}{/Shift}");
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3), keyOf(4)]);
    await expect.poll(() => activeKey()).toBe(keyOf(4));
    expect(chosen()).toEqual([keyOf(2), keyOf(3), keyOf(4)]);
    // Back: the range shrinks.
    await userEvent.keyboard("{Shift>}{ArrowUp}{/Shift}");
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3)]);
    await expect.poll(() => activeKey()).toBe(keyOf(3));
    // Ctrl+↓ moves the focus alone; ctrl+space stacks the Foo there, and again unstacks it.
    await userEvent.keyboard("{Control>}{ArrowDown}{ArrowDown}{ArrowDown}{/Control}");
    await expect.poll(() => activeKey()).toBe(keyOf(6));
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3)]);
    await userEvent.keyboard("{Control>} {/Control}");
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3), keyOf(6)]);
    expect(view.get().playing).toBe(false);
    await userEvent.keyboard("{Control>}{ArrowUp} {/Control}");
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3), keyOf(6), keyOf(5)]);
    await userEvent.keyboard("{Control>} {/Control}");
    expect(view.get().selectedKeys).toEqual([keyOf(2), keyOf(3), keyOf(6)]);
    await expect.poll(() => activeKey()).toBe(keyOf(5));
    // A plain ↓ chooses one Foo again.
    await userEvent.keyboard("{ArrowDown}");
    expect(view.get().selectedKeys).toEqual([keyOf(6)]);
    await expect.poll(() => activeKey()).toBe(keyOf(6));
  });

  it("↓ and End on the last row choose that Foo alone, out of a ctrl-click stack", async () => {
    const session = sessionWithFoos(5);
    const view = new ViewStore();
    const { screen } = await renderPanel(session, view);
    const list = screen.getByRole("listbox").element() as HTMLElement;
    for (const key of ["{ArrowDown}", "{End}"]) {
      view.set({ selectedKeys: [keyOf(1), keyOf(4)] });
      list.focus();
      await userEvent.keyboard(key);
      expect(view.get().selectedKeys, key).toEqual([keyOf(4)]);
    }
  });

  it("names an option's counts in words, one in the singular: 1 pass, 1 conflict", () => {
    const summary = (passes: number, selfTriggered: number, conflicts: number) =>
      ({ passes, selfTriggered, conflicts }) as Parameters<typeof optionLabel>[2];
    expect(optionLabel("default/example-foo", false, summary(1, 1, 1), "quiescent")).toBe(
      "example-foo: 1 pass, 1 self-triggered, 1 conflict, quiescent",
    );
    expect(optionLabel("default/example-foo", true, summary(9, 3, 2), "settling")).toBe(
      "example-foo in default: 9 passes, 3 self-triggered, 2 conflicts, settling",
    );
    expect(optionLabel("default/example-foo", false, undefined, "…")).toBe(
      "example-foo: not counted yet",
    );
  });

  it("scrolls to any Foo: the rows in view are the ones at that offset, down to the last", async () => {
    const { panel, inView } = await renderPanel(sessionWithFoos(FOOS));
    await frame();
    const listTop =
      panel.querySelector("tbody")!.getBoundingClientRect().top -
      panel.getBoundingClientRect().top -
      panel.clientTop +
      panel.scrollTop;
    panel.scrollTop = listTop + 1500 * ROW;
    await expect.poll(() => inView()[0]).toBe(keyOf(1500));
    expect(inView().length).toBeGreaterThan(8);
    panel.scrollTop = panel.scrollHeight;
    await expect.poll(() => inView().at(-1)).toBe(keyOf(FOOS - 1));
  });

  it("scrolls a Foo selected elsewhere (a deep link) into view, once", async () => {
    const view = new ViewStore();
    const { panel, inView, rows } = await renderPanel(sessionWithFoos(FOOS), view);
    await frame();
    view.set({ selectedKeys: [keyOf(2400)] });
    await expect.poll(() => inView()).toContain(keyOf(2400));
    const row = rows().find((r) => r.key === keyOf(2400))!;
    expect(row.el.getAttribute("aria-selected")).toBe("true");
    // The user scrolls away: the selection stays where it is.
    panel.scrollTop = 0;
    await frame();
    await frame();
    expect(inView()[0]).toBe(keyOf(0));
  });

  it("filters by the search box", async () => {
    const view = new ViewStore({ search: "foo-2999" });
    const { rows } = await renderPanel(sessionWithFoos(FOOS), view);
    await expect.poll(() => rows().map((r) => r.key)).toEqual([keyOf(2999)]);
  });

  it("short of room (the objects column of a 1280 px window), Foos of several namespaces keep the ends of their names, each namespace on its own line", async () => {
    const names = ["checkout-service-frontend-canary", "checkout-service-frontend-stable"];
    const keys = ["team-payments-production", "default"].flatMap((ns) =>
      names.map((n) => `${ns}/${n}`),
    );
    const screen = await renderNarrow(keys);
    const rows = [...screen.container.querySelectorAll<HTMLElement>('[data-testid="object-row"]')];
    expect(rows).toHaveLength(4);
    for (const [i, row] of rows.entries()) {
      expect(row.getBoundingClientRect().height).toBe(ROW);
      const cell = row.querySelector<HTMLElement>("td.key")!.getBoundingClientRect();
      const name = row.querySelector<HTMLElement>(".name")!;
      const ns = row.querySelector<HTMLElement>(".ns")!;
      // Cut in the middle: the name's end is whole and inside its cell.
      const tail = name.querySelector<HTMLElement>(".tail")!;
      expect(tail.textContent).toBe(i % 2 ? "d-stable" : "d-canary");
      expect(tail.getBoundingClientRect().right).toBeLessThanOrEqual(cell.right);
      const head = name.querySelector<HTMLElement>(".head")!;
      expect(head.scrollWidth).toBeGreaterThan(head.clientWidth);
      expect(head.textContent! + tail.textContent!).toBe(names[i % 2]);
      // Read as one name, and its namespace, not as the two halves drawn ("…-fronten d-canary").
      expect(row.getAttribute("aria-label")).toBe(
        `${names[i % 2]} in ${keys[i]!.split("/")[0]}: 0 passes, 0 self-triggered, 0 conflicts, settling`,
      );
      // The namespace under the name, not squeezed beside it.
      expect(ns.getBoundingClientRect().top).toBeGreaterThanOrEqual(
        name.getBoundingClientRect().bottom - 1,
      );
      expect(ns.getBoundingClientRect().bottom).toBeLessThanOrEqual(cell.bottom);
      expect(ns.querySelector(".sr-only")!.textContent).toBe(keys[i]!.split("/")[0]);
    }
  });

  it("in the narrowest column (a 1024 px window), the state is a small mark of its own shape, not its colour alone, and the names get its room", async () => {
    const keys = [
      "team-a/checkout-service-frontend-canary",
      "default/checkout-service-frontend-stable",
    ];
    const badgeWidth = async (width: number) => {
      const screen = await renderNarrow(keys, width);
      const badge = screen.container.querySelector<HTMLElement>('[data-testid="object-state"]')!;
      const name = screen.container.querySelector<HTMLElement>("td.key")!;
      expect(badge.title).toBe(badge.textContent);
      const w = {
        badge: badge.getBoundingClientRect().width,
        name: name.clientWidth,
        mark: getComputedStyle(badge, "::before").content,
        label: badge.textContent!,
      };
      // Its word is what a screen reader reads, in both widths.
      await expect
        .element(screen.getByRole("option", { name: new RegExp(`, ${w.label}$`) }).first())
        .toBeInTheDocument();
      return w;
    };
    const wide = await badgeWidth(340);
    const narrow = await badgeWidth(300);
    expect(wide.badge).toBeGreaterThan(30);
    expect(wide.mark).toBe("none");
    expect(narrow.badge).toBeLessThanOrEqual(18);
    expect(narrow.name).toBeGreaterThan(90);
    // The mark: the state's glyph, drawn (and only drawn: its alt text is empty).
    expect(narrow.mark).toBe(`"${STATE_GLYPH[narrow.label]}" / ""`);
    // Every state's mark differs from every other's: hot loop ↻, quiescent ✓.
    const marks = Object.values(STATE_GLYPH);
    expect(new Set(marks).size).toBe(marks.length);
    expect(STATE_GLYPH["hot loop"]).not.toBe(STATE_GLYPH.quiescent);
  });

  it("shows a four-digit self count whole, and the widest count each column can get, unclipped", async () => {
    // A hot loop: each pass's status write echoes back and triggers the next (1200 self passes).
    const key = "default/example-foo";
    const events: TraceEvent[] = [];
    let seq = 0;
    const at = (e: Omit<TraceEvent, "seq" | "ts" | "key">) =>
      events.push({ ...e, key, seq: ++seq, ts: 1_000_000 + seq * 10 } as TraceEvent);
    at({ stage: "watch", kind: "Foo", event: "add", rv: "1" } as never);
    at({ stage: "enqueue", cause: "watch", causeSeq: seq } as never);
    for (let i = 0; i < 1201; i++) {
      at({ stage: "dequeue", worker: 1 } as never);
      at({ stage: "read", rv: String(i + 1) } as never);
      const target = "foos/default/example-foo/status";
      at({
        stage: "write",
        verb: "updateStatus",
        target,
        code: 200,
        rv: String(i + 2),
        changed: true,
      } as never);
      at({ stage: "done", outcome: "synced", worker: 1 } as never);
      at({
        stage: "watch",
        kind: "Foo",
        event: "update",
        rv: String(i + 2),
        oldRv: String(i + 1),
      } as never);
      at({ stage: "enqueue", cause: "watch", causeSeq: seq } as never);
    }
    const session = new TraceSession({ kind: "replay" });
    session.push(events);
    const { panel } = await renderPanel(session);
    const cells = () => [
      ...panel.querySelectorAll<HTMLElement>('[data-testid="object-row"] td.num'),
    ];
    const self = cells()[1]!;
    expect(Number(self.textContent)).toBeGreaterThanOrEqual(1200);
    const fits = (el: HTMLElement) => el.scrollWidth <= el.clientWidth;
    for (const cell of cells()) expect(fits(cell), cell.textContent!).toBe(true);
    // The name keeps its room: "example-foo" whole in a 1280 px window's column (340 px).
    const head = panel.querySelector<HTMLElement>('[data-testid="object-row"] td.key .head')!;
    expect(head.scrollWidth).toBeLessThanOrEqual(head.clientWidth);
    // The widest text each column shows for any trace that fits in memory: four digits, or
    // cellCount's short form up to millions.
    for (const [i, widest] of [
      [0, "8888"],
      [0, "999k"],
      [1, "8888"],
      [1, "999k"],
      [1, "9.9M"],
      [2, "8888"],
      [2, "999k"],
    ] as const) {
      const cell = cells()[i]!;
      cell.textContent = widest;
      expect(fits(cell), widest).toBe(true);
    }
  });

  it("names Foos of one namespace by name alone and says the namespace once, in the header", async () => {
    const screen = await renderNarrow(["default/burst-01", "default/burst-02", "default/burst-03"]);
    expect(screen.container.querySelectorAll("td.key .ns")).toHaveLength(0);
    const names = [...screen.container.querySelectorAll<HTMLElement>("td.key .name")];
    for (const name of ["burst-01", "burst-02", "burst-03"])
      await expect
        .element(screen.getByRole("option", { name: new RegExp(`^${name}: `) }))
        .toBeInTheDocument();
    // The namespace once, in the list's name.
    await expect
      .element(screen.getByRole("listbox", { name: /^Foos in default:/ }))
      .toBeInTheDocument();
    expect(names.map((n) => n.querySelector(".sr-only")!.textContent)).toEqual([
      "burst-01",
      "burst-02",
      "burst-03",
    ]);
    for (const row of screen.container.querySelectorAll('[data-testid="object-row"]'))
      expect(row.getBoundingClientRect().height).toBe(OBJECT_ROW_HEIGHT);
    await expect
      .element(screen.getByTestId("objects-namespace"))
      .toHaveTextContent("Foo in default");
  });

  it("says when the filter hides the Foo the lanes show", async () => {
    const view = new ViewStore({ selectedKeys: [keyOf(1)] });
    const { panel } = await renderPanel(sessionWithFoos(30), view);
    const note = () => panel.querySelector('[data-testid="selection-filtered-out"]')?.textContent;
    expect(note()).toBeUndefined();
    view.set({ search: "foo-2" });
    await new Promise((r) => requestAnimationFrame(r));
    expect(note()).toContain(`Shown: ${keyOf(1)}, which the filter hides.`);
    view.set({ search: "foo-1" });
    await new Promise((r) => requestAnimationFrame(r));
    expect(note()).toBeUndefined();
  });

  it("says when nothing matches the search, not that there are no objects", async () => {
    const { panel } = await renderPanel(sessionWithFoos(5), new ViewStore({ search: "nomatch" }));
    const empty = () => panel.querySelector('[data-testid="objects-empty"]')?.textContent;
    await expect.poll(empty).toBe("No objects match “nomatch”.");
    const { panel: none } = await renderPanel(new TraceSession({ kind: "none" }));
    expect(none.querySelector('[data-testid="objects-empty"]')?.textContent).toBe(
      "No objects yet.",
    );
    // A live cluster with no Foo yet says how to make one.
    const { panel: live } = await renderPanel(
      new TraceSession({ kind: "live" }),
      undefined,
      "live",
    );
    expect(live.querySelector('[data-testid="objects-empty"]')?.textContent).toContain(
      "kubectl apply -f public/manifests/example-foo.yaml",
    );
    // Not while the cluster does not answer (the create button is off), nor on a share link
    // (it has no button, and no KUBECONFIG).
    const { panel: down } = await renderPanel(
      new TraceSession({ kind: "live" }),
      undefined,
      "live",
      {
        reachability: {
          reachable: false,
          server: "https://10.0.0.1:6443",
          error: "no answer within 3 s",
          since: "2026-12-06T12:00:00Z",
        },
      },
    );
    expect(down.querySelector('[data-testid="objects-empty"]')?.textContent).toBe(
      "No Foos yet, and https://10.0.0.1:6443 is not answering (no answer within 3 s): its Foos show here once it is back.",
    );
    // While the Foo API is gone, its CRD comes first: no Foo can be made before.
    const gone = { served: false, since: "2026-12-06T12:00:00Z" } as const;
    const { panel: noApi } = await renderPanel(
      new TraceSession({ kind: "live" }),
      undefined,
      "live",
      { fooApi: gone },
    );
    const advice = noApi.querySelector('[data-testid="objects-empty"]')?.textContent ?? "";
    expect(advice).toMatch(
      /^No Foos: the Foo API is gone from the cluster \(its CRD was deleted\)\. Bring it back first.*kubectl apply -f public\/manifests\/crd\.yaml; then create a Foo with create example-foo above, or kubectl apply -f public\/manifests\/example-foo\.yaml$/,
    );
    const { panel: sharedNoApi } = await renderPanel(
      new TraceSession({ kind: "live" }),
      undefined,
      "live",
      { fooApi: gone, readOnly: true },
    );
    expect(sharedNoApi.querySelector('[data-testid="objects-empty"]')?.textContent).toBe(
      "No Foos: the Foo API is gone from the cluster (its CRD was deleted). Its Foos show here once it is back.",
    );
    const { panel: shared } = await renderPanel(
      new TraceSession({ kind: "live" }),
      undefined,
      "live",
      { readOnly: true },
    );
    const watching = shared.querySelector('[data-testid="objects-empty"]')?.textContent;
    expect(watching).toContain("No Foos yet. This page watches");
    expect(watching).not.toContain("KUBECONFIG");
  });

  it("says what a trace without a Foo holds, and never gives a replay the live advice", async () => {
    const notes = new TraceSession({ kind: "live" });
    notes.push(
      ["controllermanager.go:761", "controllermanager.go:761", "leaderelection.go:260"].map(
        (src, i) => ({ seq: i + 1, ts: i, key: "", stage: "note", level: "I", text: "x", src }),
      ),
    );
    // `loopscope replay` of another controller's log: the page's session is the server's.
    const { panel } = await renderPanel(notes, undefined, "replay");
    const text = panel.querySelector('[data-testid="objects-empty"]')?.textContent ?? "";
    expect(text).toContain(
      "No Foo in this trace. It holds 3 events, all notes — lines from controllermanager.go (2), leaderelection.go — and no line of sample-controller’s",
    );
    expect(text).not.toContain("KUBECONFIG");
    const { panel: empty } = await renderPanel(new TraceSession({ kind: "replay" }));
    expect(empty.querySelector('[data-testid="objects-empty"]')?.textContent).toContain(
      "No Foo in this trace. Nothing in it is a line loopscope reads.",
    );
  });
});
