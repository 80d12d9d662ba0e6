/**
 * A generated corpus of malformed trace files — for the reader, the CLI and the browser's file
 * open alike. Every case mixes good lines in between its bad ones, and says which is which, so a
 * consumer can check the reader's contract on it (trace-reader.ts):
 *
 * - `good`: lines that must each come out as an event with the listed key (the good line's key
 *   is `good/l<line>`, unique in the file, so the check needs no line field — JSONL events have
 *   none).
 * - `bad`: lines that must each get a diagnostic carrying that line number.
 * - Lines in neither list (the header, foreign text in a klog log) are only required not to
 *   crash the reader.
 *
 * Pure TS (no node:*): the same cases feed the browser test. The gzip bomb needs zlib and is
 * built where it is used (apps/server/src/reliability).
 */

export interface CorpusCase {
  name: string;
  /** What kind of damage the case carries. */
  kind: string;
  bytes: Uint8Array;
  format: "jsonl" | "klog";
  good: { line: number; key: string }[];
  bad: number[];
}

/** A line of a case being built: good (yields an event), bad (needs a diagnostic), or other. */
type Part = { good: true } | { bad: string | Uint8Array } | { other: string | Uint8Array };

/** UTF-8 of a string (the package's environment declares no TextEncoder). */
const enc = {
  encode(s: string): Uint8Array {
    const out: number[] = [];
    let ascii = true;
    for (let i = 0; i < s.length && ascii; i++) ascii = s.charCodeAt(i) < 0x80;
    if (ascii) {
      const b = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
      return b;
    }
    for (const ch of s) {
      const c = ch.codePointAt(0) ?? 0;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        out.push(
          0xf0 | (c >> 18),
          0x80 | ((c >> 12) & 63),
          0x80 | ((c >> 6) & 63),
          0x80 | (c & 63),
        );
    }
    return new Uint8Array(out);
  },
};
const HEADER = '{"loopscope":"trace","version":1,"source":"corpus"}';

const goodJsonl = (line: number) =>
  JSON.stringify({ ts: 1_764_666_000_000_000 + line, key: `good/l${line}`, stage: "dequeue" });
const goodKlog = (line: number) =>
  `I1202 09:00:00.${String(line % 1e6).padStart(6, "0")}    4242 controller.go:200] STAGE/dequeue key=good/l${line}`;

const G: Part = { good: true };
const B = (bad: string | Uint8Array): Part => ({ bad });
const O = (other: string | Uint8Array): Part => ({ other });

/**
 * Builds a case from its lines (a JSONL case gets the header as line 1). `eol` joins lines;
 * `tail` is appended after the last line's terminator (a torn last line).
 */
function build(
  name: string,
  kind: string,
  format: "jsonl" | "klog",
  parts: Part[],
  opts: { eol?: string; header?: boolean } = {},
): CorpusCase {
  const eol = enc.encode(opts.eol ?? "\n");
  const chunks: Uint8Array[] = [];
  const good: CorpusCase["good"] = [];
  const bad: number[] = [];
  let line = 0;
  const add = (b: string | Uint8Array) => {
    chunks.push(typeof b === "string" ? enc.encode(b) : b, eol);
  };
  if (format === "jsonl" && opts.header !== false) {
    line++;
    add(HEADER);
  }
  for (const p of parts) {
    line++;
    if ("good" in p) {
      good.push({ line, key: `good/l${line}` });
      add(format === "jsonl" ? goodJsonl(line) : goodKlog(line));
    } else if ("bad" in p) {
      bad.push(line);
      add(p.bad);
    } else add(p.other);
  }
  return { name, kind, format, bytes: concat(chunks), good, bad };
}

/** good, bad, good, bad, …, good — around each bad line given. */
function around(bads: (string | Uint8Array)[]): Part[] {
  const parts: Part[] = [G];
  for (const b of bads) parts.push(B(b), G);
  return parts;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Deterministic bytes (xorshift), never "\n" — a newline would split the bad line in two. */
function noise(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const b = x & 0xff;
    out[i] = b === 10 ? 11 : b;
  }
  return out;
}

const bytes = (...b: number[]) => new Uint8Array(b);
const withBytes = (before: string, mid: Uint8Array, after: string) =>
  concat([enc.encode(before), mid, enc.encode(after)]);

const RECORD =
  '{"seq":7,"ts":1764666000000000,"key":"default/foo","stage":"write","verb":"update","target":"deployments/default/foo","code":200}';

