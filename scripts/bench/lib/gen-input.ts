/**
 * Generated trace files for benches (scripts/gen), cached under .bench/data by size and format so
 * the 1M-event inputs are written once per machine, not once per run.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeTrace, type GenFormat } from "../../gen/write.ts";

export interface GenFile {
  path: string;
  bytes: number;
  events: number;
}

const VERSION = 1;

export async function genFile(dir: string, events: number, format: GenFormat): Promise<GenFile> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `gen-v${VERSION}-${events}.${format === "jsonl" ? "jsonl" : "log"}`);
  if (!existsSync(path)) {
    const tmp = `${path}.tmp`;
    const out = createWriteStream(tmp);
    await writeTrace(out, { events }, format);
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    renameSync(tmp, path);
  }
  return { path, bytes: statSync(path).size, events };
}
