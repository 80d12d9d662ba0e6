/**
 * Readers against random and corrupted input: they never throw, every good line is kept as its
 * event (with its own line number), and diagnostics point at lines that exist and are not good.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TraceReader } from "./trace-reader.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import { encodeEvent, encodeHeader } from "../jsonl/format.ts";
import type { TraceEvent } from "../event.ts";

// DNS-1123 labels, as Kubernetes names are.
const name = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/);
/** The diagnostic of a line whose time goes back (see time-back.ts): about a good line. */
const TIME_BACK = /^time goes back /;
const key = fc.tuple(name, name).map(([a, b]) => `${a}/${b}`);
const rv = fc.nat(1_000_000).map(String);
const header = fc
  .record({
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    us: fc.nat(86_399_999_999),
    lv: fc.constantFrom("I", "W", "E"),
  })
  .map(({ mo, d, us, lv }) => {
    const p = (n: number, w: number) => String(n).padStart(w, "0");
    const s = Math.floor(us / 1e6);
    return `${lv}${p(mo, 2)}${p(d, 2)} ${p(Math.floor(s / 3600), 2)}:${p(Math.floor(s / 60) % 60, 2)}:${p(s % 60, 2)}.${p(us % 1e6, 6)}   4242 controller.go:131] `;
  });
const prefix = fc.constantFrom(
  "",
  "2026-12-02T09:14:06.031344123Z ",
  "Dec 02 09:14:06 forge sample-controller[4242]: ",
);

/** A STAGE line in one of the accepted styles, with the stage it must yield. */
const goodStage = fc.oneof(
  fc.tuple(key, rv).map(([k, r]) => ({
    stage: "watch",
    body: `STAGE/watch kind=Foo event=update key=${k} rv=${r} oldRv=${r}`,
  })),
  fc
    .tuple(key, fc.nat(9))
    .map(([k, n]) => ({ stage: "enqueue", body: `STAGE/enqueue object=${k} queue_len=${n}` })),
  key.map((k) => ({ stage: "dequeue", body: `STAGE/dequeue ${k}` })),
  fc
    .tuple(key, rv)
    .map(([k, r]) => ({ stage: "read", body: `"STAGE/read" key="${k}" resourceVersion="${r}"` })),
  key.map((k) => ({ stage: "write", body: `STAGE/write create deployment ${k}` })),
  fc.tuple(key, rv).map(([k, r]) => ({
    stage: "write",
    body: `STAGE/write verb=updateStatus target=foos/${k}/status rv=${r} code=200`,
  })),
  key.map((k) => ({ stage: "done", body: `"Successfully synced" objectName="${k}"` })),
);
const goodLine = fc
  .tuple(prefix, header, goodStage)
  .map(([p, h, s]) => ({ good: true as const, stage: s.stage, text: p + h + s.body }));

const junkLine = fc
  .oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.tuple(header, fc.string({ maxLength: 40 })).map(([h, s]) => `${h}STAGE/${s}`),
    fc.tuple(header, key).map(([h, k]) => `${h}"STAGE/read" key="${k}`),
    fc.tuple(header, fc.string({ maxLength: 40 })).map(([h, s]) => h + s),
    goodStage.map((s) => s.body.slice(0, Math.floor(s.body.length / 2))),
  )
  .map((text) => ({ good: false as const, stage: "", text: text.replace(/[\r\n]/g, " ") }));

function chunked(text: string, cuts: number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(prev, p));
    prev = p;
  }
  return out;
}

function readAll(chunks: Uint8Array[]) {
  const reader = new TraceReader({ year: 2026, format: undefined });
  const events: TraceEvent[] = [];
  for (const c of chunks) events.push(...reader.push(c));
  events.push(...reader.end());
  const analyzer = new Analyzer();
  for (const e of events) analyzer.push(e);
  analyzer.snapshot();
  return { reader, events };
}

describe("klog reader on random and corrupted input", () => {
  it("never throws, keeps every good line, and numbers its diagnostics", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(goodLine, junkLine), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (lines, cuts) => {
          // A first line that is klog makes the format klog (JSONL detection looks at line 1).
          const all = [
            {
              good: true as const,
              stage: "note",
              text: "I1202 09:00:00.000000   1 main.go:1] start",
            },
            ...lines,
          ];
          const { reader, events } = readAll(
            chunked(all.map((l) => l.text).join("\n") + "\n", cuts),
          );
          expect(reader.format).toBe("klog");
          const byLine = new Map(events.map((e) => [e.line, e]));
          all.forEach((l, i) => {
            if (!l.good) return;
            const e = byLine.get(i + 1);
            expect(e?.stage, `line ${i + 1}: ${l.text}`).toBe(l.stage);
          });
          for (const d of reader.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.line).toBeLessThanOrEqual(all.length);
            // Random times go back and forth: that is said of good lines, by design.
            if (d.level !== "info" && !TIME_BACK.test(d.message))
              expect(all[d.line - 1].good, `diagnostic on a good line: ${d.message}`).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("JSONL reader on corrupted input", () => {
  const event = fc
    // Times from a start: a ts that is a date in seconds would be read as seconds (ts-unit.ts).
    .tuple(key, fc.nat(9e8))
    .map(([k, ts]) => ({ seq: 0, ts, key: k, stage: "dequeue", worker: 1 }) as TraceEvent);
  const junk = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.json(),
    fc.constant('{"stage":"write","ts":1,"key":"a/b"}'),
  );

  it("never throws and keeps every good record in order", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            event.map((e) => ({ e })),
            junk.map((j) => ({ j: j.replace(/[\r\n]/g, " ") })),
          ),
          { maxLength: 30 },
        ),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.nat(40),
        (items, cuts, tear) => {
          let text = encodeHeader();
          const goodLines: number[] = [];
          items.forEach((it, i) => {
            if ("e" in it) {
              goodLines.push(i + 2);
              text += encodeEvent({ ...it.e, seq: i + 1 });
            } else text += it.j + "\n";
          });
          text += '{"seq":999,"ts":1,"key":"TORN/TAIL","stage":"dequeue"}'.slice(0, tear); // a torn tail
          const { events, reader } = readAll(chunked(text, cuts));
          const kept = events
            .filter((e) => e.stage === "dequeue" && e.key !== "TORN/TAIL" && e.worker === 1)
            .map((e) => e.seq);
          for (const n of goodLines) expect(kept).toContain(n - 1);
          for (const d of reader.diagnostics)
            if (!TIME_BACK.test(d.message)) expect(goodLines).not.toContain(d.line);
        },
      ),
      { numRuns: 300 },
    );
  });
});
