import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { STAGES } from "../event.ts";
import { readStageLine, type StageWarning } from "./stage-line.ts";
import { shadowBytes } from "./byte-span.ts";
import { stageEvent, stageFields } from "./stage-fields.ts";
import { NAMES, ROLES_BY_STAGE, type Role } from "./spellings.ts";

/** Reads the STAGE message `msg` whose tag is at `at`, as a line of text. */
function parseStageMessage(msg: string, at: number, openKey?: string) {
  const f = stageFields();
  const said: StageWarning[] = [];
  const bytes = shadowBytes(msg, new Uint8Array(0));
  const problem = readStageLine(bytes, msg, 0, at, msg.length, f, said, openKey);
  if (problem !== undefined) return { ok: false as const, message: problem };
  const warnings = said.map((w) => w.message);
  return warnings.length
    ? { ok: true as const, fields: f, warnings }
    : { ok: true as const, fields: f, warnings: undefined };
}

const parse = (msg: string, openKey?: string) => {
  const r = parseStageMessage(msg, msg.indexOf("STAGE/"), openKey);
  if (!r.ok) throw new Error(r.message);
  const at = { ts: 0, src: undefined, line: 0, seq: 0 };
  const { raw: _raw, line: _line, seq: _seq, ...e } = stageEvent(r.fields, at, msg);
  return e;
};

