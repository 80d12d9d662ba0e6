/**
 * Streams a generated scenario to a Writable in either format, honouring backpressure, so a
 * 5M-event trace (~1 GB of klog) is written in constant memory.
 */
import type { Writable } from "node:stream";
import { encodeEvent, encodeHeader } from "../../packages/trace/src/index.ts";
import { shapeWriter, type LogShape } from "./shapes.ts";
import { emptyCounts, scenario, type ScenarioCounts, type ScenarioOptions } from "./scenario.ts";

export type GenFormat = "jsonl" | "klog";

export async function writeTrace(
  out: Writable,
  opts: ScenarioOptions,
  format: GenFormat,
  /** For klog: how its lines are written (default "canonical"). */
  shape: LogShape = "canonical",
): Promise<{ counts: ScenarioCounts; bytes: number }> {
  const counts = emptyCounts();
  let bytes = 0;
  let buf: string[] = [];
  let pending = 0;
  const flush = async () => {
    const chunk = buf.join("");
    buf = [];
    pending = 0;
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
  };
  if (format === "jsonl")
    buf.push(
      encodeHeader({
        source: "loopscope gen",
        created: new Date(0).toISOString(),
        extra: { generator: { ...opts } },
      }),
    );
  const klog = shapeWriter(shape, opts.seed);
  for (const e of scenario(opts, counts)) {
    const lines = format === "jsonl" ? [] : klog.lines(e);
    if (format === "klog" && lines.length === 0) continue;
    const s = format === "jsonl" ? encodeEvent(e) : lines.join("\n") + "\n";
    buf.push(s);
    pending += s.length;
    if (pending >= 1 << 20) await flush();
  }
  await flush();
  return { counts, bytes };
}
