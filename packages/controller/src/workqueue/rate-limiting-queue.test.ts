import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitingQueue } from "./rate-limiting-queue.ts";
import { BucketRateLimiter } from "./rate-limiters/bucket.ts";
import { ItemExponentialFailureRateLimiter } from "./rate-limiters/item-exponential-failure.ts";
import { MaxOfRateLimiter } from "./rate-limiters/max-of.ts";
import { sampleControllerRateLimiter } from "./rate-limiters/sample-controller.ts";

const clock = { now: () => Date.now() };

describe("ItemExponentialFailureRateLimiter", () => {
  it("doubles from the base per failure, caps at the max, and forget resets", () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const delays = Array.from({ length: 20 }, () => l.when("a"));
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(l.numRequeues("a")).toBe(20);
    expect(l.when("b")).toBe(5); // items are independent
    l.forget("a");
    expect(l.numRequeues("a")).toBe(0);
    expect(l.when("a")).toBe(5);
  });

  it("stays capped for huge failure counts", () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    for (let i = 0; i < 2000; i++) l.when("a");
    expect(l.when("a")).toBe(1000);
  });
});

describe("BucketRateLimiter", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is free for the burst, then spaces calls by 1/qps, and refills over time", () => {
    const l = new BucketRateLimiter<string>(50, 3, clock);
    expect([l.when("a"), l.when("b"), l.when("c")]).toEqual([0, 0, 0]);
    expect(l.when("d")).toBeCloseTo(20);
    expect(l.when("e")).toBeCloseTo(40);
    vi.advanceTimersByTime(1000);
    expect(l.when("f")).toBe(0); // refilled (capped at burst)
    expect(l.numRequeues("a")).toBe(0);
  });
});

describe("MaxOfRateLimiter", () => {
  it("returns the largest delay and forgets in all", () => {
    const a = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    const b = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    const m = new MaxOfRateLimiter<string>(a, b);
    expect([m.when("x"), m.when("x"), m.when("x")]).toEqual([5, 10, 20]);
    expect(b.numRequeues("x")).toBe(3); // every limiter was consulted
    expect(m.numRequeues("x")).toBe(3);
    m.forget("x");
    expect(a.numRequeues("x") + b.numRequeues("x")).toBe(0);
  });

  it("sample-controller's limiter: 5 ms doubling, then the bucket dominates past the burst", () => {
    const l = sampleControllerRateLimiter<string>({ now: () => 0 });
    expect([l.when("a"), l.when("a"), l.when("a")]).toEqual([5, 10, 20]);
    for (let i = 0; i < 297; i++) l.when(`k${i}`);
    // 300 tokens spent; the next distinct key's first failure waits for the bucket (1/50 s).
    expect(l.when("fresh")).toBeCloseTo(20);
  });
});

describe("RateLimitingQueue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("retries with growing delays until forgotten", async () => {
    const q = new RateLimitingQueue<string>({ clock });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const delay = q.addRateLimited("a");
      seen.push(delay);
      expect(q.len()).toBe(0);
      vi.advanceTimersByTime(delay);
      expect(q.len()).toBe(1);
      const r = await q.get();
      q.done(r.item as string);
    }
    expect(seen).toEqual([5, 10, 20, 40]);
    expect(q.numRequeues("a")).toBe(4);
    q.forget("a");
    expect(q.numRequeues("a")).toBe(0);
    expect(q.addRateLimited("a")).toBe(5);
  });

  it("counts each delayed add before shutdown as a retry in the metrics, as AddAfter does", () => {
    let retries = 0;
    const none = { inc() {}, dec() {}, set() {}, observe() {} };
    const q = new RateLimitingQueue<string>({
      clock,
      metrics: {
        newDepthMetric: () => none,
        newAddsMetric: () => none,
        newLatencyMetric: () => none,
        newWorkDurationMetric: () => none,
        newUnfinishedWorkSecondsMetric: () => none,
        newLongestRunningProcessorSecondsMetric: () => none,
        newRetriesMetric: () => ({ inc: () => void retries++ }),
      },
    });
    q.addRateLimited("a");
    q.addRateLimited("b");
    q.addAfter("c", 10);
    expect(retries).toBe(3);
    q.shutDown();
    q.addRateLimited("a");
    expect(retries).toBe(3);
  });

  it("parks a retry that fires while the key is processing, and reports it", async () => {
    const q = new RateLimitingQueue<string>({ clock });
    q.add("a");
    const r = await q.get();
    const landed: unknown[] = [];
    q.addRateLimited("a", (res) => landed.push(res));
    vi.advanceTimersByTime(5);
    expect(landed).toEqual(["processing"]);
    q.done(r.item as string);
    expect(q.len()).toBe(1);
  });

  it("drains concurrent async workers on shutDownWithDrain", async () => {
    vi.useRealTimers();
    const q = new RateLimitingQueue<string>();
    const finished: string[] = [];
    let failures = 0;
    const worker = async () => {
      for (;;) {
        const r = await q.get();
        if (r.shutdown) return;
        await new Promise((res) => setTimeout(res, 1));
        if (r.item === "flaky" && failures < 2) {
          failures++;
          q.addRateLimited(r.item);
        } else {
          q.forget(r.item);
          finished.push(r.item);
        }
        q.done(r.item);
      }
    };
    const workers = [worker(), worker()];
    for (const k of ["a", "b", "flaky", "c"]) q.add(k);
    while (finished.length < 4) await new Promise((res) => setTimeout(res, 2));
    await q.shutDownWithDrain();
    await Promise.all(workers);
    expect(finished.sort()).toEqual(["a", "b", "c", "flaky"]);
    expect(failures).toBe(2);
  });
});
