/**
 * A one-line progress meter on stderr for long reads — only when stderr is a terminal and the
 * input is big enough to be worth it, so piped output and logs stay clean.
 */
export interface Progress {
  update(): void;
  done(): void;
}

const MIN_BYTES = 32 << 20;
const EVERY_MS = 200;

export function progressMeter(
  label: string,
  total: number | undefined,
  read: () => number,
): Progress {
  const tty = process.stderr.isTTY === true;
  if (!tty || total === undefined || total < MIN_BYTES) return { update() {}, done() {} };
  const started = performance.now();
  let last = 0;
  let shown = false;
  return {
    update() {
      const now = performance.now();
      if (now - last < EVERY_MS) return;
      last = now;
      const bytes = read();
      const pct = Math.min(100, Math.floor((bytes / total) * 100));
      const rate = bytes / 1e6 / Math.max(0.001, (now - started) / 1000);
      process.stderr.write(`\r${label}: ${pct}% (${rate.toFixed(0)} MB/s)\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}
