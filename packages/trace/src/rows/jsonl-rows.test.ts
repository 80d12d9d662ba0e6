/**
 * The worker's byte-level JSONL path against the general one (TraceReader, then RowEncoder.add):
 * on any input, in any chunking, both must give the same batch — columns, strings and their ids —
 * and the same diagnostics; and on loopscope's own output the fast path must take every record
 * (else it is not a fast path at all).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  encodeEvent,
  encodeHeader,
  KNOWN_FIELDS,
  TraceReader,
  RowEncoder,
  RowDecoder,
  JsonlRows,
  type TraceEvent,
} from "../index.ts";
import { badInputCorpus } from "../robustness/corpus.ts";
import { chunked, expectSame, fast, general } from "../testing/reader-paths.ts";

const utf8 = new TextEncoder();

// ── generated records ────────────────────────────────────────────────────────────────────────

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const key = fc.tuple(word, word).map(([a, b]) => `${a}/${b}`);
const rv = fc.oneof(
  { weight: 6, arbitrary: fc.nat(10_000_000).map(String) },
  fc.constantFrom("0", "007", "abc", "", "1e3", "12345678901234567"),
);
const num = fc.oneof(
  { weight: 6, arbitrary: fc.nat(5000) },
  fc.constantFrom(0, 4294967295, 4294967296, 1.5, -3, 1e21, 123456789012345, 1234567890123456),
);
const str = fc.oneof(
  word,
  fc.constantFrom("", 'q"uote', "back\\slash", "tab\t", "ünï", "😀", "a b", "line\nbreak"),
);
const anyValue = fc.oneof(
  str,
  num,
  fc.boolean(),
  fc.constant(null),
  fc.array(str, { maxLength: 3 }),
  fc.constant({ a: 1 }),
);

/** Values a field takes: mostly of its own type (valid or just not), now and then anything. */
const fieldValue = (f: string): fc.Arbitrary<unknown> => {
  const own = ((): fc.Arbitrary<unknown> => {
    switch (f) {
      case "rv":
      case "oldRv":
        return rv;
      case "merged":
        return fc.constantFrom(false, true, "dirty", "processing", "other");
      case "cause":
        return fc.constantFrom("watch", "resync", "retry", "other");
      case "level":
        return fc.constantFrom("I", "W", "E", "F", "X");
      case "event":
        return fc.constantFrom("add", "update", "delete", "other");
      case "outcome":
        return fc.constantFrom("synced", "requeued", "dropped", "other");
      case "found":
      case "changed":
      case "initial":
        return fc.boolean();
      case "fields":
        return fc.array(str, { maxLength: 3 });
      case "name":
      case "ns":
      case "target":
      case "error":
        // Often naming the key "a/b", or a part of it (a reference in the row, see key-refs.ts).
        return fc.oneof(
          str,
          fc.constantFrom("a", "b", "a/b", "deployments/a/b", "foos/a/b/s", "\na/b"),
          fc.constantFrom('on x "b": y', '"b\\"', '\\"b\\"', '""b" "b"', 'x"b"'),
        );
      case "line":
      case "len":
      case "causeSeq":
      case "worker":
      case "delayMs":
      case "generation":
      case "code":
        return num;
      default:
        return str;
    }
  })();
  return fc.oneof({ weight: 15, arbitrary: own }, { weight: 1, arbitrary: anyValue });
};
/** Field names a stage's record may get: mostly its own, sometimes another stage's or unknown. */
const ALL_FIELDS = [...new Set(Object.values(KNOWN_FIELDS).flatMap((s) => [...s]))];
const OPTIONAL_OUT = new Set(["seq", "ts", "key", "stage"]);
const fieldNames = (stage: string) => {
  const own = [...(KNOWN_FIELDS[stage as keyof typeof KNOWN_FIELDS] ?? [])].filter(
    (f) => !OPTIONAL_OUT.has(f),
  );
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...ALL_FIELDS, "extra", "unknownField") },
  );
};
const STAGES = ["watch", "enqueue", "dequeue", "read", "write", "done", "note", "bogus"];

