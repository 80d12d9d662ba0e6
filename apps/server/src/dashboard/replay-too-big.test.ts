/**
 * `loopscope replay` of a file whose events do not fit in the process's heap (a few MB of gzip
 * can hold GBs of log): it stops with a one-line reason and exit 1, where it died minutes later
 * with V8's out-of-memory stack dump and no word of why. A small heap (`--max-old-space-size`)
 * stands in for a big file.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loopscope } from "../testing/file-command.ts";

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-too-big-"));
  file = join(dir, "controller.log.gz");
  const lines: string[] = [];
  for (let i = 0; i < 400_000; i++) {
    const us = String(i % 1_000_000).padStart(6, "0");
    lines.push(
      `I1207 10:00:00.${us}       1 foo-controller.ts:314] STAGE/enqueue key=default/foo-${i % 100} len=${i % 5} cause=watch note=${"x".repeat(60)}`,
    );
  }
  // ~1 MB of gzip, ~260 MB of heap as events: far past the 80 MB heap below.
  await writeFile(file, gzipSync(lines.join("\n") + "\n"));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

it(
  "refuses a file too big for the heap with a one-line reason, exit 1",
  { timeout: 90_000 },
  () => {
    const r = loopscope(["replay", file, "--no-build", "--port", "7951"], undefined, {
      NODE_OPTIONS: "--max-old-space-size=80",
    });
    expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: "" });
    expect(r.err).toMatch(
      /^loopscope: .*controller\.log\.gz: too big to replay: its first \d+ events \(\d+ MB of the file read\) fill most of the 80 MB heap, and replay holds every event; .*loopscope stats FILE, which does not keep the events\n$/,
    );
  },
);
