/**
 * The worker's klog row path (klogRows.ts) against the general one (TraceReader's events, then
 * RowEncoder.add): on any klog input, in any chunking, with the lines' text kept or not, both must
 * give the same batch — columns, strings and their ids — and the same diagnostics; and it must
 * take the canonical STAGE lines loopscope's controller writes (else it is no fast path at all).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { badInputCorpus } from "../robustness/corpus.ts";
import { expectSame } from "../testing/reader-paths.ts";

const utf8 = new TextEncoder();
const STAGES = new Set(["watch", "enqueue", "dequeue", "read", "write"]);

const header = fc
  .record({
    level: fc.constantFrom("I", "I", "I", "W", "E"),
    micros: fc.nat(999_999),
    pid: fc.constantFrom(4242, 4242, 4242, 77),
    src: fc.constantFrom(
      "controller.go:133",
      "controller.go:207",
      "foo-controller.ts:311",
      "reflector.go:5",
      "ünï.go:1",
    ),
  })
  .map(
    ({ level, micros, pid, src }) =>
      `${level}1202 09:00:01.${String(micros).padStart(6, "0")}   ${pid} ${src}] `,
  );

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const oneOf = <T>(usual: fc.Arbitrary<T>, odd: readonly T[]) =>
  fc.oneof({ weight: 8, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
const rv = oneOf(fc.nat(10_000_000).map(String), [
  "0",
  "007",
  "abc",
  "1e3",
  "123456789012345",
  "1234567890123456",
]);
const count = oneOf(fc.nat(50), [4294967294, 4294967295, 4294967296, 999999999999999]);
const key = oneOf(
  fc.tuple(word, word).map(([a, b]) => `${a}/${b}`),
  ["", "solo", "a/b/c", "ü/x", "x\ty/z", "a/b", "a/b"],
);
/** A value that may name the line's key (a reference in the row, see key-refs.ts). */
const keyish = oneOf(word, ["a", "b", "x", "a/b", "ab", "solo"]);

/** A field of a stage's line, as `k=v`: mostly its own, sometimes odd or someone else's. */
const fieldsOf: Record<string, Record<string, fc.Arbitrary<string>>> = {
  watch: {
    key,
    kind: oneOf(fc.constantFrom("Foo", "Deployment"), ["Pod", ""]),
    event: oneOf(fc.constantFrom("add", "update", "delete"), ["bogus"]),
    name: keyish,
    ns: keyish,
    rv,
    oldRv: rv,
    initial: oneOf(fc.constantFrom("true"), ["false", "maybe"]),
  },
  enqueue: { key, len: count.map(String), cause: oneOf(fc.constantFrom("watch", "retry"), ["x"]) },
  dequeue: { key, len: count.map(String), worker: count.map(String) },
  read: {
    key,
    rv,
    generation: count.map(String),
    found: oneOf(fc.constantFrom("true", "false"), ["yes"]),
    worker: count.map(String),
  },
  write: {
    key,
    verb: oneOf(fc.constantFrom("create", "update", "updateStatus", "delete"), ["poke"]),
    target: oneOf(
      fc.tuple(word, word).map(([a, b]) => `deployments/${a}/${b}`),
      ["foos/a/b/status", "deployments/x", "a/b/c/d", "a/b/a/b", "a", "b", "x", "solo"],
    ),
    code: oneOf(fc.constantFrom("200", "201", "409"), ["2x"]),
    reason: fc.constantFrom("Conflict", "AlreadyExists", "a-long-reason-of-many-letters"),
    rv,
    changed: oneOf(fc.constantFrom("true", "false"), ["maybe"]),
    fields: fc.constantFrom(
      "spec.replicas",
      "status.availableReplicas",
      "spec.replicas,status.availableReplicas",
      ",",
      "a,,b",
    ),
    worker: count.map(String),
  },
};

const stageLine = fc.constantFrom(...Object.keys(fieldsOf)).chain((stage) => {
  const own = fieldsOf[stage];
  const names = Object.keys(own);
  return fc
    .tuple(
      fc.subarray(names, { minLength: Math.min(3, names.length) }),
      fc.constantFrom("", "", "", " extra=1", ' key="quoted/x"', " positional", " rv=2 rv=3"),
    )
    .chain(([picked, tail]) =>
      fc
        .tuple(...picked.map((n) => own[n].map((v) => `${n}=${v}`)))
        .map((kv) => `STAGE/${stage} ${kv.join(" ")}${tail}`),
    );
});

const otherLine = fc.constantFrom(
  '"Successfully synced" objectName="a/b"',
  '"Starting workers" count=2',
  "STAGE/bogus key=a/b",
  "not STAGE/watch at the start",
);

