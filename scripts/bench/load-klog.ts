/**
 * load-klog: the same 1M events as klog text, the Go controller's own log format, dropped on the
 * web app (see lib/load-bench.ts). klog goes through the general reader, not the byte-level JSONL
 * path, so it is measured on its own.
 */
import { loadBench } from "./lib/load-bench.ts";

export default loadBench("klog");
