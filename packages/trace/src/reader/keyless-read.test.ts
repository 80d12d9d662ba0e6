/**
 * The exercise's STAGE/read line prints only the object's resourceVersion: the reader takes such
 * a line (or a write naming no key) for the pass open at the time when one is — a dequeue, its
 * pass end not yet read — and says once that it did. With two passes open (two workers at once)
 * whose it is cannot be told: the line is an error that says so. A write whose key would be its
 * target's namesake is the open pass's Foo too. Read as text and as bytes.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { TraceReader } from "./trace-reader.ts";

const HEADER = "I1202 09:46:50.999999   12345 controller.go:200] ";

function readBothWays(lines: string[]) {
  const text = lines.map((l) => HEADER + l + "\n").join("");
  const asText = readTraceText(text, { year: 2026 });
  const reader = new TraceReader({ year: 2026 });
  const events = reader.push(new TextEncoder().encode(text));
  events.push(...reader.end());
  return [asText, { events, reader }].map((r) => ({
    reads: r.events.filter((e) => e.stage === "read").map((e) => [e.key, e.line]),
    writes: r.events.filter((e) => e.stage === "write").map((e) => [e.key, e.line]),
    problems: r.reader.diagnostics.filter((d) => d.level !== "info"),
  }));
}

const synced = (key: string) => `"Successfully synced" objectName="${key}"`;

describe("a STAGE/read line without a key", () => {
  it("is the open pass's, pass after pass, said once", () => {
    for (const read of readBothWays([
      "STAGE/dequeue default/a 0",
      "STAGE/read 1001",
      synced("default/a"),
      "STAGE/dequeue default/b 0",
      "STAGE/read 1002",
      synced("default/b"),
    ])) {
      expect(read.reads).toEqual([
        ["default/a", 2],
        ["default/b", 5],
      ]);
      expect(read.problems).toEqual([
        {
          line: 2,
          level: "warn",
          message:
            "STAGE/read without a key: read as the key of the one pass open, default/a (said once)",
        },
      ]);
    }
  });

  it("is an error while two passes are open, and read again once one has ended", () => {
    for (const read of readBothWays([
      "STAGE/dequeue default/a 1",
      "STAGE/dequeue default/b 0",
      "STAGE/read 1001",
      synced("default/a"),
      "STAGE/read 1002",
    ])) {
      expect(read.reads).toEqual([["default/b", 5]]);
      expect(read.problems[0]).toEqual({
        line: 3,
        level: "error",
        message:
          "STAGE/read without a key (key=ns/name): 2 passes were open, whose it is cannot be told",
      });
    }
  });

  it("is an error with no pass open", () => {
    for (const read of readBothWays(["STAGE/read 1001"])) {
      expect(read.reads).toEqual([]);
      expect(read.problems).toEqual([
        { line: 1, level: "error", message: "STAGE/read without a key (key=ns/name)" },
      ]);
    }
  });
});

describe("a STAGE/write line whose key is its target's namesake", () => {
  it("is the open pass's Foo when that is another (a Deployment named by spec.deploymentName)", () => {
    for (const read of readBothWays([
      "STAGE/dequeue key=default/example-foo len=0",
      "STAGE/write verb=create target=deployments/default/web rv=1002",
      "STAGE/write verb=updateStatus target=foos/default/example-foo/status rv=1003",
      // A Foo target names its Foo, pass or no pass.
      "STAGE/write verb=updateStatus target=foos/default/other/status rv=1004",
      synced("default/example-foo"),
      "STAGE/write verb=create target=deployments/default/web rv=1005",
    ])) {
      expect(read.writes).toEqual([
        ["default/example-foo", 2],
        ["default/example-foo", 3],
        ["default/other", 4],
        // No pass open: the namesake, as before.
        ["default/web", 6],
      ]);
    }
  });
});
