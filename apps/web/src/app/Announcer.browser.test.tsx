/**
 * A screen reader hears, politely and in a few words, what the keyboard selected and a trace
 * opened — and the connection badge's changes — never each live event.
 */
import { useRef } from "react";
import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { TraceReader } from "@loopscope/trace";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { Announcer } from "./Announcer.tsx";
import { connectionBadge } from "./connectionBadge.ts";
import { ConnectionStatus } from "./StatusParts.tsx";
import { useKeyboard } from "./useKeyboard.ts";

const KEY = "default/example-foo";

function Page({ session, view }: { session: TraceSession; view: ViewStore }) {
  const search = useRef<HTMLInputElement>(null);
  useKeyboard(session, view, search, () => {});
  return <Announcer session={session} view={view} />;
}

const said = () => document.querySelector('[role="status"][data-testid="announcer"]')?.textContent;

describe("announcements", () => {
  it("the pass or event ] and → select, in the words of the Details heading", async () => {
    const view = new ViewStore({ selectedKeys: [KEY] });
    await render(<Page session={sessionFromText(canonical)} view={view} />);
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard("]");
    await expect.poll(said).toMatch(/^Pass default\/example-foo #1 /);
    await userEvent.keyboard("{ArrowRight}");
    await expect.poll(said).toMatch(/^[a-z]+ · seq \d+$/);
  });

  it("the connection badge is a status region: its change is heard", async () => {
    const open = { status: "open" as const, reconnects: 0 };
    const down = { status: "reconnecting" as const, reconnects: 0, serverAnswers: false };
    const screen = await render(<ConnectionStatus conn={open} badge={connectionBadge(open)} />);
    const badge = screen.getByRole("status");
    await expect.element(badge).toHaveTextContent("connected");
    await screen.rerender(<ConnectionStatus conn={down} badge={connectionBadge(down)} />);
    await expect.element(badge).toHaveTextContent("server not answering · retrying");
  });

  // Last: a test after one that unmounts finds no element (vitest-browser-react's cleanup).
  it("a trace opened, once read; live events that come after, never", async () => {
    // As the replay worker feeds a file's session: progress, events, then done.
    const file = new TraceSession({ kind: "replay", name: "traces/create.log" });
    file.setProgress({ bytes: 0, total: canonical.length, done: false });
    const first = await render(<Announcer session={file} view={new ViewStore()} />);
    const events = new TraceReader().push(canonical);
    file.push(events);
    await expect.poll(() => file.getVersion()).toBeGreaterThan(1);
    expect(said()).toBe("");
    file.setProgress({ bytes: canonical.length, total: canonical.length, done: true });
    await expect.poll(said).toBe(`Opened create.log: ${events.length} events`);
    first.unmount();

    const live = new TraceSession({ kind: "live", name: "live" });
    const screen = await render(<Announcer session={live} view={new ViewStore()} />);
    live.push(new TraceReader().push(canonical));
    await expect.poll(() => live.store.length).toBeGreaterThan(0);
    expect(screen.getByTestId("announcer").element().textContent).toBe("");
  });
});
