/** What a reader says of an input that gave no trace, read whole (whyNotATrace). */
import { describe, expect, it } from "vitest";
import { TraceReader } from "./trace-reader.ts";
import { exportHead, whyNotATrace } from "./not-a-trace.ts";
import { MAX_LINE } from "../lines/splitter.ts";
import { ChromeTraceWriter } from "../export/chrome-writer.ts";
import { OtlpTraceWriter } from "../export/otlp-writer.ts";
import { ExportPipeline } from "../export/export-pipeline.ts";
import { analyze, fixture } from "../testing/fixtures.ts";

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

  it("that is a structured logger's JSON log names it, and what to run instead", () => {
    const componentBase =
      '{"ts":1764666845.4121,"caller":"controller.go:284","msg":"STAGE/write verb=create target=deployments/default/example-foo","v":0}\n';
    const zap =
      '{"level":"info","ts":"2026-12-02T09:14:05Z","logger":"controller","msg":"Reconciling"}\n';
    for (const text of [componentBase, zap]) {
      const reader = new TraceReader({ year: 2026 });
      reader.push(text);
      reader.end();
      expect(whyNotATrace(reader, exportHead(new TextEncoder().encode(text)))).toBe(
        "is a JSON log (--logging-format=json, or zap's): loopscope reads klog's text lines — run the controller with text logging (klog's default) and read that log",
      );
    }
    // Our own JSONL is no such log.
    expect(
      exportHead(new TextEncoder().encode('{"seq":1,"ts":1,"key":"a/b","stage":"read"}\n')),
    ).toBe(undefined);
  });

  it("that is empty or blank says so", () => {
    expect(why([])).toBe("is empty");
    expect(why(["\n  \n"])).toBe("is empty");
  });
});

describe("one of loopscope convert's exports", () => {
  // As go-controller.md does it: the Go controller's log, converted for Perfetto and Jaeger.
  const { events } = analyze(fixture("stage/create-canonical.log"));
  const exported = (to: "chrome" | "otlp", source: string) => {
    const chunks: string[] = [];
    const push = (c: string) => chunks.push(c);
    const writer =
      to === "chrome"
        ? new ChromeTraceWriter(push, { source })
        : new OtlpTraceWriter(push, { source });
    const pipe = new ExportPipeline(writer);
    for (const e of events) pipe.push(e);
    pipe.end();
    const bytes = new TextEncoder().encode(chunks.join(""));
    const reader = new TraceReader({ year: 2026 });
    reader.push(bytes);
    reader.end();
    return whyNotATrace(reader, exportHead(bytes));
  };

  it("names the file it was made from — a log as often as a JSONL trace — and, for Chrome's, how to read it back", () => {
    expect(exported("chrome", "/tmp/trace.log")).toBe(
      "is a Chrome trace export that loopscope convert made from /tmp/trace.log: open that file, or make a trace of this one with loopscope convert FILE --to jsonl",
    );
    expect(exported("otlp", "/tmp/trace.log")).toBe(
      "is an OTLP/JSON export that loopscope convert made from /tmp/trace.log: open that file",
    );
    // Converted from stdin: no file to name.
    expect(exported("chrome", "-")).toBe(
      "is a Chrome trace export (loopscope convert's output): open the file it was made from, or make a trace of this one with loopscope convert FILE --to jsonl",
    );
  });
});
