import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import { buildExcerpt, readTraceText } from "@loopscope/trace";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "../ui/styles.css";
import { renderExcerpt } from "../store/excerptPort.ts";
import type { TraceSession } from "../store/session.ts";
import { ExcerptPanel } from "./ExcerptPanel.tsx";

const KEY = "default/example-foo";

/** The panel over the fixture's excerpt, its log lines still being read (`pending`) or read. */
async function panel(pending: boolean) {
  const x = {
    ...renderExcerpt(buildExcerpt(readTraceText(canonical).events, { key: KEY })!),
    pending,
  };
  const session = { excerpt: () => x } as unknown as TraceSession;
  return render(<ExcerptPanel session={session} keyName={KEY} />);
}

describe("excerpt panel", () => {
  it("greys the lines it rebuilt from their fields while the file's own are read, and says so", async () => {
    const busy = await panel(true);
    const pre = busy.getByTestId("excerpt").element();
    const muted = getComputedStyle(pre).color;
    expect(busy.getByTestId("excerpt-pending").element().textContent).toContain(
      "each line is rebuilt from its fields",
    );
    await busy.unmount();
    const read = await panel(false);
    expect(getComputedStyle(read.getByTestId("excerpt").element()).color).not.toBe(muted);
    expect(read.container.querySelector("[data-testid=excerpt-pending]")).toBeNull();
  });
});
