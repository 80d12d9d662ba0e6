/**
 * The live dashboard as a user has it, for bench/live.ts: the real dashboard server (owner token
 * injected into index.html, same-origin WebSocket) over a bare TraceHub, serving the built web app
 * (apps/web/dist) to the shared headless Chromium (lib/browser.ts), opened on one Foo's lanes.
 *
 * The page is given the timeline's paint probe (`window.__loopscopePaint`, see
 * apps/web/src/timeline/Timeline.tsx): every timeline frame reports, right after drawing, the
 * highest seq it drew and the store's last seq; this file stamps each report with the wall clock
 * and keeps them until the bench takes them.
 *
 * Clocks: server and page run on this machine, and `performance.timeOrigin + performance.now()`
 * is the same wall clock (ms since the epoch) in Node and in Chromium, so an emit time taken in
 * the server and a paint time taken in the page subtract. `clockOffset` measures how far apart
 * they actually are (page − server, within half a round trip), reported beside the delays.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TraceHub } from "../../../apps/server/src/hub/trace-hub.ts";
import { hubBackend } from "../../../apps/server/src/dashboard/testing.ts";
import { startDashboardServer } from "../../../apps/server/src/dashboard/dashboard-server.ts";
import { acquireBrowser, DIST } from "./browser.ts";

/** One timeline frame as the probe saw it: wall-clock ms, highest seq drawn, store's last seq. */
export interface PaintFrame {
  at: number;
  drawnSeq: number;
  storeSeq: number;
}

interface ProbeWindow {
  __loopscopePaint?: (drawnSeq: number, storeSeq: number) => void;
  __livePaints: {
    /** Flattened [at, drawnSeq, storeSeq] triples since the last take. */
    take(): number[];
    /** Resolves with the wall time of the first frame whose `which` seq reached `seq`. */
    until(which: "drawn" | "stored", seq: number, timeoutMs: number): Promise<number>;
  };
}

/** Page-side half of the probe, installed before the app's scripts run. */
const PROBE = () => {
  const w = window as unknown as ProbeWindow;
  let frames: number[] = [];
  // Each time the highest drawn (stored) seq so far rose: [seq, at, seq, at, …], for `until`.
  const rises = { drawn: [] as number[], stored: [] as number[] };
  let waiter: { which: "drawn" | "stored"; seq: number; done(at: number): void } | undefined;
  const rise = (list: number[], seq: number, at: number) => {
    if (seq > (list.at(-2) ?? 0)) list.push(seq, at);
  };
  const firstAt = (list: number[], seq: number) => {
    for (let i = 0; i < list.length; i += 2) if (list[i] >= seq) return list[i + 1];
    return undefined;
  };
  w.__loopscopePaint = (drawnSeq, storeSeq) => {
    const at = performance.timeOrigin + performance.now();
    frames.push(at, drawnSeq, storeSeq);
    rise(rises.drawn, drawnSeq, at);
    rise(rises.stored, storeSeq, at);
    if (waiter && (waiter.which === "drawn" ? drawnSeq : storeSeq) >= waiter.seq) {
      waiter.done(at);
      waiter = undefined;
    }
  };
  w.__livePaints = {
    take() {
      const out = frames;
      frames = [];
      return out;
    },
    until(which, seq, timeoutMs) {
      return new Promise((resolve, reject) => {
        const already = seq <= 0 ? performance.timeOrigin : firstAt(rises[which], seq);
        if (already !== undefined) return resolve(already);
        const timer = setTimeout(() => {
          waiter = undefined;
          const at = rises[which].at(-2) ?? 0;
          reject(new Error(`no frame ${which} seq ${seq} within ${timeoutMs} ms (reached ${at})`));
        }, timeoutMs);
        waiter = {
          which,
          seq,
          done(at) {
            clearTimeout(timer);
            resolve(at);
          },
        };
      });
    },
  };
};

export interface LivePage {
  page: Page;
  /** Wall time (ms) of the first frame that drew an event with seq ≥ `seq`. */
  drawn(seq: number): Promise<number>;
  /** Wall time (ms) of the first frame after the store held every event up to `seq`. */
  stored(seq: number): Promise<number>;
  /** The frames reported since the last call. */
  takeFrames(): Promise<PaintFrame[]>;
  /** Page clock − server clock, ms (half the round trip is the uncertainty). */
  clockOffset(): Promise<number>;
  close(): Promise<void>;
}

/** Serves the dashboard over `hub` and opens it with `key`'s lanes selected (following). */
export async function openLivePage(
  hub: TraceHub,
  opts: { tmpDir: string; runsDir: string; key: string; timeoutMs: number },
): Promise<LivePage> {
  const assets = join(DIST, "assets");
  const probed =
    existsSync(assets) &&
    readdirSync(assets).some(
      (f) =>
        f.endsWith(".js") && readFileSync(join(assets, f), "utf8").includes("__loopscopePaint"),
    );
  if (!probed) throw new Error(`${DIST} predates the timeline's paint probe: run \`pnpm build\``);
  const browser = await acquireBrowser(opts.tmpDir);
  const server = await startDashboardServer({
    backend: hubBackend(hub, opts.runsDir),
    host: "127.0.0.1",
    port: 0,
    webRoot: DIST,
  });
  const p = await browser.newPage();
  const { page } = p;
  await page.addInitScript({ content: `(${PROBE.toString()})();` });
  await page.goto(`${server.url}?foo=${encodeURIComponent(opts.key)}`);
  await page.locator('[data-testid="connection-status"][data-status="open"]').waitFor();
  const until = (which: "drawn" | "stored", seq: number) =>
    page.evaluate(
      ([which, seq, ms]) => (window as unknown as ProbeWindow).__livePaints.until(which, seq, ms),
      [which, seq, opts.timeoutMs] as const,
    );
  return {
    page,
    drawn: (seq) => until("drawn", seq),
    stored: (seq) => until("stored", seq),
    async takeFrames() {
      const flat = await page.evaluate(() =>
        (window as unknown as ProbeWindow).__livePaints.take(),
      );
      const out: PaintFrame[] = [];
      for (let i = 0; i < flat.length; i += 3)
        out.push({ at: flat[i], drawnSeq: flat[i + 1], storeSeq: flat[i + 2] });
      return out;
    },
    async clockOffset() {
      // The sample with the shortest round trip bounds the offset best.
      let best = { offset: NaN, rtt: Infinity };
      for (let i = 0; i < 5; i++) {
        const before = performance.timeOrigin + performance.now();
        const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
        const after = performance.timeOrigin + performance.now();
        if (after - before < best.rtt)
          best = { offset: inPage - (before + after) / 2, rtt: after - before };
      }
      return best.offset;
    },
    async close() {
      await p.close();
      await server.close();
      await browser.release();
    },
  };
}