export interface CorpusOptions {
  /** Length of the one very long line (default 50 MB; the browser test passes less). */
  longLine?: number;
}

/** The corpus: ≥ 50 cases, deterministic. */
export function badInputCorpus(opts: CorpusOptions = {}): CorpusCase[] {
  const longLine = opts.longLine ?? 50 * 1024 * 1024;
  const cases: CorpusCase[] = [];
  const j = (name: string, kind: string, bads: (string | Uint8Array)[]) =>
    cases.push(build(name, kind, "jsonl", around(bads)));

  // Binary data and NUL bytes.
  j("nul-bytes", "binary", [bytes(0, 0, 0, 0), withBytes('{"ts":1,', bytes(0), '"key":"a/b"}')]);
  j("random-binary", "binary", [noise(4096, 7), noise(17, 99)]);
  j("binary-then-json", "binary", [withBytes("", noise(64, 3), RECORD)]);
  j("control-chars", "binary", ["\u0001\u0002\u0003\u001b[31m", "\u007f\u0008\u0008"]);
  {
    // A klog log written across a crash: a NUL run where the file was extended but not written,
    // cutting a line short, and the restarted controller's first line right after the NULs; a
    // line of NULs alone; and a file that begins with NULs (its first line after them).
    const c = build("klog-nul-run", "binary", "klog", [
      B(withBytes("", new Uint8Array(4096), goodKlog(1))),
      G,
      B(withBytes(goodKlog(3).slice(0, 40), new Uint8Array(3000), goodKlog(3))),
      G,
      B(new Uint8Array(100)),
      G,
    ]);
    cases.push({
      ...c,
      good: [{ line: 1, key: "good/l1" }, { line: 3, key: "good/l3" }, ...c.good],
    });
  }

  // Invalid UTF-8: decoded with U+FFFD, so the line is unreadable JSON, not a crash.
  j("utf8-lone-continuation", "utf8", [bytes(0x80, 0x81, 0x82)]);
  j("utf8-ff-fe", "utf8", [bytes(0xff, 0xfe, 0x7b, 0x7d)]);
  j("utf8-overlong", "utf8", [bytes(0xc0, 0xaf, 0xe0, 0x80, 0xaf)]);
  j("utf8-surrogate", "utf8", [bytes(0xed, 0xa0, 0x80, 0x7b)]);
  j("utf8-truncated-sequence", "utf8", [withBytes('{"ts":1', bytes(0xe2, 0x82), "")]);
  j("utf8-outside-strings", "utf8", [withBytes('{"ts":1,"key":"a/b","stage":', bytes(0xff), "}")]);
  // In a key: no phantom Foo named "a/\uFFFDb" — a diagnostic (a record with a seq, which the
  // web's byte path would take).
  j("utf8-in-key", "utf8", [
    withBytes('{"seq":900,"ts":1,"key":"bad/', bytes(0xff), 'x","stage":"dequeue"}'),
    withBytes('{"ts":1,"key":"bad/', bytes(0xe2, 0x82), '","stage":"read"}'),
  ]);
  cases.push(
    build(
      "klog-utf8-in-key",
      "utf8",
      "klog",
      around([
        withBytes(
          "I1202 09:00:00.000000    4242 controller.go:200] STAGE/dequeue key=bad/",
          bytes(0xff),
          "x",
        ),
        withBytes(
          'I1202 09:00:00.000000    4242 controller.go:222] "Successfully synced" objectName="bad/',
          bytes(0xc3),
          '"',
        ),
      ]),
    ),
  );

  // Very long lines.
  j("long-line", "size", ['{"ts":1,"key":"a/b","stage":"note","text":"' + "a".repeat(longLine)]);
  cases.push(
    build("long-good-line", "size", "jsonl", [
      G,
      O(JSON.stringify({ ts: 1, key: "big/one", stage: "note", text: "b".repeat(1 << 20) })),
      G,
    ]),
  );

  // Truncated JSON: the same record cut at ten places.
  for (const cut of [1, 2, 8, 20, 40, 60, 80, 100, 120, RECORD.length - 1])
    j(`truncated-at-${cut}`, "truncated", [RECORD.slice(0, cut)]);
  {
    // A torn last line: no "\n" after it (a recording cut mid-write).
    const c = build("torn-tail", "truncated", "jsonl", [G, G]);
    const tail = enc.encode(RECORD.slice(0, 50));
    cases.push({ ...c, bytes: concat([c.bytes, tail]), bad: [c.good.length + 2] });
  }

  // Wrong types and shapes.
  j("ts-string", "types", ['{"ts":"1","key":"a/b","stage":"dequeue"}']);
  j("ts-missing", "types", ['{"key":"a/b","stage":"dequeue"}']);
  j("key-number", "types", ['{"ts":1,"key":42,"stage":"dequeue"}']);
  j("stage-unknown", "types", ['{"ts":1,"key":"a/b","stage":"explode"}']);
  j("stage-number", "types", ['{"ts":1,"key":"a/b","stage":3}']);
  j("write-no-verb", "types", ['{"ts":1,"key":"a/b","stage":"write","target":"x"}']);
  j("watch-bad-event", "types", [
    '{"ts":1,"key":"a/b","stage":"watch","kind":"Foo","event":"boom","name":"b"}',
  ]);
  j("done-no-outcome", "types", ['{"ts":1,"key":"a/b","stage":"done"}']);
  j("note-text-object", "types", ['{"ts":1,"key":"a/b","stage":"note","text":{}}']);
  j("json-scalars", "types", ["42", '"a string"', "true", "null", "[]", "[1,2,3]"]);
  j("stage-prototype-names", "types", [
    '{"ts":1,"key":"a/b","stage":"toString"}',
    '{"ts":1,"key":"a/b","stage":"__proto__"}',
    '{"ts":1,"key":"a/b","stage":"constructor"}',
  ]);

  // Huge and odd numbers.
  j("ts-overflow", "numbers", ['{"ts":1e400,"key":"a/b","stage":"dequeue"}']);
  j("ts-nan-literal", "numbers", ['{"ts":NaN,"key":"a/b","stage":"dequeue"}']);
  j("ts-hex", "numbers", ['{"ts":0x10,"key":"a/b","stage":"dequeue"}']);
  cases.push(
    build("huge-seq-then-plain", "numbers", "jsonl", [
      G,
      O('{"seq":1e300,"ts":1,"key":"huge/seq","stage":"dequeue"}'),
      G,
      O('{"seq":9007199254740993,"ts":1,"key":"unsafe/seq","stage":"dequeue"}'),
      G,
      O('{"seq":2.5,"ts":1,"key":"frac/seq","stage":"dequeue"}'),
      G,
      O('{"seq":-4,"ts":1,"key":"neg/seq","stage":"dequeue"}'),
      G,
    ]),
  );
  cases.push(
    build("huge-values-kept", "numbers", "jsonl", [
      G,
      O('{"ts":1e300,"key":"huge/ts","stage":"enqueue","len":1e308,"delayMs":-1e308}'),
      G,
      O('{"ts":-5,"key":"neg/ts","stage":"dequeue","worker":99999999999999999999}'),
      G,
    ]),
  );

  // Deep nesting: as a whole record (unreadable) and inside a readable one.
  j("deep-array", "nesting", ["[".repeat(100_000) + "]".repeat(100_000)]);
  j("deep-unclosed", "nesting", ["{" + '"a":{'.repeat(50_000)]);
  cases.push(
    build("deep-extra-kept", "nesting", "jsonl", [
      G,
      O(
        `{"ts":1,"key":"deep/extra","stage":"dequeue","extra":${"[".repeat(2000)}${"]".repeat(2000)}}`,
      ),
      G,
    ]),
  );

  // Prototype pollution attempts: kept as data, Object.prototype untouched.
  cases.push(
    build("proto-keys", "hostile", "jsonl", [
      G,
      O('{"ts":1,"key":"proto/a","stage":"dequeue","__proto__":{"polluted":"yes"}}'),
      G,
      O(
        '{"ts":1,"key":"proto/b","stage":"dequeue","constructor":{"prototype":{"polluted":"yes"}}}',
      ),
      G,
    ]),
  );

  // Line endings.
  cases.push(build("crlf-everywhere", "eol", "jsonl", around(["{broken"]), { eol: "\r\n" }));
  j("lone-cr-joins-lines", "eol", [`${RECORD}\r${RECORD}`]);
  cases.push(build("cr-only-line", "eol", "jsonl", [G, O("\r\r\r"), G]));
  // A lost newline: two records on one line (`cat` of a file whose last line had none), and a
  // record cut short with the next written after it. Each record that is whole is read.
  {
    const rec = (key: string, us: number) =>
      JSON.stringify({ ts: 1_764_666_000_000_000 + us, key, stage: "dequeue" });
    const c = build(
      "records-glued",
      "eol",
      "jsonl",
      around([
        rec("glued/a", 3) + rec("glued/b", 3),
        rec("glued/c", 5).slice(0, 30) + rec("glued/d", 5),
      ]),
    );
    const glued = [
      { line: 3, key: "glued/a" },
      { line: 3, key: "glued/b" },
      { line: 5, key: "glued/d" },
    ];
    cases.push({ ...c, good: [...c.good, ...glued] });
  }
  cases.push(build("only-blank-lines", "eol", "jsonl", [O(""), O("   "), O("\t"), G]));
  cases.push(build("klog-crlf", "eol", "klog", around(["STAGE/dequeue"]), { eol: "\r\n" }));

  // BOMs.
  {
    const c = build("bom-at-start", "bom", "jsonl", [G, G]);
    cases.push({ ...c, bytes: concat([bytes(0xef, 0xbb, 0xbf), c.bytes]) });
  }
  j("bom-mid-file", "bom", [withBytes("", bytes(0xef, 0xbb, 0xbf), RECORD)]);

  // Mixed klog and JSONL.
  j("klog-lines-in-jsonl", "mixed", [
    "I1202 09:00:00.000000    1 controller.go:1] STAGE/dequeue key=x/y",
    "E1202 09:00:00.000000    1 controller.go:1] error syncing",
  ]);
  cases.push(
    build("jsonl-lines-in-klog", "mixed", "klog", [
      G,
      O(RECORD),
      G,
      O('{"loopscope":"trace","version":1}'),
      G,
    ]),
  );
  cases.push(
    build("klog-bad-stage-lines", "mixed", "klog", [
      G,
      B("I1202 09:00:00.000000    1 controller.go:1] STAGE/"),
      G,
      B("I1202 09:00:00.000000    1 controller.go:1] STAGE/explode key=a/b"),
      G,
      B("I1202 09:00:00.000000    1 controller.go:1] STAGE/write"),
      G,
      O("\tcontinuation of a panic: goroutine 1 [running]:"),
      G,
    ]),
  );
  cases.push(
    build("klog-bad-headers", "mixed", "klog", [
      G,
      O("I9999 99:99:99.999999    1 controller.go:1] STAGE/dequeue key=odd/time"),
      G,
      O("I1302 25:61:61.000000 x y] weird"),
      G,
      O(noise(300, 11)),
      G,
    ]),
  );

  // Time going back an hour (a clock set back): read, and said once, in both formats.
  cases.push(
    build("time-back", "time", "jsonl", [
      G,
      O('{"seq":500,"ts":1764669600000000,"key":"time/a","stage":"dequeue"}'),
      O('{"seq":501,"ts":1764666000000000,"key":"time/a","stage":"read"}'),
      G,
    ]),
  );
  cases.push(
    build("klog-time-back", "time", "klog", [
      O("I1202 10:00:00.000000    4242 controller.go:200] STAGE/dequeue key=time/a"),
      O("I1202 09:00:00.500000    4242 controller.go:201] STAGE/read key=time/a"),
      G,
    ]),
  );

  // Headers out of place.
  j("second-header", "header", ['{"loopscope":"trace","version":1}']);
  j("header-version-99", "header", ['{"loopscope":"trace","version":99,"future":[1,2]}']);
  cases.push(
    build("no-header", "header", "jsonl", [B('{"ts":1,"key":"no/header","stage":"dequeue"}'), G], {
      header: false,
    }),
  );

  // Many bad lines: diagnostics are capped, counting is not.
  cases.push(
    build(
      "ten-thousand-bad-lines",
      "volume",
      "jsonl",
      Array.from({ length: 10_000 }, (_, i) => (i % 100 === 0 ? G : B(`junk ${i}`))),
    ),
  );

  // Strings that look like markup (must stay data; the browser test renders them).
  cases.push(
    build("markup-in-fields", "hostile", "jsonl", [
      G,
      O('{"ts":1,"key":"default/<img src=x onerror=alert(1)>","stage":"dequeue"}'),
      G,
      O('{"ts":1,"key":"a/b","stage":"note","text":"<script>alert(2)</script>"}'),
      G,
    ]),
  );

  return cases;
}
