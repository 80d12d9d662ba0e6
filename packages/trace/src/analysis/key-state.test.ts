import { describe, expect, it } from "vitest";
import { KeyState } from "./key-state.ts";
import { PASS_CAUSES } from "./model.ts";
import { STAGES } from "../event.ts";

describe("a key's ring of write resourceVersions", () => {
  it("matches an rv exactly as a string, whether it is kept as a number or not", () => {
    const st = new KeyState(0, "ns/a", 0);
    st.rememberRv("0123", 5);
    st.rememberRv("123", 6);
    st.rememberRv("abc", 7);
    st.rememberRv("9007199254740993", 8); // 16 digits: past exact doubles, kept as a string
    expect(st.ownWriteWithRv("123")).toBe(6);
    expect(st.ownWriteWithRv("0123")).toBe(5);
    expect(st.ownWriteWithRv("abc")).toBe(7);
    expect(st.ownWriteWithRv("9007199254740993")).toBe(8);
    expect(st.ownWriteWithRv("9007199254740992")).toBeUndefined();
    expect(st.ownWriteWithRv("12")).toBeUndefined();
    expect(st.ownWriteWithRv("")).toBeUndefined();
  });

  it("forgets the oldest of more than 16 writes, and answers the first slot holding an rv", () => {
    const st = new KeyState(0, "ns/a", 0);
    for (let i = 0; i < 20; i++) st.rememberRv(String(1000 + i), i + 1);
    expect(st.ownWriteWithRv("1000")).toBeUndefined();
    expect(st.ownWriteWithRv("1004")).toBe(5);
    expect(st.ownWriteWithRv("1019")).toBe(20);
    // The same rv twice (a no-op write): the lower slot wins (1019 sits in slot 3, the new one
    // goes to slot 4), as it did before rvs were kept as numbers.
    st.rememberRv("1019", 21);
    expect(st.ownWriteWithRv("1019")).toBe(20);
  });
});

describe("a key's summary counts", () => {
  it("name every stage and every cause, in the model's order", () => {
    const s = new KeyState(0, "ns/a", 0).summary;
    expect(Object.keys(s.byStage)).toEqual([...STAGES]);
    expect(Object.keys(s.passCauses)).toEqual([...PASS_CAUSES]);
    expect(Object.values(s.byStage).every((n) => n === 0)).toBe(true);
    expect(Object.values(s.passCauses).every((n) => n === 0)).toBe(true);
  });
});
