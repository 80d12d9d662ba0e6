/**
 * The klog reader's byte path (lines read on their bytes: header, STAGE tag, canonical STAGE
 * lines, noise, success lines) reads exactly what the text path reads: the same events — fields,
 * their types, property order, raw text, line numbers, seqs — the same diagnostics and counts,
 * whatever the chunking (cuts inside lines and inside multi-byte characters) and the decoder.
 */
import { Buffer } from "node:buffer";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TraceReader, type ReaderOptions } from "./trace-reader.ts";
import { readTraceText } from "./read-trace.ts";
import { fixture, FIXTURES } from "../testing/fixtures.ts";
import { readStageLine } from "../klog/stage-line.ts";
import { stageFields } from "../klog/stage-fields.ts";
import { LineSplitter } from "../lines/splitter.ts";

/** xorshift32: the same logs in every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const pad = (n: number, w: number) => String(n).padStart(w, "0");

const KEYS = ["ns-1/foo-1", "ns-2/foo-22", "default/example-foo", "a/b", "x", "ns/é-foo", "ns/😀"];
const SOURCES = [
  "controller.go:133",
  "controller.go:338",
  "controller.go:207",
  "pkg/controller/controller.go:256",
  "reflector.go:376",
  "event.go:377",
  "k8s.io/client-go/tools/cache/shared_informer.go:311",
  "rexlector.go:376",
];

/** A STAGE message: mostly canonical, often with one twist the fast path must get right. */
function stageMessage(r: Rand): string {
  const key = pick(r, KEYS);
  const rv = String(1000 + Math.floor(r() * 5000));
  const canonical = [
    `STAGE/watch kind=Foo event=${pick(r, ["add", "update", "delete"])} key=${key} oldRv=${rv} rv=${rv}`,
    `STAGE/watch kind=Deployment event=update name=${key}-dep key=${key} rv=${rv}`,
    `STAGE/watch kind=Foo event=add key=${key}`,
    `STAGE/watch kind=Foo event=add key= rv=${rv}`,
    `STAGE/watch kind=Foo event=add ns=ns-1 key=${key} rv=${rv} oldRv=${rv}`,
    `STAGE/enqueue key=${key} len=${Math.floor(r() * 4)}`,
    `STAGE/enqueue key=${key} len=1 cause=${pick(r, ["watch", "resync", "retry", "other"])}`,
    `STAGE/enqueue key=${key} cause=resync`,
    `STAGE/dequeue key=${key} len=0 worker=${1 + Math.floor(r() * 3)}`,
    `STAGE/dequeue key=${key} worker=1`,
    `STAGE/read key=${key} rv=${rv} generation=1`,
    `STAGE/read key=${key} rv=${rv}`,
    `STAGE/read key=${key} rv=${rv} found=${pick(r, ["false", "true", "no"])}`,
    `STAGE/write verb=updateStatus target=foos/${key}/status rv=${rv} code=200`,
    `STAGE/write verb=create target=deployments/${key} code=201`,
    `STAGE/write verb=update target=deployments/${key} code=409 reason=Conflict`,
    `STAGE/write verb=update target=foos/${key}/status code=200`,
    `STAGE/write verb=update target=deployments/${key} rv=${rv} changed=true fields=spec.replicas,,status`,
    `STAGE/write verb=patch key=${key} target=deployments/${key} code=200 worker=2`,
    `STAGE/write verb=delete target=foos code=200`,
    `STAGE/write verb=update target=deployments/ns/ code=200`,
  ];
  let m = pick(r, canonical);
  switch (Math.floor(r() * 14)) {
    case 0:
      m = m.replace(" ", "\t");
      break;
    case 1:
      m += ` extra=${pick(r, ["1", '"quoted value"', "{}", "é"])}`;
      break;
    case 2:
      m = m.replace("key=", 'key="') + '"';
      break;
    case 3:
      m += " positional";
      break;
    case 4:
      m = m.replace(/ (\w+)=/, " $1=$1x=");
      break;
    case 5:
      m = m.replace("STAGE/", pick(r, ["STAGE/Bogus ", "STAGE/WATCH", "STAGE/", "STAGE/read\t"]));
      break;
    case 6:
      m = m.replace(/rv=\d+/, "rv=");
      break;
    case 7:
      m += ` key=${pick(r, [...KEYS, ""])}`;
      break;
    case 8:
      m = m.replace(/len=\d/, pick(r, ["len=x", "len=12345678901234567", "len=-1"]));
      break;
    case 9:
      m += "  ";
      break;
    case 10: {
      // A tab between fields: a separator, as a space is.
      const sp = m.lastIndexOf(" ");
      m = m.slice(0, sp) + "\t" + m.slice(sp + 1);
      break;
    }
    default:
      break;
  }
  return m;
}