const log = fc
  .record({
    lines: fc.array(
      fc.tuple(
        header,
        fc.oneof({ weight: 6, arbitrary: stageLine }, { weight: 1, arbitrary: otherLine }),
      ),
      { minLength: 1, maxLength: 40 },
    ),
    crlf: fc.boolean(),
    torn: fc.boolean(),
    cuts: fc.array(fc.nat(10_000), { maxLength: 8 }),
    keepRaw: fc.boolean(),
  })
  .map(({ lines, crlf, torn, cuts, keepRaw }) => {
    const eol = crlf ? "\r\n" : "\n";
    const body = lines.map(([h, m]) => h + m).join(eol) + (torn ? "" : eol);
    return { bytes: utf8.encode(body), cuts, keepRaw };
  });

function file(path: string): Uint8Array {
  return readFileSync(fileURLToPath(new URL(path, import.meta.url)));
}

describe("the worker's klog rows", () => {
  it("are the general reader's rows, for any klog input and any chunking", () => {
    fc.assert(
      fc.property(log, ({ bytes, cuts, keepRaw }) => {
        expectSame(bytes, cuts, keepRaw);
      }),
      { numRuns: 400 },
    );
  });

  it("are the general reader's rows on the klog fixtures and the malformed-input corpus", () => {
    for (const dir of ["stage", "klog"]) {
      const root = fileURLToPath(
        new URL(`../../../../packages/trace/fixtures/${dir}/`, import.meta.url),
      );
      for (const name of readdirSync(root).filter((f) => f.endsWith(".log"))) {
        const bytes = readFileSync(root + name);
        for (const keepRaw of [true, false]) {
          expectSame(bytes, [], keepRaw);
          expectSame(bytes, [17, 333, 4096], keepRaw);
        }
      }
    }
    for (const c of badInputCorpus({ longLine: 200_000 })) {
      expectSame(c.bytes, [1, 7, 100, 1000, 4096], false);
    }
  });

  it("take the STAGE and 'Successfully synced' lines of loopscope's own klog log (a retry's delay excepted)", () => {
    const bytes = file("../../../../public/traces/create-foo.klog.log");
    const stageLines = new TextDecoder()
      .decode(bytes)
      .split("\n")
      .filter((l) => l.includes("STAGE/"));
    expect(stageLines.length).toBeGreaterThan(20);
    for (const keepRaw of [true, false]) {
      const read = expectSame(bytes, [5000], keepRaw);
      expect(read.batch.length).toBeGreaterThan(stageLines.length);
      // A retry's enqueue line carries a delay, which the row path leaves to the general one.
      const events = read.events.filter((e) => STAGES.has(e.stage));
      expect(events.map((e) => e.stage === "enqueue" && e.delayMs)).toEqual([5]);
      const synced = read.events.filter((e) => e.stage === "done" && e.outcome === "synced");
      expect(synced).toEqual([]);
      expect(read.events.length).toBeGreaterThan(0); // the controller's other lines: notes
      expect(read.batch.raw !== undefined).toBe(keepRaw);
    }
  });

  it("are the general reader's rows for tens of thousands of keys, each met again later", () => {
    const h = "I1202 09:00:01.000001   4242 controller.go:207] ";
    const lines: string[] = [];
    for (let i = 0; i < 67_000; i++) lines.push(`${h}STAGE/dequeue key=ns/k${i} len=0 worker=1`);
    for (let i = 0; i < 3_000; i++) lines.push(`${h}STAGE/dequeue key=ns/k${i} len=0 worker=2`);
    const read = expectSame(utf8.encode(lines.join("\n") + "\n"), [1 << 20], false);
    // The first line is read as text (it tells the format): an event. Every other one is a row.
    expect(read.events.length).toBe(1);
    expect(read.batch.newKeys.length).toBe(67_000);
  });

  it("leave a line with a value a column cannot hold to the general path", () => {
    const h = "I1202 09:00:01.000001   4242 controller.go:133] ";
    const lines = [
      "STAGE/read key=a/b rv=007",
      "STAGE/dequeue key=a/b len=4294967295 worker=1",
      "STAGE/watch kind=Foo event=add key=a/b rv=abc",
      "STAGE/read key=a/b rv=12",
    ];
    const read = expectSame(utf8.encode(lines.map((l) => h + l + "\n").join("")));
    expect(read.events.map((e) => e.stage)).toEqual(["read", "dequeue", "watch"]);
    expect(read.batch.length).toBe(4);
  });
});
