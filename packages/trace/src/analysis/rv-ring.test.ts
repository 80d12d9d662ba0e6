import { describe, expect, it } from "vitest";
import { RvRings } from "./rv-ring.ts";

describe("rings of recent resourceVersions", () => {
  it("match an rv exactly as a string, whether it is kept as a number or not", () => {
    const rings = new RvRings(16);
    const ring = rings.add();
    rings.remember(ring, "0123", 5);
    rings.remember(ring, "123", 6);
    rings.remember(ring, "abc", 7);
    rings.remember(ring, "9007199254740993", 8); // 16 digits: past exact doubles, kept as a string
    rings.remember(ring, "0", 9);
    expect(rings.find(ring, "123")).toBe(6);
    expect(rings.find(ring, "0123")).toBe(5);
    expect(rings.find(ring, "abc")).toBe(7);
    expect(rings.find(ring, "9007199254740993")).toBe(8);
    expect(rings.find(ring, "0")).toBe(9);
    expect(rings.find(ring, "9007199254740992")).toBeUndefined();
    expect(rings.find(ring, "12")).toBeUndefined();
    expect(rings.find(ring, "")).toBeUndefined();
  });

  it("forget the oldest of more than 16 writes, and answer the first slot holding an rv", () => {
    const rings = new RvRings(16);
    const ring = rings.add();
    for (let i = 0; i < 20; i++) rings.remember(ring, String(1000 + i), i + 1);
    expect(rings.find(ring, "1000")).toBeUndefined();
    expect(rings.find(ring, "1004")).toBe(5);
    expect(rings.find(ring, "1019")).toBe(20);
    // The same rv twice (a no-op write): the lower slot wins (1019 sits in slot 3, the new one
    // goes to slot 4).
    rings.remember(ring, "1019", 21);
    expect(rings.find(ring, "1019")).toBe(20);
  });

  it("take an entry once, and only one newer than a seq", () => {
    const rings = new RvRings(4);
    const ring = rings.add();
    rings.remember(ring, "2001", 10);
    expect(rings.take(ring, "2001", 10)).toBeUndefined();
    expect(rings.find(ring, "2001")).toBe(10);
    expect(rings.take(ring, "2001", 9)).toBe(10);
    expect(rings.take(ring, "2001", 0)).toBeUndefined();
    expect(rings.find(ring, "2001")).toBeUndefined();
    rings.remember(ring, "x-1", 11);
    expect(rings.take(ring, "x-1", 0)).toBe(11);
    expect(rings.find(ring, "x-1")).toBeUndefined();
  });

  it("keep each ring to itself, across chunks, with strings overwritten like numbers", () => {
    const rings = new RvRings(2);
    const ids = Array.from({ length: 5000 }, () => rings.add()); // more rows than one chunk
    for (const r of ids) rings.remember(r, r % 2 === 0 ? `s${r}` : String(r), r);
    for (const r of [0, 1, 4095, 4096, 4999]) {
      expect(rings.find(r, r % 2 === 0 ? `s${r}` : String(r))).toBe(r);
      expect(rings.find(r, r % 2 === 0 ? `s${r + 2}` : String(r + 2))).toBeUndefined();
    }
    // Ring 0 holds two slots: "s0", then 7 and 8 push it out; a string in a slot a number took
    // over is gone, not found by a string lookup that lands on its old place.
    rings.remember(0, "7", 1);
    rings.remember(0, "8", 2);
    expect(rings.find(0, "s0")).toBeUndefined();
    expect(rings.find(0, "7")).toBe(1);
    expect(rings.find(4096, "s4096")).toBe(4096);
  });
});

describe("a ring's bound", () => {
  it("answers for rvs above it, and leaves lower ones, strings and taken slots to the scan", () => {
    const rings = new RvRings(2);
    const ring = rings.add();
    rings.remember(ring, "500", 1);
    rings.remember(ring, "20", 2);
    expect(rings.find(ring, "501")).toBeUndefined(); // above the bound
    expect(rings.find(ring, "20")).toBe(2);
    rings.remember(ring, "30", 3); // overwrites 500: the bound stays high
    expect(rings.find(ring, "500")).toBeUndefined();
    expect(rings.find(ring, "30")).toBe(3);
    expect(rings.take(ring, "30", 0)).toBe(3);
    rings.remember(ring, "v1", 4); // not a decimal: every lookup scans from now on
    expect(rings.find(ring, "v1")).toBe(4);
    expect(rings.find(ring, "20")).toBeUndefined();
    expect(rings.find(ring, "9999")).toBeUndefined();
  });
});
