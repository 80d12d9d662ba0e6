/**
 * The browser cases of bench/live.ts: a TraceHub behind the real dashboard server, the built app
 * open in Chromium on one Foo's lanes, following (lib/live-page.ts).
 *
 * - sustained: the hub fed as fast as the loop allows; value = events/s from the first emit until
 *   a timeline frame reports the page's store holding the last one;
 * - paced: the hub fed at `rate` events/s for `pacedMs`; value = emit → paint delay p95 (ms),
 *   where an event is painted by the first frame that drew it or a later event (lib/paint-delays.ts).
 *
 * Each case has its own hub, server and page (but under --smoke), so what one leaves in the page
 * (the sustained bursts add up to a million events and more) does not weigh on the other's
 * numbers; the store's size at the start of a run is in the details.
 */
import { join } from "node:path";
import type { TraceEvent, UnsequencedEvent } from "../../../packages/trace/src/index.ts";
import { Recording } from "../../../apps/server/src/hub/recording.ts";
import { TraceHub } from "../../../apps/server/src/hub/trace-hub.ts";
import { quantile } from "./browser.ts";
import { openLivePage, type LivePage } from "./live-page.ts";
import { paintDelays } from "./paint-delays.ts";
import type { BenchCase, BenchContext } from "./types.ts";

export interface LiveBrowserOptions {
  dir: string;
  /** The i-th event of the stream; its `ts` must be its emit time (wall clock, µs). */
  event(i: number): UnsequencedEvent;
  /** The Foo whose lanes the page shows; every few events of the stream must be its. */
  focus: string;
  burst: number;
  rate: number;
  pacedMs: number;
}

interface Rig {
  live: LivePage;
  hub: TraceHub;
  push(): TraceEvent;
  /** Seq of the newest focus event: a frame drawing it has drawn everything pushed before it. */
  lastFocus(): number;
  close(): Promise<void>;
}

async function rig(ctx: BenchContext, o: LiveBrowserOptions, name: string): Promise<Rig> {
  const recording = await Recording.create(join(o.dir, `${name}.jsonl`), {
    source: "bench",
    created: "",
  });
  const hub = new TraceHub({ recording });
  let live: LivePage;
  try {
    live = await openLivePage(hub, {
      tmpDir: ctx.tmpDir,
      runsDir: o.dir,
      key: o.focus,
      timeoutMs: ctx.smoke ? 30_000 : 120_000,
    });
  } catch (e) {
    await hub.close();
    throw e;
  }
  let n = 0;
  let lastFocus = 0;
  return {
    live,
    hub,
    push() {
      const e = hub.push(o.event(n++));
      if (e.key === o.focus) lastFocus = e.seq;
      return e;
    },
    lastFocus: () => lastFocus,
    async close() {
      await live.close();
      await hub.close();
    },
  };
}

const tick = () => new Promise<void>((r) => setImmediate(r));
const wallMs = () => performance.timeOrigin + performance.now();

function sustainedCase(r: Rig, burst: number): BenchCase {
  return {
    name: "hub → browser store, as fast as it goes",
    async run() {
      await r.live.drawn(r.lastFocus()); // the page is done with earlier runs
      const first = r.hub.lastSeq;
      const t0 = wallMs();
      for (let i = 0; i < burst; i += 500) {
        for (let k = 0; k < 500; k++) r.push();
        await tick();
      }
      const ms = (await r.live.stored(r.hub.lastSeq)) - t0;
      const events = r.hub.lastSeq - first;
      return { value: (events / ms) * 1000, details: { ms, events, storeBefore: first } };
    },
  };
}

function pacedCase(ctx: BenchContext, r: Rig, rate: number, pacedMs: number): BenchCase {
  return {
    name: `paced ${rate / 1000}k/s → browser paint, p95`,
    unit: "ms",
    async run() {
      await r.live.drawn(r.lastFocus());
      await r.live.takeFrames();
      const total = Math.round((rate * pacedMs) / 1000);
      const firstSeq = r.hub.lastSeq + 1;
      const emitAt: number[] = [];
      // Go on at the same pace until the newest event is the focus Foo's, so a frame draws it.
      const more = () => emitAt.length < total || r.lastFocus() !== r.hub.lastSeq;
      const start = performance.now();
      while (more()) {
        const due = Math.floor(((performance.now() - start) / 1000) * rate);
        while (emitAt.length < due && more()) emitAt.push(r.push().ts / 1000);
        await new Promise((res) => setTimeout(res, 1));
      }
      const pushMs = performance.now() - start;
      await r.live.drawn(r.hub.lastSeq);
      const frames = await r.live.takeFrames();
      const d = paintDelays(firstSeq, emitAt, frames);
      if (d.some(Number.isNaN)) throw new Error("an event was never painted");
      const details = {
        p50Ms: quantile(d, 0.5),
        p95Ms: quantile(d, 0.95),
        p99Ms: quantile(d, 0.99),
        maxMs: Math.max(...d),
        eventsPerSec: (emitAt.length / pushMs) * 1000,
        frames: frames.length,
        storeBefore: firstSeq - 1,
        clockOffsetMs: await r.live.clockOffset(),
      };
      ctx.log(
        `browser paced: emit → paint p50 ${details.p50Ms.toFixed(1)} ms, p95 ${details.p95Ms.toFixed(1)} ms, p99 ${details.p99Ms.toFixed(1)} ms (${details.frames} frames; clocks ${details.clockOffsetMs.toFixed(2)} ms apart)`,
      );
      return { value: details.p95Ms, details };
    },
  };
}

export async function liveBrowserCases(
  ctx: BenchContext,
  o: LiveBrowserOptions,
): Promise<{ cases: BenchCase[]; clockOffsetMs: number; close(): Promise<void> }> {
  const sustained = await rig(ctx, o, "browser-sustained");
  // Smoke only proves the cases run: one page is enough (a second costs seconds).
  const paced = ctx.smoke
    ? sustained
    : await rig(ctx, o, "browser-paced").catch(async (e: unknown) => {
        await sustained.close();
        throw e;
      });
  return {
    cases: [sustainedCase(sustained, o.burst), pacedCase(ctx, paced, o.rate, o.pacedMs)],
    clockOffsetMs: await paced.live.clockOffset(),
    async close() {
      await sustained.close();
      if (paced !== sustained) await paced.close();
    },
  };
}
