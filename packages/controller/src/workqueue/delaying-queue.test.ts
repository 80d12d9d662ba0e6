import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DelayingQueue } from "./delaying-queue.ts";
import type { AddResult } from "./queue.ts";

const clock = { now: () => Date.now() };

describe("DelayingQueue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("adds at once when the delay is not positive", () => {
    const q = new DelayingQueue<string>({}, clock);
    const seen: AddResult[] = [];
    q.addAfter("a", 0, (r) => seen.push(r));
    expect(q.len()).toBe(1);
    expect(seen).toEqual([false]);
  });

  it("adds an item only once its delay has passed, and not counted by len meanwhile", () => {
    const q = new DelayingQueue<string>({}, clock);
    q.addAfter("a", 50);
    expect(q.len()).toBe(0);
    expect(q.waitingLen()).toBe(1);
    vi.advanceTimersByTime(49);
    expect(q.len()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.len()).toBe(1);
    expect(q.waitingLen()).toBe(0);
  });

  it("releases items in ready-time order", async () => {
    const q = new DelayingQueue<string>({}, clock);
    q.addAfter("late", 30);
    q.addAfter("early", 10);
    q.addAfter("mid", 20);
    vi.advanceTimersByTime(30);
    const got = [(await q.get()).item, (await q.get()).item, (await q.get()).item];
    expect(got).toEqual(["early", "mid", "late"]);
  });

  it("keeps the earlier ready time when an item is added twice", () => {
    const q = new DelayingQueue<string>({}, clock);
    const seen: string[] = [];
    q.addAfter("a", 100, () => seen.push("first"));
    q.addAfter("a", 10, () => seen.push("second"));
    q.addAfter("a", 50, () => seen.push("third"));
    expect(q.waitingLen()).toBe(1);
    vi.advanceTimersByTime(10);
    expect(q.len()).toBe(1);
    expect(seen).toEqual(["second"]);
    vi.advanceTimersByTime(200);
    expect(q.len()).toBe(1);
    expect(seen).toEqual(["second"]);
  });

  it("merges a delayed add with a key already dirty, and reports it", () => {
    const q = new DelayingQueue<string>({}, clock);
    const seen: AddResult[] = [];
    q.add("a");
    q.addAfter("a", 5, (r) => seen.push(r));
    vi.advanceTimersByTime(5);
    expect(seen).toEqual(["dirty"]);
    expect(q.len()).toBe(1);
  });

  it("drops waiting items and ignores addAfter on shutdown", () => {
    const q = new DelayingQueue<string>({}, clock);
    q.addAfter("a", 5);
    q.shutDown();
    q.addAfter("b", 5);
    vi.advanceTimersByTime(10);
    expect(q.len()).toBe(0);
    expect(q.waitingLen()).toBe(0);
  });

  it("keeps one timer however many items wait", () => {
    const q = new DelayingQueue<number>({}, clock);
    for (let i = 0; i < 100; i++) q.addAfter(i, 100 - i);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(q.len()).toBe(50);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(q.len()).toBe(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("handles many waiting items with heap order intact", async () => {
    const q = new DelayingQueue<number>({}, clock);
    const delays = Array.from({ length: 200 }, (_, i) => ((i * 7919) % 200) + 1);
    delays.forEach((d, i) => q.addAfter(i, d));
    vi.advanceTimersByTime(300);
    const order: number[] = [];
    while (q.len() > 0) order.push((await q.get()).item as number);
    const readyTimes = order.map((i) => delays[i] as number);
    expect(readyTimes).toEqual([...readyTimes].sort((a, b) => a - b));
    expect(order.length).toBe(200);
  });
});
