/**
 * A trace whose lines end in a lone "\r" (`tr '\n' '\r'`, a classic Mac editor) reads as the same
 * trace with "\n": in the CLI's reader and in the page's (the replay worker's row reader).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RowDecoder } from "../index.ts";
import { readTraceText } from "./read-trace.ts";
import { chunked, fast } from "../testing/reader-paths.ts";

const PUBLIC = new URL("../../../../public/traces/", import.meta.url);
const enc = new TextEncoder();

describe("a trace with lone \\r line ends", () => {
  for (const name of ["create-foo.jsonl", "create-foo.klog.log"]) {
    const lf = readFileSync(new URL(name, PUBLIC), "utf8");
    const cr = lf.replaceAll("\n", "\r");

    it(`${name}: reads as with \\n`, () => {
      const want = readTraceText(lf, { year: 2026 });
      const got = readTraceText(cr, { year: 2026 });
      expect(got.events).toEqual(want.events);
      expect(got.reader.diagnostics).toEqual(want.reader.diagnostics);
      expect(got.reader.lines).toBe(want.reader.lines);
    });

    it(`${name}: reads as with \\n in the page's reader, in any chunking`, () => {
      const want = fast(chunked(enc.encode(lf), [4093]));
      for (const cuts of [[1, 2, 3], [4093, 8191], []]) {
        const got = fast(chunked(enc.encode(cr), cuts));
        expect(new RowDecoder().decode(got.batch)).toEqual(new RowDecoder().decode(want.batch));
        expect(got.diagnostics).toEqual(want.diagnostics);
        expect(got.lines).toBe(want.lines);
      }
    });
  }
});