const record = fc
  .record({
    stage: fc.constantFrom(...STAGES),
    key: fc.oneof(
      { weight: 9, arbitrary: key },
      { weight: 2, arbitrary: fc.constant("a/b") },
      { weight: 1, arbitrary: fc.constantFrom("", 7, 'q"t/x', "ü/ß", "tab\t/x") },
    ),
    ts: fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 1, max: 2 ** 53 - 1 }) },
      { weight: 1, arbitrary: fc.constantFrom(1.5, -1, "t", 2 ** 53 + 2) },
    ),
    seqStep: fc.oneof(
      { weight: 40, arbitrary: fc.integer({ min: 1, max: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, -2, "none") },
    ),
    required: fc.oneof(
      { weight: 6, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  })
  .chain((r) =>
    fc
      .uniqueArray(fieldNames(r.stage === "bogus" ? "note" : r.stage), { maxLength: 6 })
      .chain((names) => fc.tuple(...names.map((n) => fieldValue(n).map((v) => [n, v] as const))))
      .map((fields) => ({ r, fields })),
  )
  .map(({ r, fields }) => {
    const o: Record<string, unknown> = { stage: r.stage, key: r.key };
    // Mostly complete records, so that many are taken by the fast path.
    if (r.required) {
      if (r.stage === "watch") Object.assign(o, { kind: "Foo", event: "update", name: "n" });
      if (r.stage === "write") Object.assign(o, { verb: "update", target: "deployments/a/b" });
      if (r.stage === "done") o.outcome = "synced";
      if (r.stage === "note") o.text = "hello";
    }
    for (const [n, v] of fields) o[n] = v;
    return { o, ts: r.ts, seqStep: r.seqStep };
  });

/** Respellings of a canonical line that JSON.parse reads the same way (or nearly). */
const respell = fc.oneof(
  { weight: 12, arbitrary: fc.constant((l: string) => l) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      (l: string) => l.replace(":", ": "),
      (l: string) => ` ${l}`,
      (l: string) => `${l}\r`,
      (l: string) => l.replace('"key"', '"k\\u0065y"'),
      (l: string) => l.replace(/"ts":(\d+)/, '"ts":$1.0'),
      (l: string) => l.replace(/}$/, ',"key":"dup/licate"}'),
      (l: string) => l.slice(0, -1),
      (_l: string) => "",
    ),
  },
);

const trace = fc
  .record({
    header: fc.constantFrom("header", "header", "none", "second"),
    lines: fc.array(fc.tuple(record, respell), { minLength: 1, maxLength: 40 }),
    torn: fc.boolean(),
    cuts: fc.array(fc.nat(10_000), { maxLength: 8 }),
  })
  .map(({ header, lines, torn, cuts }) => {
    let seq = 0;
    const text: string[] = [];
    if (header !== "none") text.push(encodeHeader({ source: "test" }).trimEnd());
    lines.forEach(([r, spell], i) => {
      const o: Record<string, unknown> = { ...r.o };
      if (r.seqStep !== "none") o.seq = seq += r.seqStep as number;
      o.ts = r.ts;
      text.push(spell(JSON.stringify(o)));
      if (header === "second" && i === 2) text.push(encodeHeader({ source: "again" }).trimEnd());
    });
    const body = text.join("\n") + (torn ? "" : "\n");
    return { bytes: utf8.encode(body), cuts };
  });

