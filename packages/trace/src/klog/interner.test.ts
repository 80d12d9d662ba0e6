/**
 * The Interner answers text[a, b) always — through growth, once full, for values it does not
 * store. (That it answers one string per value is not observable from JS, where strings compare
 * by value; it shows in memory and time, not here.)
 */
import { describe, expect, it } from "vitest";
import { Interner } from "./interner.ts";

function textOf(values: string[]): { text: string; bytes: Uint8Array; at: number[] } {
  const at: number[] = [];
  let text = "";
  for (const v of values) {
    at.push(text.length);
    text += v + " ";
  }
  return { text, bytes: new TextEncoder().encode(text), at };
}

describe("Interner", () => {
  it("returns the value, first and again, through growth of table and arena", () => {
    const values = Array.from(
      { length: 20_000 },
      (_, i) => `ns-${i % 97}/foo-${i}-${"x".repeat(i % 40)}`,
    );
    const { text, bytes, at } = textOf(values);
    const strings = new Interner();
    const first = values.map((v, i) => strings.get(bytes, text, at[i], at[i] + v.length));
    expect(first).toEqual(values);
    values.forEach((v, i) => {
      expect(strings.get(bytes, text, at[i], at[i] + v.length)).toBe(v);
      expect(strings.key(bytes, text, at[i], at[i] + v.length)).toBe(v);
    });
  });

  it("stays right once it is full and starts over", () => {
    const values = Array.from({ length: 150_000 }, (_, i) => `k${i}`);
    const { text, bytes, at } = textOf(values);
    const strings = new Interner();
    for (let round = 0; round < 2; round++) {
      values.forEach((v, i) => {
        expect(strings.key(bytes, text, at[i], at[i] + v.length)).toBe(v);
      });
    }
  });

  it("gives one id per value, never again to another — once full and started over too", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `k${i % 70_000}`);
    const { text, bytes, at } = textOf(values);
    const strings = new Interner();
    const valueOf = new Map<number, string>();
    const ids = new Set<number>();
    values.forEach((v, i) => {
      const read = i % 2 === 0 ? strings.get.bind(strings) : strings.key.bind(strings);
      expect(read(bytes, text, at[i], at[i] + v.length)).toBe(v);
      const id = strings.lastId;
      expect(id).toBeGreaterThanOrEqual(0);
      expect(valueOf.get(id) ?? v, `id ${id}`).toBe(v);
      valueOf.set(id, v);
      ids.add(id);
      // The previous key again (key's shortcut) answers with the same id.
      if (i % 2 === 1) {
        strings.key(bytes, text, at[i], at[i] + v.length);
        expect(strings.lastId).toBe(id);
      }
    });
    // It filled up (65536 values) and started over: later copies of a value got new ids.
    expect(ids.size).toBeGreaterThan(70_000);
  });

  it("cuts values it does not store: long ones and ones with bytes that are not ASCII", () => {
    const values = ["é/à", "ns/" + "n".repeat(300), "a/b"];
    const text = values.join(" ");
    // Non-ASCII bytes, replaced one for one by the decoder (as U+FFFD).
    const bytes = new TextEncoder().encode(text.replace(/[éà]/g, "?"));
    bytes[0] = 0xff;
    bytes[2] = 0xfe;
    const strings = new Interner();
    let a = 0;
    for (const v of values) {
      expect(strings.get(bytes, text, a, a + v.length)).toBe(v);
      expect(strings.lastId >= 0, v).toBe(v === "a/b");
      a += v.length + 1;
    }
  });

  it("reads each byte array it is given, also at the offsets of the one before", () => {
    // The lines of a log come in one array per window; key's shortcut compares the last key with
    // the new array's bytes, not with the old array's.
    const strings = new Interner();
    const windows = ["ns/a1 x", "ns/b2 x", "ns/b2 y", "ns/a1 y"];
    for (const w of windows) {
      const bytes = new TextEncoder().encode(w);
      expect(strings.key(bytes, w, 0, 5)).toBe(w.slice(0, 5));
      expect(strings.get(bytes, w, 0, 5)).toBe(w.slice(0, 5));
    }
  });

  it("answers a key's parts as get does, remembered with the key — once full and started over too", () => {
    const values = Array.from({ length: 90_000 }, (_, i) => `ns-${i % 13}/foo-${i % 40_000}`);
    const { text, bytes, at } = textOf(values);
    const strings = new Interner();
    values.forEach((v, i) => {
      const a = at[i];
      const slash = a + v.indexOf("/");
      expect(strings.key(bytes, text, a, a + v.length)).toBe(v);
      const name = strings.keyPart(bytes, text, slash + 1, a + v.length, 1);
      const nameId = strings.lastId;
      const ns = strings.keyPart(bytes, text, a, slash, 0);
      const nsId = strings.lastId;
      expect([ns, name]).toEqual(v.split("/"));
      // The same ids as get's for the same values.
      expect(strings.get(bytes, text, slash + 1, a + v.length)).toBe(name);
      expect(strings.lastId).toBe(nameId);
      expect(strings.get(bytes, text, a, slash)).toBe(ns);
      expect(strings.lastId).toBe(nsId);
    });
  });

  it("answers a value keyed to the last key as get does, whichever value comes with the key", () => {
    // Each key comes with one of two targets, changing now and then; 70k keys fill the table.
    const lines = Array.from({ length: 140_000 }, (_, i) => {
      const key = `ns/foo-${i % 70_000}`;
      const target = i % 3 === 0 ? `deployments/${key}` : `foos/${key}/status`;
      return [key, target];
    });
    const { text, bytes, at } = textOf(lines.flat());
    const strings = new Interner();
    lines.forEach(([key, target], i) => {
      const k = at[2 * i];
      const t = at[2 * i + 1];
      expect(strings.key(bytes, text, k, k + key.length)).toBe(key);
      expect(strings.keyed(bytes, text, t, t + target.length)).toBe(target);
      const id = strings.lastId;
      expect(strings.get(bytes, text, t, t + target.length)).toBe(target);
      expect(strings.lastId).toBe(id);
    });
  });
});