describe("STAGE line styles", () => {
  it("reads the canonical form", () => {
    expect(parse("STAGE/watch kind=Foo event=add key=default/example-foo rv=1001")).toEqual({
      ts: 0,
      stage: "watch",
      kind: "Foo",
      event: "add",
      key: "default/example-foo",
      name: "example-foo",
      ns: "default",
      rv: "1001",
    });
    expect(
      parse("STAGE/write verb=create target=deployments/default/example-foo rv=1002 code=201"),
    ).toMatchObject({
      stage: "write",
      key: "default/example-foo",
      verb: "create",
      target: "deployments/default/example-foo",
      rv: "1002",
      code: 201,
    });
  });

  it("reads InfoS with Go-quoted values", () => {
    expect(
      parse(String.raw`"STAGE/read" key="default/example-foo" resourceVersion="1001"`),
    ).toMatchObject({
      stage: "read",
      key: "default/example-foo",
      rv: "1001",
    });
    expect(
      parse(
        String.raw`"STAGE/write" verb="updateStatus" target="foos/default/x/status" reason="Conflict" err="the object has been \"modified\""`,
      ),
    ).toMatchObject({
      reason: "Conflict",
      extra: { err: 'the object has been "modified"' },
    });
  });

  it("reads a write's target from its resource (or kind), name and namespace", () => {
    const write = (msg: string, openKey?: string) => {
      const { stage, key, verb, target, extra } = parse(msg, openKey) as Record<string, unknown>;
      return { stage, key, verb, target, extra };
    };
    expect(
      write(
        String.raw`"STAGE/write" verb="create" resource="deployments" name="web" namespace="team-a" key="team-a/example-foo"`,
      ),
    ).toEqual({
      stage: "write",
      key: "team-a/example-foo",
      verb: "create",
      target: "deployments/team-a/web",
      extra: undefined,
    });
    // The Foo's namespace when none is said; a group after the resource is not part of it.
    expect(
      write(`"STAGE/write" verb="update" resource="deployments.apps" name="web" key="ns/x"`),
    ).toMatchObject({ target: "deployments/ns/web" });
    expect(write(`STAGE/write verb=create kind=Deployment name=web`, "ns/x")).toMatchObject({
      key: "ns/x",
      target: "deployments/ns/web",
    });
    // A status write names the Foo, whose key it is.
    expect(write(`STAGE/write verb=UpdateStatus resource=foos name=x ns=ns`)).toMatchObject({
      key: "ns/x",
      target: "foos/ns/x/status",
    });
    // A target that says it all: name= and kind= stay as written.
    expect(
      write(`STAGE/write verb=create target=deployments/ns/web kind=Deployment name=web`),
    ).toMatchObject({
      target: "deployments/ns/web",
      extra: { kind: "Deployment", name: "web" },
    });
  });

  it("reads a write's target from the API path it prints", () => {
    expect(
      parse(
        "STAGE/write PUT /apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/example-foo/status",
      ),
    ).toMatchObject({
      key: "default/example-foo",
      verb: "updateStatus",
      target: "foos/default/example-foo/status",
    });
    expect(
      parse("STAGE/write POST /apis/apps/v1/namespaces/default/deployments", "default/example-foo"),
    ).toMatchObject({ key: "default/example-foo", verb: "create", target: "deployments/default" });
  });

  it("reads queue= as the queue's length", () => {
    expect(parse("STAGE/dequeue default/example-foo queue=0")).toMatchObject({ len: 0 });
  });

  it("reads a bracketed tag, as a learner tags a line to grep it", () => {
    expect(parse("[STAGE/watch] default/example-foo")).toMatchObject({
      stage: "watch",
      key: "default/example-foo",
    });
    expect(parse("(STAGE/dequeue) default/example-foo 0")).toMatchObject({
      stage: "dequeue",
      len: 0,
    });
  });

  it("reads err=<nil> (a nil error printed with %v) as no error", () => {
    expect(
      parse("STAGE/write create deployments/default/example-foo err=<nil>"),
    ).not.toHaveProperty("reason");
    expect(
      parse(`"STAGE/write" verb="create" target="deployments/ns/x" err="<nil>" code=201`),
    ).toMatchObject({ code: 201 });
    expect(
      parse(`"STAGE/write" verb="create" target="deployments/ns/x" err="<nil>"`),
    ).not.toHaveProperty("reason");
  });

  it("reads other key spellings", () => {
    expect(parse("STAGE/enqueue object=default/example-foo queue_len=2")).toMatchObject({
      key: "default/example-foo",
      len: 2,
    });
    expect(parse("STAGE/dequeue key=default/example-foo queueLen=0 worker=2")).toMatchObject({
      len: 0,
      worker: 2,
    });
    expect(
      parse('STAGE/read object={"name":"example-foo","namespace":"default"} resourceVersion=7'),
    ).toMatchObject({
      key: "default/example-foo",
      rv: "7",
    });
  });

  it("reads positional free text", () => {
    expect(parse("STAGE/enqueue default/example-foo")).toMatchObject({
      stage: "enqueue",
      key: "default/example-foo",
    });
    expect(parse("STAGE/write create deployment default/example-foo")).toMatchObject({
      verb: "create",
      target: "deployments/default/example-foo",
      key: "default/example-foo",
    });
    expect(parse("STAGE/write update foo status 'default/example-foo'")).toMatchObject({
      verb: "updateStatus",
      target: "foos/default/example-foo/status",
    });
    // The exercise's only watch line is the Foo add handler; the assumption is recorded.
    expect(parse("STAGE/watch default/example-foo")).toMatchObject({
      kind: "Foo",
      event: "add",
      extra: { assumed: "kind,event" },
    });
  });

  it("reads the exercise's lines as learners print them", () => {
    const LEARNERS: [line: string, reads: Record<string, unknown>][] = [
      // "the key and the queue length", "the object's resourceVersion": bare numbers.
      ["STAGE/dequeue default/example-foo 0", { len: 0 }],
      ["STAGE/read default/example-foo 1001", { rv: "1001" }],
      ["STAGE/read default/example-foo not found", { found: false }],
      // A `kind/…` word names what a write wrote, not the Foo.
      [
        "STAGE/write update foos/status default/example-foo",
        {
          key: "default/example-foo",
          verb: "updateStatus",
          target: "foos/default/example-foo/status",
        },
      ],
      [
        "STAGE/write UpdateStatus default/example-foo",
        { target: "foos/default/example-foo/status" },
      ],
      // The handler's name says the event.
      ["STAGE/watch UpdateFunc foo default/example-foo", { kind: "Foo", event: "update" }],
      ["STAGE/watch OnAdd Deployment default/example-foo", { kind: "Deployment", event: "add" }],
      // A namespace may still be named like a kind where a line names the Foo alone.
      ["STAGE/enqueue foo/bar", { key: "foo/bar" }],
    ];
    for (const [line, reads] of LEARNERS) expect(parse(line), line).toMatchObject(reads);
    // Two numbers: which is the resourceVersion would be a guess.
    expect(parse("STAGE/read default/example-foo gen 2 rv 1001")).not.toHaveProperty("rv");
  });

  it("reads a read or write that names no key as the one open pass's, and says so", () => {
    const bad = (m: string) => parseStageMessage(m, 0);
    expect(bad("STAGE/read 1001")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/without a key/) as unknown,
    });
    expect(bad("STAGE/write create deployments/example-foo")).toMatchObject({ ok: false });
    const open = "default/example-foo";
    expect(parseStageMessage("STAGE/read 1001", 0, open)).toMatchObject({
      ok: true,
      fields: { key: open, rv: "1001", extra: { assumed: "key" } },
      warnings: [
        expect.stringMatching(/read as the key of the one pass open, default\/example-foo/),
      ],
    });
    expect(parse("STAGE/write create deployments/example-foo", open)).toMatchObject({
      key: open,
      verb: "create",
      target: "deployments/default/example-foo",
      extra: { assumed: "key" },
    });
    expect(parse("STAGE/write update foos/status example-foo", open)).toMatchObject({
      key: open,
      verb: "updateStatus",
      target: "foos/default/example-foo/status",
    });
    // A Go call printed as it is says the verb and the kind.
    expect(parse("STAGE/write deployments.Create default/example-foo")).toMatchObject({
      verb: "create",
      target: "deployments/default/example-foo",
    });
    expect(
      parse("STAGE/write c.kubeclientset.AppsV1().Deployments(foo.Namespace).Create x", open),
    ).toMatchObject({ key: open, verb: "create", target: "deployments/default/example-foo" });
    for (const call of ["Foos(default).UpdateStatus", "UpdateStatus(example-foo)"]) {
      expect(parse(`STAGE/write ${call}`, open)).toMatchObject({
        key: open,
        verb: "updateStatus",
        target: "foos/default/example-foo/status",
      });
    }
    // A line that names its key keeps it.
    expect(parse("STAGE/read ns/a 7", open)).toMatchObject({ key: "ns/a", rv: "7" });
    expect(parse("STAGE/read ns/a 7", open).extra).toBeUndefined();
  });

  it("keeps unknown keys in extra and treats a Go nil as absent", () => {
    expect(parse("STAGE/write verb=create target=deployments/ns/a rv= reason= attempt=2")).toEqual({
      ts: 0,
      stage: "write",
      key: "ns/a",
      verb: "create",
      target: "deployments/ns/a",
      extra: { attempt: "2" },
    });
  });

  it("says why a line cannot be read", () => {
    const bad = (m: string) => {
      const r = parseStageMessage(m, m.indexOf("STAGE/"));
      return r.ok ? "ok" : r.message;
    };
    expect(bad("STAGE/wacth key=a/b")).toMatch(/unknown stage "STAGE\/wacth"/);
    expect(bad("STAGE/enqueue len=3")).toMatch(/without a key/);
    expect(bad('"STAGE/read" key="a/b')).toMatch(/unterminated/);
    expect(bad("STAGE/watch kind=Foo event=exploded key=a/b")).toMatch(/unknown event/);
    expect(bad("STAGE/write key=a/b")).toMatch(/without a verb or target/);
    expect(parseStageMessage('"STAGE" key=a/b', 0)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/without stage=/) as unknown,
    });
  });

  it("reads a tag inside the message, and pairs inside InfoS's quoted message", () => {
    expect(parse("processing STAGE/read key=ns/a rv=7")).toMatchObject({ key: "ns/a", rv: "7" });
    expect(parse(String.raw`"STAGE/read key=ns/a" rv="7" note="a \"b\""`)).toMatchObject({
      key: "ns/a",
      rv: "7",
      extra: { note: 'a "b"' },
    });
    expect(parse(String.raw`"STAGE/enqueue \"ns/a\" resync" len=1`)).toMatchObject({
      key: "ns/a",
      cause: "resync",
      len: 1,
    });
  });

  it("reads a line of many pairs and words, and the short line after it", () => {
    const pairs = Array.from({ length: 40 }, (_, i) => `a${i}=${i}`).join(" ");
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    const e = parse(`STAGE/read ${words} ${pairs} key=ns/a a0=last`);
    expect(e).toMatchObject({ key: "ns/a" });
    const extra = (e as { extra: Record<string, string> }).extra;
    expect(Object.keys(extra)).toHaveLength(40);
    // A name given twice keeps its last value, at its last place (as klog does).
    expect(Object.entries(extra).at(-1)).toEqual(["a0", "last"]);
    expect(parse("STAGE/read key=ns/b")).toEqual({ ts: 0, stage: "read", key: "ns/b" });
  });

  it("keeps the last value of each name given again, at its last place, among 1000 pairs", () => {
    // n0…n99 nine times over, then n99…n0: the last ones in the reverse order of the first.
    const name = (i: number) => `n${i < 900 ? i % 100 : 999 - i}`;
    const pairs = Array.from({ length: 1000 }, (_, i) => `${name(i)}=${i}`).join(" ");
    const e = parse(`STAGE/dequeue key=ns/a ${pairs}`) as { extra: Record<string, string> };
    expect(Object.entries(e.extra)).toEqual(
      Array.from({ length: 100 }, (_, i) => [name(900 + i), String(900 + i)]),
    );
  });

  it("leaves an unreadable number out, with a warning that spells it as the line did", () => {
    expect(parseStageMessage("STAGE/enqueue key=ns/a Queue_Len=abc", 0)).toEqual({
      ok: true,
      fields: { ...stageFields(), stage: "enqueue", key: "ns/a" },
      warnings: ["STAGE/enqueue: Queue_Len=abc is not a number; left out"],
    });
  });

  it("reads klog's structured form, the stage in its stage= field", () => {
    expect(parseStageMessage('"STAGE" stage="read" key="ns/a" rv="7" generation=2', 0)).toEqual({
      ok: true,
      fields: { ...stageFields(), key: "ns/a", stage: "read", rv: "7", generation: 2 },
    });
  });
});

