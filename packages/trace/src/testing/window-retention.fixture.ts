/**
 * Run by rows/window-retention.test.ts under `node --expose-gc`: reads a klog log through the
 * page's row reader — a first chunk of ~13 MB whose lines name 3000 Foos (keys, names, targets and
 * reasons of 13 characters or more: V8 cuts those as slices of the decoded chunk), then a small
 * second chunk — and prints, as JSON, the heap after GC before and after reading. The first
 * chunk's text stays alive only if something kept for good is a slice of it.
 */
import { createRowReader } from "../rows/row-reader.ts";
import { RowEncoder } from "../rows/row-encoder.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc");

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

function lines(from: number, to: number): string {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const key = `namespace-${i % 7}/foo-with-a-long-name-${i}`;
    const h = `I1202 09:00:10.${String(i % 1e6).padStart(6, "0")}   4242 controller.go:1] `;
    out.push(
      `${h}STAGE/watch kind=Foo event=add key=${key} rv=${1000 + i}`,
      `${h}STAGE/watch kind=Deployment event=add key=${key} name=deployment-of-foo-${i} rv=${2000 + i}`,
      `${h}STAGE/enqueue key=${key} len=1`,
      `${h}STAGE/dequeue key=${key} len=0 worker=1`,
      `${h}STAGE/read key=${key} rv=${1000 + i}`,
      `${h}STAGE/write verb=create target=deployments/${key} code=500 reason=a-reason-of-its-own-${i}`,
      `${h}"Successfully synced" objectName="${key}"`,
      // The controller's other lines: between two Foos' keys, 4 KB of text nothing keeps.
      `${h}"Event occurred" object="${key}" message="${"x".repeat(4096)}"`,
    );
  }
  return out.join("\n") + "\n";
}

const before = heap();
const encoder = new RowEncoder();
const reader = createRowReader(encoder, false);
const sink = { event: () => {}, diagnostic: () => {} };
(() => {
  // One chunk of ~13 MB: the page's reader worker reads a file in 4 MB slices.
  reader.push(new TextEncoder().encode(lines(0, 3000)), sink);
})();
reader.push(new TextEncoder().encode(lines(3000, 3001)), sink);
reader.end(sink);
encoder.finish();
const after = heap();
process.stdout.write(JSON.stringify({ before, after, rows: reader.lines() }) + "\n");
