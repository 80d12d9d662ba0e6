/**
 * Generated trace files for benches (scripts/gen), cached under the bench's scratch directory by
 * size, format, log shape and key count, so the 1M-event inputs are written once per machine, not
 * once per run.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeTrace, type GenFormat } from "../../gen/write.ts";
import type { LogShape } from "../../gen/shapes.ts";

export interface GenFile {
  path: string;
  bytes: number;
  events: number;
}

/** Cached inputs are reused by name: bumped whenever what the generator writes changes. */
const VERSION = 2;

export interface GenVariant {
  /** How a klog file's lines are written (default canonical). */
  shape?: LogShape;
  /** Distinct Foos (default: scripts/gen's, events / 100). */
  foos?: number;
}

export async function genFile(
  dir: string,
  events: number,
  format: GenFormat,
  { shape = "canonical", foos }: GenVariant = {},
): Promise<GenFile> {
  mkdirSync(dir, { recursive: true });
  const variant = `${format === "klog" && shape !== "canonical" ? `-${shape}` : ""}${foos !== undefined ? `-k${foos}` : ""}`;
  const path = join(
    dir,
    `gen-v${VERSION}-${events}${variant}.${format === "jsonl" ? "jsonl" : "log"}`,
  );
  if (!existsSync(path)) {
    const tmp = `${path}.tmp`;
    const out = createWriteStream(tmp);
    await writeTrace(out, { events, ...(foos !== undefined ? { foos } : {}) }, format, shape);
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    renameSync(tmp, path);
  }
  return { path, bytes: statSync(path).size, events };
}
