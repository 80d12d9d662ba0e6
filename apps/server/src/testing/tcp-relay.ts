/**
 * A TCP relay to a local port, for tests: what a client sees when the network between it and the
 * API server goes — no error, no answer: open connections just fall silent.
 */
import { connect, createServer, type Socket } from "node:net";

export interface TcpRelay {
  port: number;
  /** Stops passing bytes either way, on the connections it holds and on new ones. */
  cut(): void;
  /** Passes bytes again, on every connection. */
  heal(): void;
  /**
   * Passes bytes on new connections only: the ones held across the cut are never heard from
   * again, and nothing says so — what a connection is after the network changed under it (a new
   * Wi-Fi, a VPN dialled again).
   */
  healNewOnly(): void;
  close(): void;
}

export async function startTcpRelay(target: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let cut = false;
  const relay = createServer((inbound) => {
    const outbound = connect(target, "127.0.0.1");
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(from);
      from.on("data", (b) => to.write(b));
      from.on("close", () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on("error", () => to.destroy());
      if (cut) from.pause();
    }
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  return {
    port: (relay.address() as { port: number }).port,
    cut() {
      cut = true;
      for (const s of sockets) s.pause();
    },
    heal() {
      cut = false;
      for (const s of sockets) s.resume();
    },
    healNewOnly() {
      cut = false;
    },
    close() {
      for (const s of sockets) s.destroy();
      relay.close();
    },
  };
}
