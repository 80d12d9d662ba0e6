/**
 * The klog reader's shortcuts answer exactly what the general code would, whenever they answer:
 * the success-line reader (the klog parser's vs parseMarker), the note-key pre-check (mayHaveField
 * vs scanFields + pick), and the per-reader cache of source locations (noise stays noise when
 * locations collide).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseMarker, SYNCED } from "./markers.ts";
import { mayHaveField, pick, scanFields } from "./fields.ts";
import { KlogParser } from "./klog-parser.ts";
import type { UnsequencedEvent } from "../event.ts";

/** Text drawn from characters that matter to the scanners. */
const tricky = (maxLength: number) =>
  fc
    .array(
      fc.constantFrom(
        "a",
        "K",
        "/",
        "-",
        " ",
        '"',
        "'",
        "\\",
        "=",
        "é",
        "\t",
        "key",
        "Key",
        "objectName",
        "OBJECTREF",
        "resourcename",
      ),
      { maxLength },
    )
    .map((parts) => parts.join(""));

/** What the klog parser makes of one line: its events. */
function readLine(line: string): UnsequencedEvent[] {
  const events: UnsequencedEvent[] = [];
  const parser = new KlogParser(
    { year: 2026 },
    (e) => events.push(e),
    () => undefined,
  );
  parser.line(line, 1, 1);
  return events;
}

describe("the success-line shortcut", () => {
  it("ends the pass parseMarker says the line ends, whether the shortcut answers or not", () => {
    const head = "I1202 09:00:00.000087   1 controller.go:222] ";
    let exact = 0;
    fc.assert(
      fc.property(
        fc.constantFrom('"Successfully synced" objectName="', '"Successfully synced" key="', ""),
        // Plain keys too, so that the shortcut's exact form turns up in many runs whatever the
        // seed (with tricky keys alone it did in ~3 % of them, and the count below was left to
        // chance).
        fc.oneof(tricky(6), fc.stringMatching(/^[a-z0-9-]{1,8}\/[a-z0-9-]{1,8}$/)),
        fc.constantFrom('"', "", '" extra="1"', "'"),
        (start, key, end) => {
          const msg = start + key + end;
          if (msg.startsWith(SYNCED) && /^[^"\\']+"$/.test(msg.slice(SYNCED.length))) exact++;
          const marker = parseMarker(msg, 0);
          const [e] = readLine(head + msg);
          if (marker === undefined) expect(e?.stage).not.toBe("done");
          else expect(e).toMatchObject({ stage: "done", key: marker.key, outcome: marker.outcome });
        },
      ),
      { numRuns: 600 },
    );
    expect(exact).toBeGreaterThan(10);
  });

  it("reads a key with characters beyond ASCII as parseMarker does", () => {
    const msg = '"Successfully synced" objectName="default/crème-foo"';
    expect(readLine(`I1202 09:00:00.000087   1 controller.go:222] ${msg}`)).toMatchObject([
      { stage: "done", key: "default/crème-foo", outcome: "synced" },
    ]);
  });
});

describe("the note-key pre-check", () => {
  const names = ["objectname", "objectreference", "objectref", "resourcename", "key"];
  it("is false only when pick(scanFields(…)) finds none of the names", () => {
    fc.assert(
      fc.property(tricky(12), (text) => {
        if (!mayHaveField(text, names)) expect(pick(scanFields(text), names)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("lets an ordinary structured message skip the scan", () => {
    expect(mayHaveField('"Processing object" object="a/b"', names)).toBe(false);
    expect(mayHaveField('"Syncing" objectName="a/b"', names)).toBe(true);
    expect(mayHaveField('"Syncing" KEY="a/b"', names)).toBe(true);
  });
});

describe("the source-location cache", () => {
  it("keeps noise and controller lines apart when their locations share a cache slot", () => {
    const events: UnsequencedEvent[] = [];
    const parser = new KlogParser(
      { year: 2026 },
      (e) => events.push(e),
      () => undefined,
    );
    // Same length, same first and last three characters: the same slot.
    const lines = [
      "I1202 09:00:00.000001   1 reflector.go:376] Listing and watching",
      "I1202 09:00:00.000002   1 rexlector.go:376] a controller line",
      "I1202 09:00:00.000003   1 reflector.go:376] Listing and watching",
      "I1202 09:00:00.000004   1 rexlector.go:376] another controller line",
    ];
    lines.forEach((l, i) => parser.line(l, i + 1, i + 1));
    expect(parser.noiseLines).toBe(2);
    expect(events.map((e) => [e.line, e.src])).toEqual([
      [2, "rexlector.go:376"],
      [4, "rexlector.go:376"],
    ]);
  });
});
