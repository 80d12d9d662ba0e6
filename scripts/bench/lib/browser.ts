/**
 * Browser benches' shared parts: the built web app (apps/web/dist) served by a tiny static
 * server on 127.0.0.1 (plus the bench inputs under /bench/), one headless Chromium shared by
 * every bench in the process, and an init script that records what the page cannot tell us
 * afterwards (rAF deltas, the moment a file was dropped, input → next frame).
 *
 * Invariants: nothing listens beyond loopback; the browser and server are closed a moment after
 * the last bench using them tears down (refcounted), so `pnpm bench` leaves no process behind.
 */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core";

/** The built app the benches load; LOOPSCOPE_BENCH_DIST names another build (see ab-load.ts). */
export const DIST = resolve(
  process.env.LOOPSCOPE_BENCH_DIST ??
    fileURLToPath(new URL("../../../apps/web/dist", import.meta.url)),
);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".jsonl": "application/x-ndjson",
  ".log": "text/plain",
};

function serve(dataDir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const [root, rel] = path.startsWith("/bench/")
      ? [dataDir, path.slice(7)]
      : [DIST, path.slice(1) || "index.html"];
    const file = normalize(join(root, rel));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": statSync(file).size,
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () =>
      ok({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}

/** Page-side recorder, installed before the app's scripts run. */
const INIT = () => {
  const w = window as unknown as Record<string, unknown>;
  const deltas: number[] = [];
  let recording = false;
  let last = 0;
  // Frames are requested only while recording: a loop running all the time made the browser
  // produce a frame at display rate during every load, CPU the page itself never asks for.
  let pending = 0;
  const loop = (t: number) => {
    if (!recording) return void (pending = 0);
    if (last > 0) deltas.push(t - last);
    last = t;
    pending = requestAnimationFrame(loop);
  };
  w.__bench = {
    startFrames() {
      deltas.length = 0;
      last = 0;
      recording = true;
      if (pending === 0) pending = requestAnimationFrame(loop);
    },
    stopFrames(): number[] {
      recording = false;
      return deltas.slice();
    },
    /**
     * A file's text in pieces of its 64 MB slices, for baselines that read a file themselves:
     * past the longest string Chromium makes (~512 MB, a 5M-event file) `File.text()` gives ""
     * without a word.
     */
    async *textSlices(file: Blob): AsyncGenerator<string> {
      const decoder = new TextDecoder();
      for (let at = 0; at < file.size; at += 1 << 26) {
        const bytes = await file.slice(at, at + (1 << 26)).arrayBuffer();
        yield decoder.decode(bytes, { stream: true });
      }
      yield decoder.decode();
    },
  };
  document.addEventListener(
    "change",
    (e) => {
      if ((e.target as HTMLInputElement | null)?.type === "file") performance.mark("bench:drop");
    },
    true,
  );
  // After the app says it has loaded everything, the next frame is the first moment input can be
  // handled: that is "interactive".
  new PerformanceObserver((list) => {
    for (const m of list.getEntries())
      if (m.name === "loopscope:loaded")
        requestAnimationFrame(() => performance.mark("bench:interactive"));
  }).observe({ entryTypes: ["mark"] });
};

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * V8 flags for the page, to see where a load's time goes (docs/performance.md): e.g.
 * `LOOPSCOPE_BENCH_JS_FLAGS=--perf-basic-prof` lets `perf` name the JS functions it samples.
 */
const JS_FLAGS = process.env.LOOPSCOPE_BENCH_JS_FLAGS;

function launch(): Promise<Browser> {
  const args = JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${JS_FLAGS}`] : CHROMIUM_ARGS;
  return chromium.launch({ executablePath: "/usr/bin/chromium", args });
}

interface Shared {
  browser: Browser;
  loaded: Map<string, Promise<Page>>;
  closing?: ReturnType<typeof setTimeout>;
  server: Server;
  url: string;
  users: number;
}
let shared: Promise<Shared> | undefined;
const LINGER_MS = 3000;

export interface BrowserHandle {
  /** App URL (with a trailing slash); bench inputs are at `${url}bench/<file name>`. */
  url: string;
  newPage(): Promise<{ page: Page; cdp: CDPSession; close(): Promise<void> }>;
  /**
   * A page with `file` dropped and loaded, shared by the benches that only look at a loaded app
   * (click, pan): loading 1M events once instead of once per bench. Closed with the browser.
   */
  loadedPage(file: string): Promise<Page>;
  release(): Promise<void>;
}

/** The shared browser and server; `dataDir` must be the same for every caller (ctx.tmpDir). */
export async function acquireBrowser(dataDir: string): Promise<BrowserHandle> {
  if (!existsSync(join(DIST, "index.html")))
    throw new Error(`${DIST} has no index.html: run \`pnpm build\` first`);
  const assets = join(DIST, "assets");
  const marked = readdirSync(assets).some(
    (f) => f.endsWith(".js") && readFileSync(join(assets, f), "utf8").includes("loopscope:loaded"),
  );
  if (!marked)
    throw new Error(`${DIST} predates the performance marks the benches read: run \`pnpm build\``);
  shared ??= (async () => {
    const { server, url } = await serve(resolve(dataDir));
    return { browser: await launch(), server, url, users: 0, loaded: new Map() };
  })();
  const s = await shared;
  clearTimeout(s.closing);
  s.users++;
  let released = false;
  const handle: BrowserHandle = {
    url: s.url,
    async newPage() {
      // On a shared machine a browser may go away under us (a crash, someone's cleanup): relaunch.
      if (!s.browser.isConnected()) {
        s.browser = await launch();
        s.loaded.clear();
      }
      const context = await s.browser.newContext({ viewport: { width: 1920, height: 1080 } });
      // tsx (esbuild, keepNames) wraps named functions in `__name(…)`; functions we hand to the
      // page are serialized with those calls, so the page needs the helper too.
      await context.addInitScript({
        content: `globalThis.__name = (f) => f;\n(${INIT.toString()})();`,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      return { page, cdp, close: () => context.close() };
    },
    loadedPage(file) {
      let p = s.loaded.get(file);
      if (!p) {
        p = (async () => {
          const { page } = await handle.newPage();
          await page.goto(s.url);
          await dropAndLoad(page, file);
          return page;
        })();
        s.loaded.set(file, p);
      }
      return p;
    },
    async release() {
      if (released) return;
      released = true;
      if (--s.users > 0) return;
      // Linger briefly: the next bench of this invocation (click → pan) reuses the loaded page.
      s.closing = setTimeout(() => {
        shared = undefined;
        void s.browser.close().then(() => s.server.close());
      }, LINGER_MS);
    },
  };
  return handle;
}

/**
 * Main-thread memory after a full GC, bytes: the JS heap plus the backing stores of its
 * ArrayBuffers (where the columnar store keeps every event: the heap alone leaves them out).
 */
/** What the init script gives a page (`window.__bench`), for functions run in the page. */
export interface PageBench {
  textSlices(file: Blob): AsyncGenerator<string>;
}

export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  const h = (await cdp.send("Runtime.getHeapUsage")) as {
    usedSize: number;
    backingStorageSize?: number;
  };
  return h.usedSize + (h.backingStorageSize ?? 0);
}

/**
 * A fresh page of the app with `file` set on its file input and the app kept from opening it:
 * for a baseline that reads the same file its own way. Close it with `close()`.
 */
export async function pageHoldingFile(b: BrowserHandle, file: string) {
  const p = await b.newPage();
  await p.page.goto(b.url);
  const input = p.page.getByTestId("file-input");
  await input.evaluate((el) =>
    el.addEventListener("change", (e) => e.stopImmediatePropagation(), true),
  );
  await input.setInputFiles(file);
  return { ...p, input };
}

export async function dropAndLoad(
  page: Page,
  file: string,
  timeoutMs = 600_000,
): Promise<{ firstPaint: number; interactive: number }> {
  await page.getByTestId("file-input").setInputFiles(file);
  await page.waitForFunction(
    // Both marks: a small file can be interactive a frame before the timeline first draws it.
    () =>
      performance.getEntriesByName("bench:interactive").length > 0 &&
      performance.getEntriesByName("loopscope:first-paint").length > 0,
    undefined,
    {
      timeout: timeoutMs,
      polling: 50,
    },
  );
  return page.evaluate(() => {
    const at = (n: string) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    const drop = at("bench:drop");
    return {
      firstPaint: at("loopscope:first-paint") - drop,
      interactive: at("bench:interactive") - drop,
    };
  });
}

export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
