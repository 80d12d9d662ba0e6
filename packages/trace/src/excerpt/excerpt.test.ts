import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { analyze, fixture } from "../testing/fixtures.ts";
import { readTraceText } from "../reader/read-trace.ts";
import { HOT_KEY, hotLoopTrace } from "../testing/hot-loop.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import { narrate } from "../narration/narrate.ts";
import {
  buildExcerpt,
  excerpt,
  excerptLineColumn,
  renderExcerptMarkdown,
  renderExcerptText,
  withWholeTrace,
} from "./excerpt.ts";

describe("annotated excerpt", () => {
  const { events } = analyze(fixture("stage/create-canonical.log"));

  it("follows the first Foo created, from its creation to the pass after which it stayed quiet", () => {
    const x = buildExcerpt(events)!;
    expect(x.key).toBe("default/example-foo");
    expect(x.quiescent).toBe(true);
    expect(x.reconciles).toBe(6);
    expect(x.counts).toEqual({ watch: 8, enqueue: 8, dequeue: 6, read: 6, write: 7, done: 6 });
    const passes = x.rows.filter((r) => r.kind === "pass");
    expect(passes.map((r) => (r.kind === "pass" ? r.pass.cause : ""))).toEqual([
      "external",
      "self",
      "external",
      "external",
      "external",
      "self",
    ]);
    // client-go's noise (its reflector, and event.go's Normal Events: Synced after each pass)
    // and the later resync are left out.
    expect(x.rows.every((r) => r.kind === "pass" || !r.event.raw?.includes("event.go"))).toBe(true);
  });

  it("begins at the life the Analyzer begins: a bare watch line that is an echo is no new Foo", () => {
    // A learner's STAGE/watch in enqueueFoo prints on update too, and says no event: the reader
    // assumes add. The Analyzer takes the status write's echo for an update (one life); the
    // excerpt began at the last "add" and showed one pass of the five.
    const at = (s: number, msg: string) =>
      `I1202 09:14:${s.toFixed(6).padStart(9, "0")}   48211 controller.go:131] ${msg}`;
    const pass = (s: number, write: string) => [
      at(s, "STAGE/dequeue default/example-foo 0"),
      at(s + 0.001, `STAGE/write ${write}`),
      at(s + 0.002, '"Successfully synced" objectName="default/example-foo"'),
    ];
    const { events } = analyze(
      [
        at(6, "STAGE/watch default/example-foo"),
        at(6.0001, "STAGE/enqueue default/example-foo"),
        ...pass(6.001, "update foos/status example-foo"),
        at(6.005, "STAGE/watch default/example-foo"),
        at(6.0051, "STAGE/enqueue default/example-foo"),
        ...pass(6.006, "update foos/status example-foo"),
      ].join("\n") + "\n",
    );
    const x = buildExcerpt(events)!;
    expect(x.passes).toBe(2);
    expect(x.counts.watch).toBe(2);
  });

  it("says whose echo an add with no watch line is (the exercise logs the Foo handler only)", () => {
    const x = buildExcerpt(analyze(fixture("stage/create-learner.log")).events)!;
    const notes = x.rows.flatMap((r) =>
      r.kind === "event" && r.event.stage === "enqueue" ? [r.note] : [],
    );
    expect(notes.slice(0, 3)).toEqual([
      "→ pass 1: external (inferred)",
      "→ pass 2: self (inferred), echo of the create at +0.009s",
      "→ pass 3: self (inferred), echo of the updateStatus at +0.017s",
    ]);
  });

  it("says what a pass counts as where its trigger is of another cause, and how a retry was inferred", () => {
    // An echo queued while the pass ran; the pass then failed (409): the next pass is a retry.
    const at = (s: number, msg: string) =>
      `I1202 09:14:${s.toFixed(6).padStart(9, "0")}   48211 controller.go:131] ${msg}`;
    const { events } = analyze(
      [
        at(6, "STAGE/watch default/example-foo"),
        at(6.0001, "STAGE/enqueue default/example-foo"),
        at(6.001, "STAGE/dequeue default/example-foo 0"),
        at(6.002, "STAGE/read 2001"),
        // Someone's change comes in as the pass writes from what it read: the write is refused.
        at(6.0025, "STAGE/enqueue default/example-foo"),
        at(6.003, "STAGE/write update foos/status example-foo"),
        at(
          6.004,
          '"Error syncing; requeuing for later retry" err="Operation cannot be fulfilled on foos.samplecontroller.k8s.io \\"example-foo\\": the object has been modified; please apply your changes to the latest version and try again" objectReference="default/example-foo"',
        ),
        at(6.005, "STAGE/dequeue default/example-foo 0"),
        at(6.006, "STAGE/read 2002"),
        at(6.007, '"Successfully synced" objectName="default/example-foo"'),
      ].join("\n") + "\n",
    );
    const x = buildExcerpt(events)!;
    const header = x.rows.filter((r) => r.kind === "pass").map((r) => r.text);
    expect(header[1]).toBe(
      "pass 2 · retry — requeued after an error (inferred: the pass before it failed and was requeued)",
    );
    const notes = x.rows.flatMap((r) =>
      r.kind === "event" && r.event.stage === "enqueue" ? [r.note] : [],
    );
    expect(notes[1]).toBe("→ pass 2: unknown; pass 2 counts as retry");
    // The write its line said no answer for is the one the pass's error says was refused: no
    // no-op, in the excerpt, the counts and the narration.
    const write = x.rows.find((r) => r.kind === "event" && r.event.stage === "write");
    expect(write?.kind === "event" && write.note).toBe(
      "failed 409 Conflict, as the pass's error says",
    );
    const a = new Analyzer();
    a.pushAll(events);
    expect(a.summary("default/example-foo")).toMatchObject({ noopWrites: 0, conflicts: 1 });
    const said = narrate(events).find(
      (n) => n.seq === (write?.kind === "event" && write.event.seq),
    );
    expect(said?.text).toMatch(/^The API refused .* with 409 Conflict/);
  });

  it("gives a line a few µs before the first, out of time order as goroutines write, +0.000s", () => {
    const text = fixture("stage/create-canonical.log").replace(
      "09:14:06.031374   48211 controller.go:338] STAGE/enqueue",
      "09:14:06.031340   48211 controller.go:338] STAGE/enqueue",
    );
    const lines = renderExcerptText(buildExcerpt(analyze(text).events)!).split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(/^enqueue\s+\+0\.000s\s+controller\.go:338/),
    );
    expect(lines.join("\n")).not.toContain("−0.000s");
  });

  it("says where each event row's log line starts, for a view that wraps long rows", () => {
    const x = buildExcerpt(events)!;
    const col = excerptLineColumn(x);
    const lines = renderExcerptText(x).split("\n");
    const rows = x.rows.filter((r) => r.kind === "event");
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      const line = lines.find((l) =>
        l.includes(r.event.raw!.slice(r.event.raw!.indexOf("] ") + 2)),
      )!;
      expect(line.slice(col - 2, col)).toBe("  ");
      expect(line.slice(0, col).trim()).toContain(r.event.src!);
      expect(line[col]).not.toBe(" ");
    }
  });

  it("goes on with a multi-line message under its first line, in the line's column", () => {
    const trace = readFileSync(
      new URL("../../../../public/traces/hot-loop.jsonl", import.meta.url),
      "utf8",
    ).replace(/"text":"scenario: hot loop detected[^"]*"/, '"text":"first | line\\nsecond line"');
    const x = buildExcerpt(readTraceText(trace).events)!;
    const col = excerptLineColumn(x);
    const lines = renderExcerptText(x).split("\n");
    const at = lines.findIndex((l) => l.endsWith("first | line"));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(`${" ".repeat(col)}second line`);
  });

  it("prints the stage in a left margin with file:line beside it", () => {
    const text = renderExcerptText(buildExcerpt(events)!);
    const lines = text.split("\n");
    expect(lines[0]).toBe("default/example-foo: from creation to quiescent");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^watch\s+\+0\.000s\s+controller\.go:131\s+STAGE\/watch kind=Foo event=add/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^──── pass 2 · self — echoes of this controller's own writes ────$/),
    );
    // The echoed write is named as the excerpt shows it, by verb and time (no seq or line number
    // in the excerpt to look one up by).
    expect(text).toContain("‹self, echo of the create at +0.009s›");
    expect(lines).toContainEqual(expect.stringMatching(/^write\s+\+0\.009s .*verb=create/));
    expect(text).toContain(
      "Tags: watch 8 · enqueue 8 · dequeue 6 · read 6 · write 7 · pass ends 6",
    );
    expect(text).toContain("Reconcile count for one create: 6 passes");
  });

  it("renders Markdown and says when a key never settles", () => {
    const hot = analyze(fixture("stage/hot-loop.log")).events;
    const md = excerpt(hot, { format: "md" })!;
    expect(md).toContain("| stage | time | file:line | line | note |");
    expect(md).toContain("not quiescent in this trace");
    expect(md).toContain("changed status.lastSyncTime");
    expect(excerpt(hot, { key: "nope/none" })).toBeUndefined();
  });

  it("fences a key's and a line's backticks in Markdown so they stay code", () => {
    const key = "default/a`b";
    const md = excerpt(
      [
        { seq: 1, ts: 1, key, stage: "enqueue", len: 1 },
        { seq: 2, ts: 2, key, stage: "dequeue", len: 0 },
        { seq: 3, ts: 3, key, stage: "note", text: "saw ``x`` | y" },
      ],
      { format: "md" },
    )!;
    // One backtick inside: a fence of two, padded (CommonMark strips one space each side).
    expect(md.split("\n")[0]).toMatch(/^### `` default\/a`b `` — /);
    // A run of two inside: a fence of three; in a table cell the pipe is escaped.
    expect(md).toContain("| ``` saw ``x`` \\| y ``` |");
  });

  it("keeps a Markdown table row on one line when a note spans lines", () => {
    const key = "default/a";
    const md = excerpt(
      [
        { seq: 1, ts: 1, key, stage: "enqueue", len: 1 },
        { seq: 2, ts: 2, key, stage: "dequeue", len: 0 },
        { seq: 3, ts: 3, key, stage: "note", text: "first\nsecond" },
      ],
      { format: "md" },
    )!;
    const rows = md.split("\n").filter((l) => l.startsWith("|"));
    expect(rows.every((r) => r.trimEnd().endsWith("|"))).toBe(true);
    expect(md).toContain("first ↵ second");
  });

  it("claims no creation for a log without watch lines, and says whether it ended quiescent", () => {
    const markers = analyze(fixture("stage/markers-only.log")).events;
    const x = buildExcerpt(markers)!;
    expect(x.created).toBe(false);
    const text = renderExcerptText(x);
    expect(text.split("\n")[0]).toContain("every pass in this trace (no watch lines");
    expect(text).not.toContain("from creation");
    expect(text).toContain("No creation in this trace:");
  });

  it("says when it stopped at its row cap, and how many passes of its span it shows", () => {
    const hot = analyze(fixture("stage/hot-loop.log")).events;
    const x = buildExcerpt(hot, { maxRows: 12 })!;
    expect(x.cut?.rows).toBe(12);
    expect(x.cut!.passesInSpan).toBeGreaterThan(x.passes);
    expect(renderExcerptText(x)).toContain(
      `Cut at its first 12 log lines: ${x.passes} of the ${x.cut!.passesInSpan} passes in its span shown.`,
    );
    expect(buildExcerpt(hot)!.cut).toBeUndefined();
  });

  it("names a JSONL trace's echoed writes as a klog's, by what the excerpt shows", () => {
    const text = readFileSync(
      new URL("../../../../public/traces/create-foo.jsonl", import.meta.url),
      "utf8",
    );
    const rendered = renderExcerptText(buildExcerpt(readTraceText(text).events)!);
    expect(rendered).toMatch(/‹self, echo of the create at \+\d\.\d{3}s›/);
    expect(rendered).not.toMatch(/seq \d|on line \d/);
  });

  it("names a hot loop in its closing line, with the Analyzer's finding", () => {
    const hot = analyze(fixture("stage/hot-loop.log")).events;
    const text = renderExcerptText(buildExcerpt(hot)!);
    expect(text).toMatch(
      /\nHot loop: \d+ consecutive passes triggered by its own writes, changing status\.lastSyncTime every time\. Not quiescent in this trace/,
    );
    expect(renderExcerptText(buildExcerpt(events)!)).not.toContain("Hot loop");
  });

  it("has nothing to say yet about a key with only notes (a scenario's first line, live)", () => {
    const note = {
      seq: 1,
      ts: 1,
      stage: "note" as const,
      key: "default/example-foo",
      src: "scenario",
      text: "scenario: hot loop",
    };
    expect(buildExcerpt([note], { key: "default/example-foo" })).toBeUndefined();
  });
});

