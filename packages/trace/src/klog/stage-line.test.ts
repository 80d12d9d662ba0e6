import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseStageMessage } from "./stage-line.ts";
import { fastStage } from "./fast-stage.ts";

const parse = (msg: string) => {
  const r = parseStageMessage(msg, msg.indexOf("STAGE/"));
  if (!r.ok) throw new Error(r.message);
  return r.event;
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
  });
});

describe("the fast path", () => {
  const token = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/);
  const line = fc.oneof(
    fc
      .record({
        k: token,
        rv: fc.nat(99999),
        old: fc.option(fc.nat(99999)),
        kind: fc.constantFrom("Foo", "Deployment"),
        ev: fc.constantFrom("add", "update", "delete"),
      })
      .map(
        (r) =>
          `STAGE/watch kind=${r.kind} event=${r.ev} key=ns/${r.k} rv=${r.rv}${r.old === null ? "" : ` oldRv=${r.old}`}`,
      ),
    fc
      .record({
        k: token,
        len: fc.nat(50),
        cause: fc.constantFrom("", " cause=watch", " cause=resync", " cause=retry", " cause=bogus"),
      })
      .map((r) => `STAGE/enqueue key=ns/${r.k} len=${r.len}${r.cause}`),
    fc
      .record({ k: token, w: fc.nat(8) })
      .map((r) => `STAGE/dequeue key=ns/${r.k} len=0 worker=${r.w}`),
    fc
      .record({
        k: token,
        rv: fc.nat(99999),
        found: fc.constantFrom("", " found=false", " found=true"),
      })
      .map((r) => `STAGE/read key=ns/${r.k} rv=${r.rv}${r.found}`),
    fc
      .record({
        k: token,
        verb: fc.constantFrom("create", "update", "updateStatus", "patch", "frob"),
        res: fc.constantFrom("deployments", "foos"),
        status: fc.boolean(),
        code: fc.constantFrom(200, 201, 409),
        rv: fc.option(fc.nat(99999)),
        reason: fc.constantFrom("", " reason=", " reason=Conflict"),
        fields: fc.constantFrom(
          "",
          " fields=status.a,status.b",
          " changed=false",
          " changed=status.x",
        ),
      })
      .map(
        (r) =>
          `STAGE/write verb=${r.verb} target=${r.res}/ns/${r.k}${r.status ? "/status" : ""} code=${r.code}${r.rv === null ? "" : ` rv=${r.rv}`}${r.reason}${r.fields}`,
      ),
  );

  it("builds exactly what the general parser builds, whenever it answers", () => {
    let fastHits = 0;
    fc.assert(
      fc.property(line, (msg) => {
        const fast = fastStage(msg, 0);
        const general = parseStageMessage(msg, 0);
        if (fast) {
          fastHits++;
          expect(general.ok).toBe(true);
          if (general.ok) expect(fast).toEqual(general.event);
        }
      }),
      { numRuns: 500 },
    );
    expect(fastHits).toBeGreaterThan(200);
  });
});
