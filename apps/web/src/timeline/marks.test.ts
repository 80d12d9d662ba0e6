import { describe, expect, it } from "vitest";
import { readTraceText } from "@loopscope/trace";
import { TraceStore } from "../store/traceStore.ts";
import { markStyle } from "./marks.ts";

describe("a watch mark's label", () => {
  it("names the event its line said, and none for a bare STAGE/watch line (it may be an update)", () => {
    const header = "I1202 09:14:06.031344   48211 controller.go:131] ";
    const { events } = readTraceText(
      `${header}STAGE/watch kind=Foo event=update key=default/a\n${header}STAGE/watch default/a\n`,
      { year: 2026 },
    );
    const store = new TraceStore();
    store.append(events);
    expect([0, 1].map((row) => markStyle(store, row).label)).toEqual(["Foo update", "Foo event"]);
  });
});