describe("an excerpt of a log filtered to its STAGE lines", () => {
  // The shipped klog sample, as the exercise filters it: `grep -n STAGE/` (line numbers in front).
  const log = readFileSync(
    new URL("../../../../public/traces/create-foo.klog.log", import.meta.url),
    "utf8",
  );

  it("says the pass-end lines are missing, and how to keep them", () => {
    const grepped = log
      .split("\n")
      .map((l, i) => `${i + 1}:${l}`)
      .filter((l) => l.includes("STAGE/"))
      .join("\n");
    const text = renderExcerptText(buildExcerpt(readTraceText(grepped, { year: 2026 }).events)!);
    expect(text).toContain("Not quiescent in this trace");
    expect(text).toContain(
      'The log has no pass-end lines ("Successfully synced", "Error syncing")',
    );
    // The whole log ends its passes: no such line.
    const whole = buildExcerpt(readTraceText(log, { year: 2026 }).events)!;
    expect(renderExcerptText(whole)).not.toContain("no pass-end lines");
  });
});

describe("an excerpt of a log with lines glued together", () => {
  // Two writers at once, a newline lost: the Deployment's watch line runs on from the create's
  // write line, and the pass's "Successfully synced" from its status write's (create-canonical's
  // lines 12–13 and 15–16).
  const lines = fixture("stage/create-canonical.log").split("\n");
  lines[14] += lines[15];
  lines[11] += lines[12];
  lines.splice(15, 1);
  lines.splice(12, 1);
  const text = lines.join("\n");

  it("shows each glued line's own message when its events carry the whole line (the page)", () => {
    const cli = readTraceText(text, { year: 2026 });
    expect(
      cli.reader.diagnostics.filter((d) => d.message.includes("begins inside it")),
    ).toHaveLength(2);
    // A replay reads a klog log's lines back from the file: an event's raw is its whole line.
    const page = cli.events.map((e) =>
      e.line === undefined ? e : { ...e, raw: lines[e.line - 1] },
    );
    const watch = page.find((e) => e.stage === "watch" && e.kind === "Deployment")!;
    expect(watch.raw).toContain("STAGE/write verb=create");
    expect(renderExcerptText(buildExcerpt(page)!)).toBe(
      renderExcerptText(buildExcerpt(cli.events)!),
    );
    expect(renderExcerptMarkdown(buildExcerpt(page)!)).toBe(
      renderExcerptMarkdown(buildExcerpt(cli.events)!),
    );
  });
});

describe("an excerpt built from a key's first events, completed by the whole trace's analysis", () => {
  for (const passes of [300, 90])
    it(`reads as the CLI's excerpt of every event (${passes} passes, the first 150 events given)`, () => {
      // The dashboard reads at most its first MAX_EXCERPT_EVENTS: a 5,000-pass hot loop said
      // "3332 consecutive passes", "67 of the 3333 passes in its span", beside Findings' 4999.
      const { events } = readTraceText(hotLoopTrace(passes));
      const whole = new Analyzer();
      for (const e of events) whole.push(e);
      const full = buildExcerpt(events, { key: HOT_KEY, maxRows: 100 })!;
      const first = buildExcerpt(events.slice(0, 150), { key: HOT_KEY, maxRows: 100 })!;
      expect(full.hotLoop).toMatch(new RegExp(`^${passes - 1} consecutive passes`));
      expect(renderExcerptText(first)).not.toBe(renderExcerptText(full));
      const completed = withWholeTrace(first, whole);
      expect(renderExcerptText(completed)).toBe(renderExcerptText(full));
      expect(completed.cut).toEqual(full.cut);
      expect(completed.settled).toBe(full.settled);
    });
});