function otherMessage(r: Rand): string {
  const key = pick(r, KEYS);
  return pick(r, [
    `"Processing object" object="${key}"`,
    `"Successfully synced" objectName="${key}"`,
    `"Successfully synced" objectName="${key}" extra="1"`,
    `"Successfully synced" objectName="a"b"`,
    `"Successfully synced" objectName="a\\b"`,
    `"Successfully synced" objectName=""`,
    `"Successfully synced" objectName="`,
    `Successfully synced '${key}'`,
    `"Error syncing; requeuing for later retry" err="boom" objectReference="${key}"`,
    `error syncing '${key}': boom, requeuing`,
    `"Syncing" objectName="${key}" KEY="${key}"`,
    `Listing and watching *v1alpha1.Foo from pkg/mod/reflector.go:285`,
    `"Event occurred" object="${key}" kind="Foo" reason="Synced" message="Foo synced successfully"`,
    `msg STAGE/read key=${key} rv=1`,
    `"STAGE/read" key="${key}" resourceVersion="5"`,
    `"unterminated STAGE/read key=${key}`,
    `plain words, no fields ünïcödé`,
    ``,
  ]);
}

function header(r: Rand, t: number): string {
  const d = new Date(t);
  const lv = pick(r, ["I", "I", "I", "W", "E", "F"]);
  const us = pad((t % 1000) * 1000 + Math.floor(r() * 1000), 6);
  const hms = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  return `${lv}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)} ${hms}.${us} ${" ".repeat(1 + Math.floor(r() * 3))}48211 ${pick(r, SOURCES)}] `;
}

/** A klog log of `n` lines: mostly well-formed, with prefixes, damaged headers and foreign lines. */
function klogLog(seed: number, n: number): string {
  const r = rng(seed);
  // Starts in late December: some logs cross into January (the year moves on).
  let t = Date.UTC(2026, 11, 31, 23, 59, 0);
  // A foreign first line with a date: the year must not be taken from it (no klog header).
  const lines: string[] = seed % 3 === 0 ? ["started 2023-05-06T07:08:09Z by systemd"] : [];
  for (let i = 0; i < n; i++) {
    t += Math.floor(r() * 2000);
    const msg = r() < 0.6 ? stageMessage(r) : otherMessage(r);
    let line = header(r, t) + msg;
    const twist = r();
    if (twist < 0.03) line = pick(r, ["2026-12-31T23:59:00.000000Z ", "stderr F "]) + line;
    else if (twist < 0.05) line = line.replace(/^I(\d\d)/, "I13");
    else if (twist < 0.06) line = line.replace("] ", " ");
    else if (twist < 0.07) line = line.replace(".go:", ".go x:");
    else if (twist < 0.08) line = msg;
    else if (twist < 0.09) line = "";
    else if (twist < 0.1) line = line.slice(0, Math.floor(r() * line.length));
    else if (twist < 0.11) line += "\r";
    else if (twist < 0.12) line = line.replace(" ", " \r ");
    lines.push(line);
  }
  return lines.join("\n") + (r() < 0.5 ? "\n" : "");
}

