/** The real sample-controller log excerpts (fixtures/klog/SOURCES.md) read without surprises. */
import { describe, expect, it } from "vitest";
import { analyze, fixture } from "../testing/fixtures.ts";
import { expectSame } from "../testing/reader-paths.ts";

describe("real sample-controller logs", () => {
  it("f1 (2019, -v=4): reflector lines are noise, controller lines are notes, no keys", () => {
    const { events, reader, analyzer } = analyze(fixture("klog/f1.log"));
    expect(reader.format).toBe("klog");
    expect(reader.lines).toBe(10);
    expect(reader.noiseLines).toBe(5);
    expect(events.map((e) => e.stage)).toEqual(["note", "note", "note", "note", "note"]);
    expect(events.map((e) => (e.stage === "note" ? e.text : ""))).toContain(
      "Processing object: coredns",
    );
    expect(analyzer.keys()).toEqual([]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  });

  it("f1: out-of-order timestamps keep the file's order", () => {
    const { events } = analyze(fixture("klog/f1.log"), { keepNoise: true });
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const ts = events.map((e) => e.ts);
    expect(ts.some((t, i) => i > 0 && t < ts[i - 1])).toBe(true);
  });

  it("f2 (2020): only reflector errors — nothing per key, nothing wrong", () => {
    const { events, reader, analyzer } = analyze(fixture("klog/f2.log"));
    expect(events).toHaveLength(3);
    expect(reader.noiseLines).toBe(2);
    expect(analyzer.keys()).toEqual([]);
  });

  it.each(["f3.log", "f4.log"])(
    "%s (pre-v0.27 error line): one requeued pass for default/example-foo",
    (f) => {
      const { events, analyzer } = analyze(fixture(`klog/${f}`));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        stage: "done",
        key: "default/example-foo",
        outcome: "requeued",
      });
      expect(analyzer.keys()).toEqual(["default/example-foo"]);
      const [p] = analyzer.passes("default/example-foo");
      expect(p).toMatchObject({ outcome: "requeued", fromMarkers: true });
      expect(analyzer.findings()).toEqual([
        expect.objectContaining({ kind: "retry", key: "default/example-foo" }),
      ]);
    },
  );

  it("f3 keeps the error text", () => {
    const { events } = analyze(fixture("klog/f3.log"));
    expect(events[0]).toMatchObject({
      error: 'foos.samplecontroller.k8s.io "example-foo" not found',
    });
  });
});

describe("klog time", () => {
  it("says which year it assumed, and takes it from an RFC 3339 prefix when there is one", () => {
    const now = () => new Date("2031-06-01T00:00:00Z");
    const plain = analyze("I0102 03:04:05.000006   1 c.go:1] STAGE/enqueue key=a/b\n", {
      year: undefined,
      now,
    });
    expect(plain.reader.diagnostics[0]).toMatchObject({
      line: 1,
      level: "info",
      message: expect.stringContaining("2031"),
    });
    expect(plain.events[0].ts).toBe(Date.UTC(2031, 0, 2, 3, 4, 5) * 1000 + 6);
    const prefixed = analyze(
      "2024-01-02T03:04:05.000006Z I0102 03:04:05.000006   1 c.go:1] STAGE/enqueue key=a/b\n",
      { year: undefined, now },
    );
    expect(prefixed.events[0].ts).toBe(Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 6);
  });

  it("moves to the next year when December turns into January", () => {
    const { events } = analyze(
      "I1231 23:59:59.000000   1 c.go:1] STAGE/enqueue key=a/b\nI0101 00:00:01.000000   1 c.go:1] STAGE/enqueue key=a/b\n",
      { year: 2026 },
    );
    expect(events[1].ts - events[0].ts).toBe(2_000_000);
  });

  const at = (date: string, time: string) => `I${date} ${time}   1 c.go:1] STAGE/enqueue key=a/b`;
  const times = (text: string, year: number) => {
    expectSame(new TextEncoder().encode(text), [40, 100]);
    const { events, reader } = analyze(text, { year });
    return {
      times: events.map((e) => new Date(e.ts / 1000).toISOString()),
      said: reader.diagnostics.filter((d) => d.level !== "info"),
    };
  };

  it("keeps a line of Dec 31 written a few ms after one of Jan 1 in the old year", () => {
    const lines = [
      at("1231", "23:59:59.990000"),
      at("0101", "00:00:00.001000"),
      at("1231", "23:59:59.999000"), // goroutines out of order: 2 ms back, not a year on
      at("0101", "00:00:00.010000"),
    ];
    expect(times(lines.join("\n") + "\n", 2025)).toEqual({
      times: [
        "2025-12-31T23:59:59.990Z",
        "2026-01-01T00:00:00.001Z",
        "2025-12-31T23:59:59.999Z",
        "2026-01-01T00:00:00.010Z",
      ],
      said: [],
    });
  });

  it("reads a clock set back across New Year as time going back, and says so", () => {
    const lines = [at("0101", "00:00:05.000000"), at("1231", "23:59:50.000000")];
    const { times: t, said } = times(lines.join("\n") + "\n", 2026);
    expect(t).toEqual(["2026-01-01T00:00:05.000Z", "2025-12-31T23:59:50.000Z"]);
    expect(said).toEqual([
      expect.objectContaining({
        line: 2,
        message: expect.stringContaining("time goes back 15.0 s"),
      }),
    ]);
  });

  it("says a date no year has, times its line by the line before, and moves no year", () => {
    const lines = [
      at("1202", "10:00:00.100000"),
      at("0230", "10:00:00.250000"), // Feb 30
      at("1202", "10:00:00.300000"),
      at("0229", "10:00:00.400000"), // Feb 29: of 2028, not of 2026
    ];
    expect(times(lines.join("\n") + "\n", 2027)).toEqual({
      times: [
        "2027-12-02T10:00:00.100Z",
        "2027-12-02T10:00:00.100Z",
        "2027-12-02T10:00:00.300Z",
        "2028-02-29T10:00:00.400Z",
      ],
      said: [
        {
          line: 2,
          level: "warn",
          message:
            "the klog header's date 0230 (month 2, day 30) is no day of 2028: its time is taken from the line before",
        },
      ],
    });
    const leap = times(lines.slice(0, 1).concat(lines.slice(3)).join("\n") + "\n", 2025);
    expect(leap.times).toEqual(["2025-12-02T10:00:00.100Z", "2025-12-02T10:00:00.100Z"]);
    expect(leap.said.map((d) => d.message)).toEqual([
      expect.stringContaining("0229 (month 2, day 29) is no day of 2026"),
    ]);
  });

  it("reads a STAGE line without a header, timed by the line before, and says so once", () => {
    const { events, reader } = analyze(
      "I0102 03:04:05.000000   1 c.go:1] STAGE/enqueue key=a/b\nSTAGE/dequeue key=a/b\nSTAGE/read key=a/b\n",
    );
    expect(events.map((e) => e.ts)).toEqual([events[0].ts, events[0].ts, events[0].ts]);
    expect(reader.diagnostics.filter((d) => d.level === "warn")).toEqual([
      expect.objectContaining({ line: 2 }),
    ]);
  });
});

