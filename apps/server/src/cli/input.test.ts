import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { openTraceInput, upToDamage } from "./input.ts";
import { readTraceFile } from "./read-trace-file.ts";

const STAGE = join(import.meta.dirname, "../../../../packages/trace/fixtures/stage");

/** A klog log of several megabytes: the fixture's lines again and again, times moving on. */
function bigLog(): string {
  const lines = readFileSync(join(STAGE, "create-canonical.log"), "utf8").trimEnd().split("\n");
  const out: string[] = [];
  for (let round = 0; out.length < 40_000; round++) {
    const mm = String(round % 60).padStart(2, "0");
    for (const l of lines) out.push(l.replace(/^(I\d{4} \d\d:)\d\d/, `$1${mm}`));
  }
  return out.join("\n") + "\n";
}

describe("trace input", () => {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-input-"));
  const text = bigLog();
  const plain = join(dir, "big.log");
  writeFileSync(plain, text);
  const gz = join(dir, "big.log.gz");
  writeFileSync(gz, gzipSync(text));
  // Windows PowerShell's `>`: UTF-16LE after a byte-order mark.
  const utf16 = join(dir, "big-utf16.log");
  writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));

  it("yields the text of a file, plain, gzip or UTF-16, as UTF-8, and counts what it read", async () => {
    expect(text.length).toBeGreaterThan(3 << 20); // several chunks
    for (const [path, onDisk, readBack] of [
      [plain, text.length, true],
      [gz, readFileSync(gz).length, false],
      [utf16, 2 + 2 * text.length, false],
    ] as const) {
      const input = await openTraceInput(path);
      // Only a plain file's bytes are its text's at their offsets, to read lines back from.
      expect(input.readBack).toBe(readBack);
      const parts: Buffer[] = [];
      // A chunk is valid until the next is asked for: keep copies.
      for await (const c of input.chunks) parts.push(Buffer.from(c));
      expect(Buffer.concat(parts).toString("utf8")).toBe(text);
      expect(input.bytesRead()).toBe(onDisk);
    }
  });

  it("keeps a chunk intact until the next is asked for, and stops early cleanly", async () => {
    const bytes = readFileSync(plain);
    const input = await openTraceInput(plain);
    let offset = 0;
    let seen = 0;
    for await (const c of input.chunks) {
      const copy = Buffer.from(c);
      // Long enough for the read ahead to land: it must not land in this chunk.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(Buffer.compare(Buffer.from(c), copy)).toBe(0);
      expect(Buffer.compare(copy, bytes.subarray(offset, offset + c.length))).toBe(0);
      offset += c.length;
      if (++seen === 2) break; // the finally closes the file with a read in flight
    }
    expect(seen).toBe(2);
  });

  it("reads a multi-chunk file into the same events as the whole text at once", async () => {
    const whole = readTraceText(text, { year: 2026 }).events;
    expect(whole.length).toBeGreaterThan(20_000);
    for (const path of [plain, gz]) {
      const events: TraceEvent[] = [];
      await readTraceFile(path, (e) => events.push(e), { year: 2026 });
      expect(events).toEqual(whole);
    }
  });

  it("reads a gzip file cut short up to the cut, and says where the data stops", async () => {
    const whole = readFileSync(gz);
    const cut = join(dir, "cut.log.gz");
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const reader = await readTraceFile(cut, () => {});
    const all = readTraceText(text, { year: 2026 }).events.length;
    expect(reader.events).toBeGreaterThan(all * 0.3);
    expect(reader.events).toBeLessThan(all);
    const stop = reader.diagnostics.find((d) => d.message.startsWith("the data stops here"));
    expect(stop).toMatchObject({ level: "warn" });
    expect(stop!.message).toContain("damaged gzip data: unexpected end of file");
    // Cut inside the gzip header: nothing decompressed, nothing to read — an error, as before.
    const stub = join(dir, "stub.log.gz");
    writeFileSync(stub, whole.subarray(0, 6));
    await expect(readTraceFile(stub, () => {})).rejects.toThrow(/corrupt gzip data/);
  });

  it("reads every byte zlib decompresses of a gzip file cut short, as zcat and the page do", async () => {
    // Cut in its last data, its trailer, or between: what zlib makes of the bytes there are.
    const small = gzipSync(readFileSync(join(STAGE, "create-canonical.log")));
    for (const keep of [small.length - 4, small.length - 8, small.length - 30, 600]) {
      const bytes = small.subarray(0, keep);
      const decompressed = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
      const cut = join(dir, `cut-${keep}.log.gz`);
      writeFileSync(cut, bytes);
      const events: TraceEvent[] = [];
      const reader = await readTraceFile(cut, (e) => events.push(e), { year: 2026 });
      expect(events).toEqual(readTraceText(decompressed, { year: 2026 }).events);
      // Said at the line it stops in: the last, cut short — not one before.
      expect(reader.diagnostics.find((d) => d.message.startsWith("the data stops"))).toMatchObject({
        line: decompressed.split("\n").length,
        level: "warn",
      });
    }
  });

  it("reads all of a gzip file whose check fails at its end, and says the lines may be corrupt", async () => {
    // Small (decompressed in one call) and big (many): the CRC32, or the size, of the trailer off.
    const small = readFileSync(join(STAGE, "create-canonical.log"), "utf8");
    for (const [whole, at, check] of [
      [small, 8, "data"],
      [small, 4, "length"],
      [text, 8, "data"],
    ] as const) {
      const bytes = gzipSync(whole);
      bytes[bytes.length - at] ^= 0x01;
      const flipped = join(dir, `flipped-${check}-${whole.length}.log.gz`);
      writeFileSync(flipped, bytes);
      const events: TraceEvent[] = [];
      const reader = await readTraceFile(flipped, (e) => events.push(e), { year: 2026 });
      expect(events).toEqual(readTraceText(whole, { year: 2026 }).events);
      expect(reader.diagnostics.at(-1)).toEqual({
        line: whole.split("\n").length,
        level: "warn",
        message: `the gzip data failed its check (incorrect ${check} check): every line was read, but any of them may be corrupt`,
      });
    }
  });

  it("reads a gzip file broken inside its data up to the damage", async () => {
    // Stored (level 0) blocks: the second one's length check broken, the first one's lines whole.
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} of a log that is not a trace`);
    const whole = lines.join("\n") + "\n";
    const bytes = gzipSync(whole, { level: 0 });
    const second = 10 + 5 + bytes.readUInt16LE(11);
    expect(second).toBeLessThan(bytes.length - 8);
    bytes[second + 3] ^= 0xff;
    const broken = join(dir, "broken.log.gz");
    writeFileSync(broken, bytes);
    const input = await openTraceInput(broken);
    const stops: string[] = [];
    const parts: Buffer[] = [];
    const damage = { inputStopped: (why: string) => stops.push(why), inputFailedCheck: () => {} };
    for await (const c of upToDamage(input.chunks, damage)) parts.push(Buffer.from(c));
    expect(stops).toEqual(["damaged gzip data: invalid stored block lengths"]);
    const read = Buffer.concat(parts).toString("utf8");
    // What decompressed is the text's beginning: at least half of what came before the damage.
    expect(whole.startsWith(read)).toBe(true);
    expect(read.length).toBeGreaterThan(bytes.readUInt16LE(11) / 2);
  });
});
