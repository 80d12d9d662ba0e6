/** load: a 1M-event loopscope JSONL trace dropped on the web app (see lib/load-bench.ts). */
import { loadBench } from "./lib/load-bench.ts";

export default loadBench("jsonl");