describe("the worker's JSONL rows", () => {
  it("are the general reader's rows, for any input and any chunking", () => {
    fc.assert(
      fc.property(trace, ({ bytes, cuts }) => {
        expectSame(bytes, cuts);
      }),
      { numRuns: 400 },
    );
  });

  it("are the general reader's rows for each field of each stage, with values of each type", () => {
    const values: unknown[] = [
      ...["s", "", 'q"t', "b\\s", "t\tb", "ü", "😀", "007", "12", "1e3"],
      // Values that name the key "a/b", or a part of it (a reference in the row).
      ...["a", "b", "a/b", "xa/b", "a/b/a/b", "a/b\n", "/b"],
      ...[0, 7, 4294967295, 4294967296, 1.5, -1, 123456789012345, 1234567890123456],
      ...[true, false, null, [], ["a"], ["a", "b"], [1], { a: 1 }],
      ...["dirty", "processing", "watch", "resync", "I", "X", "add", "delete", "synced"],
    ];
    const base: Record<string, Record<string, unknown>> = {
      watch: { kind: "Foo", event: "add", name: "n" },
      write: { verb: "update", target: "deployments/a/b" },
      done: { outcome: "synced" },
      note: { text: "t" },
    };
    const lines = [encodeHeader({ source: "t" }).trimEnd()];
    let seq = 1;
    for (const stage of [...Object.keys(KNOWN_FIELDS), "bogus"]) {
      for (const f of [...ALL_FIELDS, "extra", "unknownField"]) {
        if (f === "seq") continue; // a seq that jumps ahead would leave the fast path nothing
        for (const v of values) {
          const o = { stage, key: "a/b", ...base[stage], [f]: v };
          lines.push(JSON.stringify({ ...o, seq: seq++, ts: 5 }));
        }
      }
    }
    // Spellings JSON.stringify does not use, of values it does.
    const r = (text: string) => `{"stage":"note","key":"a/b","text":${text},"seq":${seq++},"ts":5}`;
    lines.push(r('"x\\/y"'), r('"\\u0041"'), r('"\\u000a"'), r('"a\\nb"'), r('"q\\"t"'));
    lines.push(`{"stage":"dequeue","key":"a/b","len":1.0,"seq":${seq++},"ts":5}`);
    lines.push(`{"stage":"dequeue","key":"a/b","len":1e0,"seq":${seq++},"ts":5}`);
    lines.push(`{"stage":"dequeue","key":"a/b","len":-0,"seq":${seq++},"ts":5}`);
    lines.push(`{"stage":"dequeue","key":"a/b","worker":01,"seq":${seq++},"ts":5}`);
    expectSame(utf8.encode(lines.join("\n") + "\n"));
  });

  it("are the general reader's rows on the malformed-input corpus", () => {
    for (const c of badInputCorpus({ longLine: 200_000 })) {
      expectSame(c.bytes);
      expectSame(c.bytes, [1, 7, 100, 1000, 4096]);
    }
  });

  it("leave klog logs to the klog reader, whatever the chunking", () => {
    for (const dir of ["stage", "klog"]) {
      const root = fileURLToPath(
        new URL(`../../../../packages/trace/fixtures/${dir}/`, import.meta.url),
      );
      for (const name of readdirSync(root).filter((f) => f.endsWith(".log"))) {
        const bytes = readFileSync(root + name);
        for (const size of [bytes.length, 4096, 333, 17]) {
          const cuts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size);
          const a = general(chunked(bytes, cuts));
          expect(a.batch.length, `${dir}/${name} has events`).toBeGreaterThan(0);
          expectSame(bytes, cuts);
        }
      }
    }
  });

  it("take every record of loopscope's own traces", () => {
    for (const name of ["hot-loop.jsonl", "burst.jsonl", "create-foo.jsonl"]) {
      const bytes = readFileSync(
        fileURLToPath(new URL(`../../../../public/traces/${name}`, import.meta.url)),
      );
      expectSame(bytes, [5000, 20000]);
      const lines = bytes.toString("utf8").trimEnd().split("\n");
      const reader = new TraceReader();
      const encoder = new RowEncoder();
      const rows = new JsonlRows(encoder, (seq, ts) => reader.takeRecord(seq, ts));
      let taken = 0;
      lines.forEach((l, i) => {
        const b = utf8.encode(l);
        if (rows.read(b, 0, b.length)) taken++;
        else reader.push(utf8.encode(`${l}\n`), () => undefined);
        // The header, then the first record (whose ts decides the file's unit), are the
        // general reader's.
        expect(taken, `${name}: line ${i + 1}`).toBe(Math.max(0, i - 1));
      });
      expect(taken).toBe(lines.length - 2);
    }
  });

  it("take records that carry their log line (`raw`, as `loopscope replay` of a klog log serves them)", () => {
    const raws = [
      "I1202 09:00:00.000227   48211 controller.go:133] STAGE/watch kind=Foo event=add key=a/b rv=1",
      'I1202 09:00:00.002457   48211 controller.go:222] "Successfully synced" objectName="a/b"',
      "I1202 09:00:00.1 1 c.go:1] tab\there ünï 😀",
      "",
      "x".repeat(3000),
    ];
    const lines = [
      encodeHeader({ source: "t" }),
      ...raws.map((raw, i) =>
        encodeEvent({ seq: i + 1, ts: i, key: "a/b", stage: "note", text: "t", raw, line: i + 1 }),
      ),
    ];
    const reader = new TraceReader();
    const encoder = new RowEncoder();
    const rows = new JsonlRows(encoder, (seq, ts) => reader.takeRecord(seq, ts));
    reader.push(utf8.encode(lines[0] + lines[1]), (e) => encoder.add(e));
    for (const l of lines.slice(2)) {
      const b = utf8.encode(l.trimEnd());
      expect(rows.read(b, 0, b.length), l).toBe(true);
    }
    expect(encoder.finish().raw).toEqual(raws);
    expectSame(utf8.encode(lines.join("")), [7, 200, 201]);
  });

  it("name the key in an escaped value only where its text does", () => {
    const rec = (seq: number, key: string, over: Record<string, unknown>) =>
      encodeEvent({ seq, ts: seq, key, stage: "done", outcome: "requeued", ...over } as TraceEvent);
    const lines = [
      encodeHeader({ source: "t" }),
      rec(1, "a/b", {}), // the first record is the general reader's
      rec(2, "n/b", { error: "\n/b" }), // `\n/b` on the line: no "n/b" in its text
      rec(3, "a/b", { error: 'on foos "b": modified' }),
      rec(4, "a/b", { error: "\\a/b" }), // an escaped backslash, then the key
      rec(5, "t/x", { error: "\tt/x\t/x" }),
      rec(6, "n/bb", { error: '"\\"bb\\"" "bb"' }),
    ].join("");
    const read = expectSame(utf8.encode(lines), [5, 90]);
    expect(read.events.map((e) => e.seq)).toEqual([1]); // the others taken as rows
    expect(new RowDecoder().decode(read.batch).map((e) => e.stage === "done" && e.error)).toEqual([
      undefined,
      "\n/b",
      'on foos "b": modified',
      "\\a/b",
      "\tt/x\t/x",
      '"\\"bb\\"" "bb"',
    ]);
  });

  it("take events written by encodeEvent, with their details and numbers", () => {
    const lines = [
      encodeHeader({ source: "t" }),
      encodeEvent({ seq: 1, ts: 1, key: "a/b", stage: "dequeue", worker: 2, len: 0 }),
      encodeEvent({
        seq: 2,
        ts: 2,
        key: "a/b",
        stage: "write",
        verb: "update",
        target: "deployments/a/b",
        code: 200,
        rv: "17",
        changed: true,
        fields: ["spec.replicas"],
        worker: 2,
      }),
      encodeEvent({
        seq: 5,
        ts: 3,
        key: "a/b",
        stage: "done",
        outcome: "requeued",
        error: "boom",
        delayMs: 5,
      }),
    ].join("");
    const b = fast([utf8.encode(lines)]).batch;
    expect(Array.from(b.seq)).toEqual([1, 2, 5]);
    expect(Array.from(b.rv)).toEqual([NaN, 17, NaN]);
    expect(b.newKeys).toEqual(["a/b"]);
    expect(b.newDetails).toEqual([
      '{"verb":"update","target":{"ref":"key","before":"deployments/","after":""},"code":200,"changed":true,"fields":["spec.replicas"]}',
      '{"outcome":"requeued","error":"boom","delayMs":5}',
    ]);
    expectSame(utf8.encode(lines), [3, 60, 61]);
  });
});
