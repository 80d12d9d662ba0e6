/**
 * A watch add from the informer's initial list (`initial: true`) is a field of the model on every
 * path: a JSONL record and a klog STAGE line read back with it, and the page's row paths (its fast
 * readers and the general one) keep it in the row a replay decodes.
 */
import { describe, expect, it } from "vitest";
import type { TraceEvent, WatchEvent } from "../event.ts";
import { encodeEvent, encodeHeader } from "../jsonl/format.ts";
import { canonicalText } from "../excerpt/stage-text.ts";
import { RowDecoder } from "../rows/row-decoder.ts";
import { expectSame } from "../testing/reader-paths.ts";
import { readTraceText } from "./read-trace.ts";

const listed: WatchEvent = {
  seq: 1,
  ts: 1_764_666_846_031_344,
  key: "default/before",
  stage: "watch",
  kind: "Foo",
  event: "add",
  name: "before",
  ns: "default",
  rv: "1001",
  initial: true,
};
const added: WatchEvent = {
  seq: 2,
  ts: 1_764_666_846_031_400,
  key: "default/after",
  stage: "watch",
  kind: "Foo",
  event: "add",
  name: "after",
  ns: "default",
  rv: "1002",
};
const klogLine = (e: TraceEvent) =>
  `I1202 09:14:06.031344   48211 controller.go:131] ${canonicalText(e)}`;
const utf8 = new TextEncoder();
const jsonl =
  encodeHeader({ created: "2026-12-02T09:14:06Z", source: "live" }) +
  encodeEvent(listed) +
  encodeEvent(added);
const initialOf = (events: TraceEvent[]) =>
  events.map((e) => (e.stage === "watch" ? e.initial : "not a watch"));

describe("initial: a watch add from the informer's initial list", () => {
  it("is a field of a JSONL record, read back as it was written", () => {
    const { events, reader } = readTraceText(jsonl);
    expect(reader.diagnostics).toEqual([]);
    expect(events).toEqual([listed, added]);
    expect(events[0]).not.toHaveProperty("extra");
  });

  it("is said on the STAGE line (initial=true), and read back from it", () => {
    expect(canonicalText(listed)).toBe(
      "STAGE/watch kind=Foo event=add key=default/before ns=default name=before rv=1001 initial=true",
    );
    expect(canonicalText(added)).not.toContain("initial");
    const { events, reader } = readTraceText([klogLine(listed), klogLine(added)].join("\n") + "\n");
    expect(reader.format).toBe("klog");
    expect(initialOf(events)).toEqual([true, undefined]);
    expect(events[0]).not.toHaveProperty("extra");
    expect(canonicalText(events[0])).toBe(canonicalText(listed));
    // client-go's own name for it reads too, as a learner's InfoS line may spell it.
    const spelled = readTraceText(
      `I1202 09:14:06.031344   48211 controller.go:131] "STAGE/watch" kind="Foo" event="add" key="default/before" isInInitialList=true\n`,
    );
    expect(initialOf(spelled.events)).toEqual([true]);
  });

  it("stays in the rows a replay decodes, from JSONL and from klog, on both row paths", () => {
    for (const text of [jsonl, [klogLine(listed), klogLine(added)].join("\n") + "\n"]) {
      const read = expectSame(utf8.encode(text));
      expect(initialOf(new RowDecoder().decode(read.batch))).toEqual([true, undefined]);
    }
  });
});
