import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { STAGES } from "../event.ts";
import { parseStageMessage } from "./stage-line.ts";
import { readStageBytes } from "./stage-bytes.ts";
import { stageEvent, stageFields } from "./stage-fields.ts";
import { NAMES, ROLES_BY_STAGE, type Role } from "./spellings.ts";

const parse = (msg: string) => {
  const r = parseStageMessage(msg, msg.indexOf("STAGE/"));
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

  it("reads klog's structured form, the stage in its stage= field", () => {
    expect(parseStageMessage('"STAGE" stage="read" key="ns/a" rv="7" generation=2', 0)).toEqual({
      ok: true,
      fields: { ...stageFields(), key: "ns/a", stage: "read", rv: "7", generation: 2 },
    });
  });
});

describe("the byte path", () => {
  const f = stageFields();
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
    merged: ["dirty", "processing", "false", "Dirty", "no", "maybe"],
    cause: ["watch", "resync", "retry", "requeue", "bogus"],
    causeSeq: ["12", "x"],
    delay: ["250", "5ms", "1.5s", "soon"],
  };
  const stage = fc.constantFrom(...STAGES);
  const line = stage.chain((st) =>
    fc
      .record({
        tag: fc.constantFrom("bare", "bare", "infos", "structured"),
        fields: fc.uniqueArray(
          fc.record({
            // Mostly the stage's own roles; another stage's field is kept in `extra`.
            role: fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom(...ROLES_BY_STAGE[st]) },
              { weight: 1, arbitrary: fc.constantFrom(...(Object.keys(NAMES) as Role[])) },
            ),
            spelling: fc.nat(20),
            value: fc.nat(20),
            quoted: fc.boolean(),
          }),
          { selector: (f) => f.role, maxLength: 8 },
        ),
        // Fields of no role (kept in `extra` as written, an empty one absent), and what the
        // general path reads otherwise: a positional word, a repeated field, `stage=`, a name
        // that is no plain name.
        extra: fc.constantFrom(
          "",
          "",
          "",
          " attempt=2",
          ' logger="sample"',
          " Attempt=x a.b-c_d=1",
          " attempt=",
          " attempt= attempt=3",
          " attempt=1 attempt=",
          " attempt=1 attempt=2",
          " __proto__=1",
          " _x=y",
          " 9x=1",
          " a:b=1",
          " stage=write",
          " STAGE=x",
          " word",
          " key=ns/z",
        ),
      })
      .map((r) => {
        const pairs = r.fields.map((f) => {
          const names = NAMES[f.role];
          const name = names[f.spelling % names.length];
          const values = VALUES[f.role];
          const v = values[f.value % values.length];
          return `${f.spelling % 3 === 0 ? name.toUpperCase() : name}=${f.quoted || v.includes(" ") ? JSON.stringify(v) : v}`;
        });
        const body = pairs.join(" ") + r.extra;
        if (r.tag === "structured") return `"STAGE" stage="${st}" ${body}`;
        if (r.tag === "infos") return `"STAGE/${st}" ${body}`;
        return `STAGE/${st} ${body}`;
      }),
  );

  it("builds exactly what the general parser builds, property for property, whenever it answers", () => {
    let hits = 0;
    let withExtra = 0;
    fc.assert(
      fc.property(line, (msg) => {
        // Inside a longer text, as in a decoded window: nothing past the line's end is read.
        const text = `x\n${msg}\nkey=zz other=1\n`;
        const bytes = new TextEncoder().encode(text);
        const got = readStageBytes(bytes, text, 2, 2 + msg.length, f);
        const general = parseStageMessage(
          msg,
          msg.startsWith('"STAGE" ') ? 0 : msg.indexOf("STAGE/"),
        );
        if (got) {
          hits++;
          if (f.extra !== undefined) withExtra++;
          if (!general.ok) throw new Error(`${msg}: ${general.message}`);
          expect(general.warnings, msg).toBeUndefined();
          expect({ ...f, srcId: -1 }, msg).toStrictEqual(general.fields);
        }
      }),
      { numRuns: 3000 },
    );
    // Many of these lines are odd on purpose (no key, a bad value): it still reads a good share.
    expect(hits).toBeGreaterThan(200);
    expect(withExtra).toBeGreaterThan(100);
  });
});