describe("a key dropped out of the queue", () => {
  it("ends its pass dropped, not requeued, with the error: no retry is owed", () => {
    // loopscope's Foo controller's line for a pass that failed while its queue shut down.
    const { events, analyzer } = analyze(
      `I0724 21:16:01.010000 1029769 controller.go:206] STAGE/dequeue key=default/x len=0 worker=1\n` +
        String.raw`E0724 21:16:01.020000 1029769 controller.go:228] "Dropping Foo out of the queue: the work queue is shutting down" err="Operation cannot be fulfilled on foos.samplecontroller.k8s.io \"x\": the object has been modified; please apply your changes to the latest version and try again" logger="UnhandledError" objectReference="default/x"` +
        "\n",
    );
    expect(events.at(-1)).toMatchObject({
      stage: "done",
      key: "default/x",
      outcome: "dropped",
      error: expect.stringMatching(/^Operation cannot be fulfilled on .*"x": the object/),
    });
    expect(analyzer.passes("default/x")).toEqual([expect.objectContaining({ outcome: "dropped" })]);
    expect(analyzer.findings().map((f) => f.kind)).not.toContain("retry");
  });

  it("is a note when its message only mentions such a line, or names no key", () => {
    const { events } = analyze(
      `I0724 21:16:01.010000 1029769 x.go:1] "saw: Dropping Foo out of the queue" objectReference="default/x"\n` +
        `E0724 21:16:01.020000 1029769 x.go:2] "Dropping Foo out of the queue" err="boom"\n`,
    );
    expect(events.map((e) => e.stage)).toEqual(["note", "note"]);
  });
});

describe("controller lines that are not stages", () => {
  it("become notes with the message unquoted and the key they name", () => {
    const { events, analyzer } = analyze(
      String.raw`E0724 21:16:01.020000 1029769 controller.go:250] "Foo referenced by item in work queue no longer exists" err="foo.samplecontroller.k8s.io \"x\" not found" logger="UnhandledError" objectReference="default/x"` +
        "\n" +
        `I0724 21:14:04.525557 1029769 controller.go:168] "Starting Foo controller"\n`,
    );
    expect(
      events.map((e) => (e.stage === "note" ? [e.key, e.level, e.text.slice(0, 24)] : [])),
    ).toEqual([
      ["default/x", "E", "Foo referenced by item i"],
      ["", "I", "Starting Foo controller"],
    ]);
    // Notes never make a key, but a vanished Foo is a finding.
    expect(analyzer.keys()).toEqual([]);
    expect(analyzer.findings()).toEqual([
      expect.objectContaining({ kind: "not-found", key: "default/x" }),
    ]);
  });
});
