/**
 * A `resourceVersion` that is no uint64 (`abc`, `-1`) is refused on list, get and watch alike,
 * as kube-apiserver's storage layer parses it: a 500 Status without a reason, in
 * strconv.ParseUint's words (kubernetes/kubernetes#113939) — not served as if it were absent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { FOOS, RawClient } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
  await c.createFoo("rv");
});
afterAll(() => server.stop());

const invalid = (rv: string, why: string) => ({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: `resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": ${why}`,
  code: 500,
});

describe("a resourceVersion that is no uint64", () => {
  for (const [rv, why] of [
    ["abc", "invalid syntax"],
    ["-1", "invalid syntax"],
    ["18446744073709551616", "value out of range"],
  ]) {
    it(`${rv}: the same 500 on list, get and watch`, async () => {
      for (const path of [
        `${FOOS}?resourceVersion=${rv}`,
        `${FOOS}/rv?resourceVersion=${rv}`,
        `${FOOS}?watch=true&resourceVersion=${rv}`,
      ]) {
        const r = await c.get(path);
        expect(r.status, path).toBe(500);
        expect(r.body, path).toEqual(invalid(rv, why));
      }
    });
  }

  it("0, none or a number are served", async () => {
    for (const q of ["", "?resourceVersion=0", "?resourceVersion=1"])
      expect((await c.get(`${FOOS}${q}`)).status).toBe(200);
  });
});
