/** What a reader says of an input that gave no trace, read whole (whyNotATrace). */
import { describe, expect, it } from "vitest";
import { TraceReader } from "./trace-reader.ts";
import { whyNotATrace } from "./not-a-trace.ts";
import { MAX_LINE } from "../lines/splitter.ts";

function why(chunks: (Uint8Array | string)[]): string | undefined {
  const reader = new TraceReader({ year: 2026 });
  for (const c of chunks) reader.push(c);
  reader.end();
  return whyNotATrace(reader, undefined);
}

const CHUNK = new Uint8Array(1 << 20).fill(0x61); // "aaa…", 1 MiB
const overLimit = (tail: string) => [
  ...Array.from({ length: (MAX_LINE >> 20) + 1 }, () => CHUNK),
  tail,
];

describe("an input with no trace in it", () => {
  it("of one line over the limit says so, not that it is empty", () => {
    expect(why(overLimit(""))).toBe("holds no trace: line 1 is over the 64 MiB limit");
    expect(why(["\n\n", ...overLimit("\n")])).toBe(
      "holds no trace: line 3 is over the 64 MiB limit",
    );
  });

  it("of NUL bytes and nothing a trace line is binary; a log with NULs in it is not", () => {
    expect(why([new Uint8Array(10_000)])).toBe("is not a text file (binary data)");
    expect(why([Uint8Array.from([1, 2, 0, 3, 10, 0, 0, 10, 200, 0])])).toBe(
      "is not a text file (binary data)",
    );
    // client-go's klog lines, and NULs: a text log, with nothing of the controller's in it.
    expect(why(["\0\0\0I1202 09:00:00.000000    1 reflector.go:1] Listing\n"])).toBe(
      "has no STAGE events (not a loopscope JSONL trace or a klog log of the controller)",
    );
    expect(why(["\0\0\0I1202 09:00:00.000000    1 c.go:1] STAGE/dequeue key=a/b\n"])).toBe(
      undefined,
    );
  });

  it("that is empty or blank says so", () => {
    expect(why([])).toBe("is empty");
    expect(why(["\n  \n"])).toBe("is empty");
  });
});
