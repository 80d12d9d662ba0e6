/**
 * Where a load spends the page's main thread: drops FILE on the built app in headless Chromium
 * under the CDP sampling profiler and prints drop → first paint / interactive, the 30 functions
 * with the most self time, and the page's marks. The before/after numbers in docs/performance.md
 * come from this.
 *
 *   pnpm build && pnpm exec tsx scripts/bench/lib/profile-load.ts .bench/tmp/gen-v2-1000000.jsonl
 */
import { dirname, resolve } from "node:path";
import { acquireBrowser, dropAndLoad } from "./browser.ts";
const file = process.argv[2];
if (!file) throw new Error("usage: tsx scripts/bench/lib/profile-load.ts TRACE_FILE");
const b = await acquireBrowser(dirname(resolve(file)));
const p = await b.newPage();
p.page.on("pageerror", (e) => console.log("pageerror:", e.message));
await p.page.goto(b.url);
await p.cdp.send("Profiler.enable");
await p.cdp.send("Profiler.setSamplingInterval", { interval: 500 });
await p.cdp.send("Profiler.start");
console.log(await dropAndLoad(p.page, file));
const { profile } = await p.cdp.send("Profiler.stop");
const self = new Map<string, number>();
const dt = new Map<number, number>();
profile.samples!.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0)));
for (const n of profile.nodes) {
  const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
  self.set(k, (self.get(k) ?? 0) + (dt.get(n.id) ?? 0));
}
console.log(
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${k}`)
    .join("\n"),
);
console.log(
  await p.page.evaluate(() =>
    performance.getEntriesByType("mark").map((m) => `${m.name}@${m.startTime.toFixed(0)}`),
  ),
);
await p.close();
await b.release();
