/** A log that several processes write to: another controller's pass ends are not ours. */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { TraceReader } from "./trace-reader.ts";
import type { TraceEvent } from "../event.ts";

const line = (pid: number, t: string, src: string, msg: string) =>
  `I1202 09:14:06.${t}   ${pid} ${src}] ${msg}`;

/** Our controller's first lines of example-foo: its add and enqueue (pid 48211). */
const FOO_ADDED = [
  line(
    48211,
    "031344",
    "controller.go:131",
    "STAGE/watch kind=Foo event=add key=default/example-foo rv=1001",
  ),
  line(48211, "031374", "controller.go:353", "STAGE/enqueue key=default/example-foo len=1"),
];

describe("lines of another process in the log", () => {
  const log = [
    ...FOO_ADDED,
    line(
      777,
      "031400",
      "controller.go:227",
      '"Successfully synced" objectName="kube-system/coredns"',
    ),
    line(48211, "031494", "controller.go:217", "STAGE/dequeue key=default/example-foo len=0"),
    line(
      48211,
      "045600",
      "controller.go:227",
      '"Successfully synced" objectName="default/example-foo"',
    ),
    // A restart: the new process's STAGE lines carry its pid, and its pass ends count again.
    line(50001, "100000", "controller.go:217", "STAGE/dequeue key=default/example-foo len=0"),
    line(
      50001,
      "100100",
      "controller.go:227",
      '"Successfully synced" objectName="default/example-foo"',
    ),
    "",
  ].join("\n");

  it("are not pass ends of this controller, read as text or as bytes", () => {
    const asText = readTraceText(log, { year: 2026 }).events;
    const asBytes: TraceEvent[] = [];
    const reader = new TraceReader({ year: 2026 });
    reader.push(new TextEncoder().encode(log), (e) => asBytes.push(e));
    reader.end((e) => asBytes.push(e));
    for (const events of [asText, asBytes]) {
      const done = events.filter((e) => e.stage === "done");
      expect(done.map((e) => e.key)).toEqual(["default/example-foo", "default/example-foo"]);
    }
  });
});

describe("lines of another process before the controller's first STAGE line", () => {
  // `kubectl logs --prefix` of two pods' containers, interleaved: ours starts (pid 48211), another
  // controller of Foos (pid 1) ends a pass of its own before ours logs its first STAGE line.
  const log = [
    line(48211, "000100", "controller.go:126", '"Setting up event handlers"'),
    line(48211, "000200", "controller.go:168", '"Starting Foo controller"'),
    line(
      1,
      "000300",
      "controller.go:222",
      '"Successfully synced" objectName="default/example-foo"',
    ),
    ...FOO_ADDED,
    line(48211, "031494", "controller.go:217", "STAGE/dequeue key=default/example-foo len=0"),
    line(
      48211,
      "045600",
      "controller.go:222",
      '"Successfully synced" objectName="default/example-foo"',
    ),
    "",
  ].join("\n");

  it("are not pass ends of this controller once its start line named its process", () => {
    const { events } = readTraceText(log, { year: 2026 });
    expect(events.filter((e) => e.stage === "done").map((e) => e.line)).toEqual([7]);
  });
});

describe("kubectl logs --prefix of two pods, each controller pid 1", () => {
  const POD_A = "[pod/sample-controller-6f7c9d-abcde/sample-controller] ";
  const POD_B = "[pod/sample-controller-6f7c9d-xyz12/sample-controller] ";
  const k = (t: string, src: string, msg: string) => line(1, t, src, msg);
  const ours = FOO_ADDED.map((l) => POD_A + l.replace("   48211 ", "   1 "));
  const synced = (t: string) =>
    k(t, "controller.go:227", '"Successfully synced" objectName="default/example-foo"');
  // `kubectl logs -f -l app=sample-controller --prefix`: the two replicas' lines as they come.
  // Pod B runs the controller unpatched: its pass ends only.
  const interleaved = [
    POD_A + k("000200", "controller.go:168", '"Starting Foo controller"'),
    POD_B + k("000250", "controller.go:168", '"Starting Foo controller"'),
    ...ours,
    POD_B + synced("031400"),
    POD_A + k("031494", "controller.go:217", "STAGE/dequeue key=default/example-foo len=0"),
    POD_B + synced("040000"),
    POD_A + synced("045600"),
    "",
  ].join("\n");

  it("reads the pods as two processes: the other pod's pass ends are not this controller's", () => {
    for (const log of [
      interleaved,
      interleaved.replace(/\] I1202/g, "] 2026-12-02T09:14:06Z I1202"),
    ]) {
      const { events } = readTraceText(log, { year: 2026 });
      expect(events.filter((e) => e.stage === "done").map((e) => e.line)).toEqual([8]);
    }
  });

  it("says, once, that a pass end of the other pod was not read, and why", () => {
    const { reader } = readTraceText(interleaved, { year: 2026 });
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([
      {
        line: 5,
        level: "warn",
        message:
          "default/example-foo's pass end by pod/sample-controller-6f7c9d-xyz12/sample-controller (pid 1) not read: pod/sample-controller-6f7c9d-abcde/sample-controller (pid 1) wrote the latest STAGE line (or started last). Controllers writing to one log at once have their STAGE lines read as one controller's: read each one's log alone (kubectl logs POD) (noted once)",
      },
    ]);
  });

  it("reads the pods one after the other (kubectl logs without -f) as a restart is read", () => {
    const podLog = (pod: string) =>
      [
        pod + k("000200", "controller.go:168", '"Starting Foo controller"'),
        ...FOO_ADDED.map((l) => pod + l.replace("   48211 ", "   1 ")),
        pod + k("031494", "controller.go:217", "STAGE/dequeue key=default/example-foo len=0"),
        pod + synced("045600"),
      ].join("\n");
    const { events, reader } = readTraceText(`${podLog(POD_A)}\n${podLog(POD_B)}\n`, {
      year: 2026,
    });
    expect(events.filter((e) => e.stage === "done").map((e) => e.line)).toEqual([5, 10]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  });
});
