import { describe, expect, it } from "vitest";
import { RvRing } from "./rv-ring.ts";

describe("a ring of recent resourceVersions", () => {
  it("matches an rv exactly as a string, whether it is kept as a number or not", () => {
    const ring = new RvRing(16);
    ring.remember("0123", 5);
    ring.remember("123", 6);
    ring.remember("abc", 7);
    ring.remember("9007199254740993", 8); // 16 digits: past exact doubles, kept as a string
    expect(ring.find("123")).toBe(6);
    expect(ring.find("0123")).toBe(5);
    expect(ring.find("abc")).toBe(7);
    expect(ring.find("9007199254740993")).toBe(8);
    expect(ring.find("9007199254740992")).toBeUndefined();
    expect(ring.find("12")).toBeUndefined();
    expect(ring.find("")).toBeUndefined();
  });

  it("forgets the oldest of more than 16 writes, and answers the first slot holding an rv", () => {
    const ring = new RvRing(16);
    for (let i = 0; i < 20; i++) ring.remember(String(1000 + i), i + 1);
    expect(ring.find("1000")).toBeUndefined();
    expect(ring.find("1004")).toBe(5);
    expect(ring.find("1019")).toBe(20);
    // The same rv twice (a no-op write): the lower slot wins (1019 sits in slot 3, the new one
    // goes to slot 4), as it did before rvs were kept as numbers.
    ring.remember("1019", 21);
    expect(ring.find("1019")).toBe(20);
  });

  it("takes an entry once, and only one newer than a seq", () => {
    const ring = new RvRing(4);
    ring.remember("2001", 10);
    expect(ring.take("2001", 10)).toBeUndefined();
    expect(ring.find("2001")).toBe(10);
    expect(ring.take("2001", 9)).toBe(10);
    expect(ring.take("2001", 0)).toBeUndefined();
    expect(ring.find("2001")).toBeUndefined();
  });
});
