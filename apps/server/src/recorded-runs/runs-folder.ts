/**
 * The folder recorded runs live in (./runs by default). A client may name a run only by a
 * plain file name matching RUN_NAME_PATTERN; the resolved path must be a regular file directly
 * inside the folder (symlinks out of it are refused).
 */
import { lstat, mkdir, readdir, realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { RUN_NAME_PATTERN, type RunInfo } from "@loopscope/protocol";

export class RunsFolder {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** A fresh recording path: runs/2026-12-02T09-14-06Z.jsonl (suffixed if taken). */
  async newRecordingPath(now = new Date()): Promise<string> {
    await this.ensure();
    const stamp = now
      .toISOString()
      .replace(/\.\d+Z$/, "Z")
      .replace(/:/g, "-");
    for (let i = 0; ; i++) {
      const name = `${stamp}${i ? `-${i}` : ""}.jsonl`;
      const path = join(this.dir, name);
      if (!(await lstat(path).catch(() => undefined))) return path;
    }
  }

  async list(): Promise<RunInfo[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const runs: RunInfo[] = [];
    for (const name of names) {
      if (!RUN_NAME_PATTERN.test(name)) continue;
      const info = await lstat(join(this.dir, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      runs.push({ name, bytes: info.size, modified: info.mtime.toISOString() });
    }
    return runs.sort((a, b) => b.modified.localeCompare(a.modified));
  }

  /** The absolute path of run `name`, or undefined when the name or the file is not acceptable. */
  async resolve(name: string): Promise<string | undefined> {
    if (!RUN_NAME_PATTERN.test(name)) return undefined;
    const path = join(this.dir, name);
    if (dirname(path) !== this.dir) return undefined;
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const real = await realpath(path);
    return dirname(real) === (await realpath(this.dir)) ? real : undefined;
  }

  /** The name a client sees for a recording: the file name only, never a local path. */
  nameOf(path: string): string {
    return basename(path);
  }
}
