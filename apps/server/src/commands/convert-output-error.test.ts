/**
 * `convert -o OUT` that cannot write OUT's partial file (a folder the user may not write in; the
 * tests run as root, so the error is made here): the error names OUT, in words, not the hidden
 * partial file and its errno.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { run } from "./convert.ts";

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    createWriteStream: (path: string, opts?: object) => {
      if (!String(path).includes("denied.json.partial-")) return fs.createWriteStream(path, opts);
      const denied = Object.assign(new Error(`EACCES: permission denied, open '${path}'`), {
        code: "EACCES",
        syscall: "open",
        path,
      });
      const stream = new Writable({ write: (_c, _e, done) => done() });
      process.nextTick(() => stream.destroy(denied));
      return stream;
    },
  };
});

const JSONL = fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url));

let dir: string;
let stderr: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loopscope-convert-denied-"));
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("convert -o into a file it may not write", () => {
  it("says OUT: permission denied", async () => {
    const out = join(dir, "denied.json");
    expect(await run([JSONL, "--to", "chrome", "-o", out])).toBe(1);
    expect(stderr.join("")).toBe(`loopscope convert: ${out}: permission denied\n`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
