/**
 * One writer per recording: `up --record FILE` continues FILE, and a second `up` given the same
 * FILE while the first runs interleaved two runs' lines (seqs 1..13, 1..32, 14.. — read back as
 * one controller's). The writer holds `FILE.lock`, holding its pid, until it stops; a lock whose
 * process is gone (a crash, kill -9) is taken over.
 */
import { open, readFile, stat, unlink } from "node:fs/promises";

/** `--record FILE` names a recording another live loopscope is writing. */
export class RecordingInUseError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(
      `${path} is being recorded by another loopscope (pid ${pid}): two runs in one file would read back as one; record to another file, or stop that one first`,
    );
  }
}

const UNLOCKED = async (): Promise<void> => {};

/**
 * Takes FILE's lock; resolves to its release. A device or pipe (`--record /dev/full`) is not a
 * recording two runs could share, and a folder where no lock can be written (read-only, /dev for
 * a user) is no reason to refuse the run: neither is locked.
 */
export async function lockRecording(path: string): Promise<() => Promise<void>> {
  const kind = await stat(path).catch(() => undefined);
  if (kind && !kind.isFile()) return UNLOCKED;
  const lock = `${path}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fh = await open(lock, "wx", 0o644);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return () => unlink(lock).catch(() => {});
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") return UNLOCKED;
      if (attempt > 0) throw err;
    }
    const pid = Number((await readFile(lock, "utf8").catch(() => "")).trim());
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new RecordingInUseError(path, pid);
    await unlink(lock).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
