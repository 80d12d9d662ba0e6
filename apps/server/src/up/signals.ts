/**
 * Waits for SIGINT or SIGTERM. A second signal while shutting down exits at once (130), for
 * the user whose clean stop is stuck — but only a second *press*: Ctrl-C reaches this process
 * both from the terminal and relayed by its launchers (pnpm, tsx) within milliseconds, and
 * those copies must not turn a clean stop into a forced one.
 */
const REPEAT_WINDOW_MS = 1000;

export function untilSignal(onForce: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals) => {
      const at = Date.now();
      process.off("SIGINT", first);
      process.off("SIGTERM", first);
      const again = () => {
        if (Date.now() - at < REPEAT_WINDOW_MS) return;
        onForce();
        process.exit(130);
      };
      process.on("SIGINT", again);
      process.on("SIGTERM", again);
      resolve(signal);
    };
    process.on("SIGINT", first);
    process.on("SIGTERM", first);
  });
}
