import { describe, expect, it } from "vitest";
import { Queue } from "./queue.ts";

describe("Queue", () => {
  it("is fair: items come out in the order they were added", async () => {
    const q = new Queue<string>();
    for (const k of ["a", "b", "c"]) expect(q.add(k)).toBe(false);
    expect(q.len()).toBe(3);
    const got: string[] = [];
    for (let i = 0; i < 3; i++) got.push((await q.get()).item as string);
    expect(got).toEqual(["a", "b", "c"]);
    expect(q.len()).toBe(0);
  });

  it("serves blocked workers in the order they called get", async () => {
    const q = new Queue<string>();
    const order: string[] = [];
    const w1 = q.get().then((r) => order.push(`w1:${r.item}`));
    const w2 = q.get().then((r) => order.push(`w2:${r.item}`));
    q.add("x");
    q.add("y");
    await Promise.all([w1, w2]);
    expect(order).toEqual(["w1:x", "w2:y"]);
  });

  it("merges an add of a key that is already waiting (dirty)", async () => {
    const q = new Queue<string>();
    expect(q.add("a")).toBe(false);
    expect(q.add("a")).toBe("dirty");
    expect(q.len()).toBe(1);
    await q.get();
    expect(q.len()).toBe(0);
  });

  it("parks an add during processing and re-queues it on done", async () => {
    const q = new Queue<string>();
    q.add("a");
    const { item } = await q.get();
    expect(q.isProcessing("a")).toBe(true);
    expect(q.add("a")).toBe("processing");
    expect(q.add("a")).toBe("dirty"); // a second add while parked merges
    expect(q.len()).toBe(0); // not handed to another worker meanwhile
    q.done(item as string);
    expect(q.len()).toBe(1);
    const again = await q.get();
    expect(again.item).toBe("a");
    q.done("a");
    expect(q.len()).toBe(0);
  });

  it("wakes a blocked worker like a signal: the item stays queued until the worker takes it", async () => {
    const q = new Queue<string>();
    const p = q.get();
    expect(q.add("a")).toBe(false);
    expect(q.len()).toBe(1); // client-go's Len right after Add, before the worker wakes
    expect(q.add("a")).toBe("dirty");
    expect((await p).item).toBe("a");
    expect(q.len()).toBe(0);
    expect(q.add("a")).toBe("processing");
  });

  it("gives queued items to waiting workers before telling them about shutdown", async () => {
    const q = new Queue<string>();
    const p1 = q.get();
    const p2 = q.get();
    q.add("a");
    q.shutDown();
    expect(await p1).toEqual({ item: "a", shutdown: false });
    expect(await p2).toEqual({ item: undefined, shutdown: true });
  });

  it("never hands one key to two concurrent workers", async () => {
    const q = new Queue<string>();
    const active = new Set<string>();
    const processed: string[] = [];
    let overlaps = 0;
    const worker = async () => {
      for (;;) {
        const r = await q.get();
        if (r.shutdown) return;
        if (active.has(r.item)) overlaps++;
        active.add(r.item);
        // Re-add keys while held, from "informer" callbacks interleaved with the pass.
        q.add(r.item);
        await new Promise((res) => setImmediate(res));
        processed.push(r.item);
        active.delete(r.item);
        q.done(r.item);
        if (processed.length >= 60) q.shutDown();
      }
    };
    for (const k of ["a", "b", "c", "d"]) q.add(k);
    await Promise.all([worker(), worker(), worker()]);
    expect(overlaps).toBe(0);
    expect(processed.length).toBeGreaterThanOrEqual(60);
  });

  it("ignores adds after shutdown, drains queued items, then reports shutdown", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.shutDown();
    expect(q.add("b")).toBe("ignored");
    expect(await q.get()).toEqual({ item: "a", shutdown: false });
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
  });

  it("wakes every blocked worker on shutdown", async () => {
    const q = new Queue<string>();
    const results = [q.get(), q.get()];
    q.shutDown();
    expect(await Promise.all(results)).toEqual([
      { item: undefined, shutdown: true },
      { item: undefined, shutdown: true },
    ]);
  });

  it("shutDownWithDrain waits for items being processed", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.add("b");
    const a = await q.get();
    const b = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    q.done(a.item as string);
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    q.done(b.item as string);
    await drain;
    expect(drained).toBe(true);
  });

  it("shutDownWithDrain does not wait for an item re-queued by done, nor after shutDown", async () => {
    const q = new Queue<string>();
    q.add("a");
    const a = await q.get();
    q.add("a"); // parked behind its worker
    const drain = q.shutDownWithDrain();
    q.done(a.item as string); // re-queued, but nothing is processing any more
    await drain;
    expect(q.len()).toBe(1);

    const q2 = new Queue<string>();
    q2.add("b");
    await q2.get();
    const stuck = q2.shutDownWithDrain();
    q2.shutDown(); // client-go's way to stop waiting for a drain
    await stuck;
  });

  it("shutDownWithDrain resolves at once when nothing is processing", async () => {
    const q = new Queue<string>();
    await q.shutDownWithDrain();
    expect(q.isShuttingDown()).toBe(true);
  });

  it("reports depth, adds, latency and work duration to a metrics provider", async () => {
    const calls: string[] = [];
    const rec = (name: string) => ({
      inc: () => calls.push(`${name}+`),
      dec: () => calls.push(`${name}-`),
      set: (v: number) => calls.push(`${name}=${v >= 0}`),
      observe: (v: number) => calls.push(`${name}~${v >= 0}`),
    });
    const q = new Queue<string>({
      name: "foos",
      metrics: {
        newDepthMetric: () => rec("depth"),
        newAddsMetric: () => rec("adds"),
        newLatencyMetric: () => rec("latency"),
        newWorkDurationMetric: () => rec("work"),
        newUnfinishedWorkSecondsMetric: () => rec("unfinished"),
        newLongestRunningProcessorSecondsMetric: () => rec("longest"),
        newRetriesMetric: () => rec("retries"),
      },
    });
    q.add("a");
    q.add("a");
    await q.get();
    q.done("a");
    expect(calls).toEqual(["adds+", "depth+", "depth-", "latency~true", "work~true"]);
    // An add while a worker holds the item counts at once, as client-go's does: depth includes
    // it while it waits behind the worker; done re-queues it without counting it again.
    calls.length = 0;
    q.add("b");
    await q.get();
    q.add("b");
    expect(calls).toEqual(["adds+", "depth+", "depth-", "latency~true", "adds+", "depth+"]);
    q.done("b");
    expect(calls.slice(6)).toEqual(["work~true"]);
    q.shutDown();
  });
});