/** Bytes of the text, with a byte-order mark and bytes that are not UTF-8 now and then. */
function withOddBytes(text: string, r: Rand): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const out: number[] = r() < 0.3 ? [0xef, 0xbb, 0xbf] : [];
  for (const b of bytes) {
    out.push(b);
    if (b === 61 && r() < 0.002) out.push(pick(r, [0x80, 0xff, 0xc3]));
  }
  return new Uint8Array(out);
}

/** Cuts at random places, down to single bytes (inside lines and characters). */
function chunks(bytes: Uint8Array, r: Rand, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = 1 + Math.floor(r() ** 3 * max);
    out.push(bytes.slice(at, at + n));
    at += n;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const latin1 = new TextDecoder("latin1");
/** Like the server's decoder: ASCII as Latin-1 (a different route to the same string). */
function asciiFirst(bytes: Uint8Array): string {
  for (const b of bytes) if (b >= 0x80) return utf8.decode(bytes);
  return latin1.decode(bytes);
}

function readChunks(parts: Uint8Array[], opts: ReaderOptions) {
  const reader = new TraceReader(opts);
  const events = [];
  for (const p of parts) events.push(...reader.push(p));
  events.push(...reader.end());
  return { events, reader };
}

function expectSame(text: string, bytes: Uint8Array, r: Rand, opts: ReaderOptions, max: number) {
  // The text path: the decoded text, whole, as one string.
  const want = readTraceText(utf8.decode(bytes), opts);
  for (const decode of [undefined, asciiFirst]) {
    const got = readChunks(chunks(bytes, r, max), { ...opts, decode });
    expect(JSON.stringify(got.events)).toBe(JSON.stringify(want.events));
    expect(got.events).toEqual(want.events);
    const a = got.reader;
    const b = want.reader;
    expect(a.diagnostics).toEqual(b.diagnostics);
    expect([a.diagnosticCount, a.lines, a.noiseLines, a.recognizedLines, a.format]).toEqual([
      b.diagnosticCount,
      b.lines,
      b.noiseLines,
      b.recognizedLines,
      b.format,
    ]);
  }
  return want.events.length;
}

describe("the klog byte path", () => {
  it("reads generated logs as the text path does, in any chunking and with either decoder", () => {
    let events = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed * 7919);
      const text = klogLog(seed, 300);
      const bytes = withOddBytes(text, r);
      const opts: ReaderOptions = pick(r, [
        { year: 2026 },
        { year: 2026, keepNoise: true },
        { now: () => new Date(Date.UTC(2025, 5, 1)) },
      ]);
      events += expectSame(text, bytes, r, opts, pick(r, [8, 200, 5000]));
    }
    expect(events).toBeGreaterThan(5000);
  });

  it("reads a log bigger than the splitter's 64 KiB windows in big random chunks", () => {
    const r = rng(4242);
    const text = klogLog(99, 8000);
    expect(text.length).toBeGreaterThan(400_000);
    expectSame(text, new TextEncoder().encode(text), r, { year: 2026 }, 200_000);
  });

  it("reads a chunk pushed twice as it reads the text twice (equal windows, one after the other)", () => {
    const text = [
      "I1202 09:00:00.000001   1 controller.go:1] note STAGE/read key=a/b rv=1",
      "I1202 09:00:00.000002   1 controller.go:2] a plain note",
      "",
    ].join("\n");
    const bytes = new TextEncoder().encode(text);
    const want = readTraceText(text + text, { year: 2026 });
    const got = readChunks([bytes, bytes.slice()], { year: 2026 });
    expect(got.events.map((e) => e.stage)).toEqual(["read", "note", "read", "note"]);
    expect(got.events).toEqual(want.events);
  });

  // A Node Buffer: its slice() is a view, not a copy, so a reader that kept a "copy" made by
  // slice() would see it change when the buffer is refilled.
  it("reads a log pushed through one Buffer refilled for every chunk as the text path does", () => {
    const r = rng(77);
    const text = klogLog(12, 2000);
    const bytes = new TextEncoder().encode(text);
    const want = readTraceText(text, { year: 2026 });
    const reader = new TraceReader({ year: 2026 });
    const events = [];
    const buffer = Buffer.alloc(4096);
    for (let at = 0; at < bytes.length;) {
      const n = Math.min(1 + Math.floor(r() * buffer.length), bytes.length - at);
      buffer.set(bytes.subarray(at, at + n));
      events.push(...reader.push(buffer.subarray(0, n)));
      buffer.fill(0x41);
      at += n;
    }
    events.push(...reader.end());
    expect(events).toEqual(want.events);
    expect(reader.diagnostics).toEqual(want.reader.diagnostics);
  });

  it("takes no year from a foreign line before the first header (the text path decides it)", () => {
    const text = [
      "started 2023-05-06T07:08:09Z by systemd",
      "I1202 09:00:00.000001   1 controller.go:1] STAGE/read key=a/b rv=1",
      "",
    ].join("\n");
    const opts = { now: () => new Date(Date.UTC(2025, 11, 10)) };
    const want = readTraceText(text, opts);
    const got = readChunks([new TextEncoder().encode(text)], opts);
    expect(new Date(got.events[0].ts / 1000).getUTCFullYear()).toBe(2025);
    expect(got.events).toEqual(want.events);
    expect(got.reader.diagnostics).toEqual(want.reader.diagnostics);
  });

  it.each(readdirSync(FIXTURES + "klog").filter((f) => f.endsWith(".log")))(
    "reads the fixture %s as the text path does",
    (f) => {
      const text = fixture(`klog/${f}`);
      const r = rng(f.length);
      for (let i = 0; i < 20; i++) {
        expectSame(text, new TextEncoder().encode(text), r, { year: 2026 }, 64);
      }
    },
  );
});