describe("any field order, any quoting", () => {
  /** Plausible and odd values per role. */
  const VALUES: Record<Role, string[]> = {
    key: ["ns/a", "ns/b-1", "", "a", '{"name":"a"}'],
    rv: ["1001", "", "abc", "007"],
    oldRv: ["1000", "1001"],
    len: ["0", "3", "x", "-1", "1e2"],
    worker: ["1", "2", "w"],
    kind: ["Foo", "Deployment", "foos", "deploy", "Pod"],
    event: ["add", "update", "delete", "Added", "exploded"],
    name: ["a", "a-dep"],
    ns: ["ns", "other"],
    verb: ["create", "update", "updateStatus", "patch", "PUT", "frob"],
    target: ["deployments/ns/a", "foos/ns/a/status", "deployments/ns", "x"],
    code: ["200", "201", "409", "Conflict"],
    reason: ["Conflict", "", "AlreadyExists"],
    changed: ["true", "false", "yes", "status.x"],
    fields: ["spec.replicas", "status.a,status.b", "a, b", '["a","b"]', ""],
    generation: ["1", "2"],
    found: ["true", "false", "nope"],
    initial: ["true", "false", "maybe"],
    merged: ["dirty", "processing", "false", "Dirty", "no", "maybe"],
    cause: ["watch", "resync", "retry", "requeue", "bogus"],
    causeSeq: ["12", "x"],
    delay: ["250", "5ms", "1.5s", "soon"],
  };
  /** Other pairs: of no role (kept in `extra`), an empty one (absent), an escaped one. */
  const OTHER = [
    "attempt=2",
    'logger="sample"',
    "a.b-c_d=1",
    "attempt=",
    '__proto__="1"',
    'msg="a\\"b"',
  ];
  /** A line's tag and its pairs: each role once, under one of its spellings. */
  const line = fc.constantFrom(...STAGES).chain((st) =>
    fc.record({
      tag: fc.constantFrom(`STAGE/${st}`, `"STAGE/${st}"`, `"STAGE" stage="${st}"`),
      pairs: fc.uniqueArray(
        fc.record({
          role: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...ROLES_BY_STAGE[st]) },
            { weight: 1, arbitrary: fc.constantFrom(...(Object.keys(NAMES) as Role[])) },
          ),
          spelling: fc.nat(20),
          value: fc.nat(20),
        }),
        { selector: (f) => f.role, maxLength: 8 },
      ),
      other: fc.subarray(OTHER),
    }),
  );
  /** Whether a spelling names two roles (`reason` is a write's reason and an enqueue's cause). */
  const spellings = (Object.values(NAMES) as readonly (readonly string[])[]).flat();
  const shared = (name: string) => spellings.filter((n) => n === name).length > 1;

  it("reads the same fields from a line whatever the order and quoting of its pairs", () => {
    let read = 0;
    fc.assert(
      fc.property(line, fc.nat(), fc.nat(), (l, shift, quoting) => {
        const pairs = l.pairs
          .map((f) => {
            const names = NAMES[f.role];
            const name = names[f.spelling % names.length];
            return [
              f.spelling % 3 === 0 ? name.toUpperCase() : name,
              VALUES[f.role][f.value % VALUES[f.role].length],
            ];
          })
          .filter(([name]) => !shared(name.toLowerCase()));
        const text = (ps: string[][], quote: (i: number) => boolean) =>
          [
            l.tag,
            ...ps.map(([n, v], i) => `${n}=${quote(i) || v.includes(" ") ? JSON.stringify(v) : v}`),
            ...l.other,
          ].join(" ");
        const msg = text(pairs, () => false);
        const k = shift % Math.max(1, pairs.length);
        const moved = [...pairs.slice(k), ...pairs.slice(0, k)].reverse();
        const other = text(moved, (i) => ((quoting >> i) & 1) === 1);
        const want = parseStageMessage(msg, msg.indexOf("STAGE"));
        const got = parseStageMessage(other, other.indexOf("STAGE"));
        expect(got.ok, other).toBe(want.ok);
        if (!want.ok || !got.ok) return;
        read++;
        expect(got.fields, `${msg}\n${other}`).toStrictEqual(want.fields);
        expect(got.warnings?.sort(), other).toStrictEqual(want.warnings?.sort());
      }),
      { numRuns: 3000 },
    );
    // Many of these lines are odd on purpose (no key, a bad value): still, a good share reads.
    expect(read).toBeGreaterThan(300);
  });
});
