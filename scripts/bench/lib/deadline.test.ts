import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withDeadline } from "./deadline.ts";

describe("withDeadline", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fails work that never settles once the deadline passes, naming it", async () => {
    const hung = withDeadline(new Promise(() => {}), 60_000, "load");
    const seen = expect(hung).rejects.toThrow("load did not finish within 1 min");
    await vi.advanceTimersByTimeAsync(60_000);
    await seen;
  });

  it("passes on work that settles in time and leaves no timer behind", async () => {
    await expect(withDeadline(Promise.resolve(7), 60_000, "parse")).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error("x")), 60_000, "p")).rejects.toThrow("x");
    expect(vi.getTimerCount()).toBe(0);
  });
});