describe("readStageLine", () => {
  const f = stageFields();

  it("reads a key, and a write's key from its target, the same again and again", () => {
    const read = (line: string) => {
      const bytes = new TextEncoder().encode(line);
      const problem = readStageLine(bytes, line, 0, 0, line.length, f, []);
      return problem === undefined ? f.key : problem;
    };
    for (let i = 0; i < 3; i++) {
      expect(read("STAGE/read key=default/example-foo rv=1")).toBe("default/example-foo");
      expect(read("STAGE/write verb=create target=deployments/ns/other code=201")).toBe("ns/other");
      expect(read("STAGE/dequeue key=default/example-foo len=0 worker=1")).toBe(
        "default/example-foo",
      );
    }
  });
});

describe("LineSplitter with a byte sink", () => {
  it("hands ASCII lines over as bytes, and other lines as text, numbered as one stream", () => {
    const s = new LineSplitter();
    const got: string[] = [];
    const text = (l: string, n: number) => got.push(`t${n}:${l}`);
    const bytes = (_b: Uint8Array, t: string, a: number, b: number, n: number) =>
      got.push(`b${n}:${t.slice(a, b)}`);
    s.push(new TextEncoder().encode("one\r\ntwo\nthr"), text, bytes);
    s.push(new TextEncoder().encode("ee\nfür\nfive\n"), text, bytes);
    s.push("six\n", text, bytes);
    s.end(text);
    // "five" shares its chunk with "für": still bytes (a character now and then costs one line).
    expect(got).toEqual(["b1:one", "b2:two", "b3:three", "t4:für", "b5:five", "t6:six"]);
  });

  it("leaves the end of an over-long line to the text sink, which reports it", () => {
    const s = new LineSplitter(undefined, 10);
    const got: string[] = [];
    const text = (l: string, n: number, _t: boolean, overlong?: number) =>
      got.push(`t${n}:${l}:${overlong}`);
    const bytes = (_b: Uint8Array, t: string, a: number, b: number, n: number) =>
      got.push(`b${n}:${t.slice(a, b)}`);
    s.push(new TextEncoder().encode("0123456789abcdef"), text, bytes);
    s.push(new TextEncoder().encode("xy\nok\n"), text, bytes);
    s.end(text);
    expect(got).toEqual(["t1::18", "t2:ok:undefined"]);
  });
});
