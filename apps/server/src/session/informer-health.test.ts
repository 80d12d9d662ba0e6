import { expect, it } from "vitest";
import type { InformerHealth } from "@loopscope/protocol";
import { InformerHealthMonitor } from "./informer-health.ts";

/** client-node's ApiException for a refused list: its code, and the Status as its body. */
const refused = (code: number, message: string) => ({
  code,
  body: JSON.stringify({ kind: "Status", code, message }),
});

function monitor() {
  let t = Date.parse("2026-12-04T15:02:11Z");
  const m = new InformerHealthMonitor(() => new Date((t += 1000)));
  const heard: InformerHealth[] = [];
  m.onChange((now) => heard.push(now));
  return { m, heard };
}

it("a single failure followed by a list is a blip: nothing to tell", () => {
  const { m, heard } = monitor();
  m.informerFailed({ kind: "watch Foo", error: { statusCode: 401 }, attempt: 1, retryInMs: 200 });
  m.informerRecovered({ kind: "Foo", after: 1 });
  expect(heard).toEqual([]);
  expect(m.state()).toEqual({ failing: false });
});

it("failing from an informer's second refusal in a row, with its reason, until every one lists again", () => {
  const { m, heard } = monitor();
  m.informerFailed({ kind: "watch Foo", error: { statusCode: 401 }, attempt: 1, retryInMs: 200 });
  m.informerFailed({
    kind: "list Foo",
    error: refused(403, 'foos is forbidden: User "u" cannot list'),
    attempt: 2,
    retryInMs: 400,
  });
  expect(m.state()).toEqual({
    failing: true,
    kinds: ["Foo"],
    error: '403 Forbidden: foos is forbidden: User "u" cannot list',
    retryInMs: 400,
    at: "2026-12-04T15:02:13.000Z",
    since: "2026-12-04T15:02:12.000Z",
  });
  m.informerFailed({
    kind: "list Deployment",
    error: refused(401, "Unauthorized"),
    attempt: 2,
    retryInMs: 400,
  });
  expect(m.state()).toMatchObject({ kinds: ["Foo", "Deployment"], error: "401 Unauthorized" });
  m.informerRecovered({ kind: "Foo", after: 2 });
  expect(m.state()).toMatchObject({ failing: true, kinds: ["Deployment"] });
  m.informerRecovered({ kind: "Deployment", after: 2 });
  expect(m.state()).toEqual({ failing: false });
  expect(heard.map((h) => h.failing)).toEqual([true, true, true, false]);
});

it("leaves a cluster that does not answer, and the Foo API's 404, to their own monitors", () => {
  const { m, heard } = monitor();
  const econnrefused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  for (const attempt of [1, 2, 3]) {
    m.informerFailed({ kind: "list Deployment", error: econnrefused, attempt, retryInMs: 200 });
    m.informerFailed({
      kind: "list Foo",
      error: refused(404, "not found"),
      attempt,
      retryInMs: 200,
    });
  }
  expect(heard).toEqual([]);
});
