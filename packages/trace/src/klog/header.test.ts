/**
 * readHeaderBytes reads klog's header as its format says (a plain reading of it below), line
 * after line with one record.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { headerSpan, parseKlogHeader, readHeaderBytes, type HeaderSpan } from "./header.ts";

/**
 * klog's header at a line's start, `Lmmdd hh:mm:ss.uuuuuu pid file:line]`, read plainly: a date
 * and time in range, spaces then a pid, a location without spaces up to the first "]" whose last
 * ":" is followed by digits only and preceded by something.
 */
function plainHeader(line: string): HeaderSpan | undefined {
  const m = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) +(\d+) ([^ \]]*)\]/.exec(line);
  if (!m) return undefined;
  const [month, day, h, min, s, us, pid] = m.slice(2, 9).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || h > 23 || min > 59 || s > 60) {
    return undefined;
  }
  if (!/^.+:\d+$/.test(m[9])) return undefined;
  const close = m[0].length - 1;
  return {
    level: m[1] as HeaderSpan["level"],
    month,
    day,
    timeOfDayUs: ((h * 60 + min) * 60 + s) * 1_000_000 + us,
    pid,
    srcStart: close - m[9].length,
    srcEnd: close,
    msgStart: line[close + 1] === " " ? close + 2 : close + 1,
    start: 0,
  };
}

function expectSameAnswers(lines: string[]): void {
  const span = headerSpan();
  for (const line of lines) {
    // Inside a longer text, as in a decoded window; what follows the line is not read.
    const text = `${line}\n0123456789]`;
    const bytes = new TextEncoder().encode(text);
    const want = plainHeader(line);
    const got = readHeaderBytes(bytes, 0, line.length, span);
    expect(got, line).toBe(want !== undefined);
    if (want) expect({ ...span }, line).toEqual(want);
  }
}

describe("readHeaderBytes", () => {
  it("reads a log's headers through changes of second, date, pid and level", () => {
    expectSameAnswers([
      "I1202 09:00:00.000087   48211 controller.go:133] STAGE/watch",
      "I1202 09:00:00.000298   48211 controller.go:338] a",
      "W1202 09:00:00.000299   48212 controller.go:338] same second, another pid",
      "E1202 09:00:01.000299   48212 c.go:1] next second",
      "I1203 09:00:01.000299   48212 c.go:1] next day, same time",
      "I0103 09:00:01.000299   48212 c.go:1] another month",
      "I0103 09:00:01.00029x   48212 c.go:1] not a digit in the microseconds",
      "I0103 09:00:01.000300 12345678 c.go:1] a pid wider than 7 columns",
      "I0103 09:00:01.000301 12345679 c.go:1] and another",
      "I0103 09:00:01.000302   48212 c.go:1] back",
      "I0103 09:00:01.000303   48212 c.go:] no line number",
      "I0103 09:00:01.000304   48212 c.go:1 no bracket",
      "I0103 09:00:01.000305   48212 c.go:1]",
      "I0103 09:00:01.000306 4 c.go:1] short pid",
      "I0103 09:00:01.000307   48212 c.go:1] again",
      "I0103 09:00:01.000308   4821x c.go:1] a pid with a letter",
      "I0103 09:00:01.000309   48212 c.go:1] again",
      "I0103 09:0x:01.000310   48212 c.go:1] a minute with a letter",
      "I1303 09:00:01.000311   48212 c.go:1] month 13",
      "I0103 24:00:01.000312   48212 c.go:1] hour 24",
      "I0102 15:04:05.000000 1 a:1]",
    ]);
  });

  it("reads every line right when it differs from the one before in any byte", () => {
    const base = "I1202 09:00:00.000087   48211 controller.go:133] m";
    const alphabet = "0123456789 :.]IWEFx";
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.tuple(fc.nat(base.length - 1), fc.constantFrom(...alphabet)), {
            maxLength: 3,
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (edits) => {
          const lines = edits.map((e) => {
            const chars = [...base];
            for (const [at, c] of e) chars[at] = c;
            return chars.join("");
          });
          expectSameAnswers(lines);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("finds a header after a prefix, in a line that is not ASCII", () => {
    const line = "2026-12-02T09:00:00.000Z stderr F I1202 09:00:00.000087   7 ctrl.go:12] crème";
    expect(parseKlogHeader(line)).toEqual({
      level: "I",
      month: 12,
      day: 2,
      timeOfDayUs: 9 * 3600 * 1_000_000 + 87,
      pid: 7,
      src: "ctrl.go:12",
      msgStart: line.indexOf("crème"),
      start: line.indexOf("I1202"),
    });
    expect(parseKlogHeader("no header here")).toBeUndefined();
  });
});
