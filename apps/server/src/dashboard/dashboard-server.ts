/**
 * The dashboard's HTTP + WebSocket server: API routes, the stream, the static web app, and any
 * extra route modules the caller mounts (`extraRoutes`, e.g. metrics).
 *
 * Binds `host` (127.0.0.1 unless told otherwise). The owner token is random per server; with
 * `share`, a second random token opens read-only sessions via `shareUrl`.
 */
import { createServer, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { isLoopbackAddress, newToken, type AccessPolicy } from "../http/security.ts";
import { apiRoutes } from "../http/api-routes.ts";
import { createRouter, type RequestContext } from "../http/router.ts";
import { mountedRoutes, type RouteModule } from "../http/mounted-routes.ts";
import { createStaticHandler } from "../http/static-files.ts";
import { createStreamServer, type StreamServer } from "../ws/stream-server.ts";
import type { StreamTuning } from "../ws/client-stream.ts";
import type { DashboardBackend } from "./backend.ts";

export interface DashboardServerOptions {
  backend: DashboardBackend;
  host: string;
  /** 0 = any free port. */
  port: number;
  /** The flag that chose `port`, named when it is taken (default --port). */
  portFlag?: string;
  /** The built web app (apps/web/dist). */
  webRoot: string;
  share?: boolean;
  /** Route modules for this server only, besides http/mounted-routes.ts (which all get). */
  extraRoutes?: RouteModule[];
  tuning?: StreamTuning;
  /** How often the stream pings each socket; one that has not answered by the next is cut. */
  heartbeatMs?: number;
}

export interface DashboardServer {
  url: string;
  /** Read-only URL (with the share token), when `share` was asked. */
  shareUrl?: string;
  port: number;
  /** For in-process clients (tests, benches) only; never printed or logged. */
  readonly tokens: { owner: string; share?: string };
  readonly stream: StreamServer;
  close(): Promise<void>;
}

export class PortTakenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    flag = "--port",
  ) {
    super(
      `port ${port} on ${host} is already in use (another loopscope?); pick one with ${flag} N, or ${flag} 0 for any free port`,
    );
  }
}

export async function startDashboardServer(opts: DashboardServerOptions): Promise<DashboardServer> {
  const policy: AccessPolicy = {
    ownerToken: newToken(),
    shareToken: opts.share ? newToken() : undefined,
    bindHost: opts.host,
    port: opts.port,
  };
  const routes = [
    ...apiRoutes(opts.backend),
    ...[...mountedRoutes, ...(opts.extraRoutes ?? [])].flatMap((make) => make(opts.backend)),
  ];
  const tokenFor = (ctx: RequestContext): string | undefined => {
    const share = ctx.url.searchParams.get("share");
    if (share !== null) return share === policy.shareToken ? share : undefined;
    return isLoopbackAddress(ctx.req.socket.remoteAddress) ? policy.ownerToken : undefined;
  };
  const server = createServer(
    {
      requestTimeout: 30_000,
      headersTimeout: 10_000,
      // Node enforces both timeouts only when it checks the connections, every 30 s by default:
      // a client that never finished its headers was cut after up to 40 s, not 10.
      connectionsCheckingInterval: 1_000,
      maxHeaderSize: 16 * 1024,
    },
    createRouter(policy, routes, createStaticHandler(opts.webRoot, tokenFor)),
  );
  const stream = createStreamServer(policy, opts.backend, opts.tuning, undefined, opts.heartbeatMs);
  server.on("upgrade", (req, socket, head) => stream.handleUpgrade(req, socket, head));
  await listen(server, opts.host, opts.port, opts.portFlag);
  const address = server.address();
  policy.port = typeof address === "object" && address ? address.port : opts.port;
  const hostPart = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  const shownHost = opts.host === "0.0.0.0" || opts.host === "::" ? "127.0.0.1" : hostPart;
  const url = `http://${shownHost}:${policy.port}/`;
  // Others reach a wildcard bind by the machine's address, not by 127.0.0.1.
  const shareHost = shownHost === hostPart ? hostPart : (lanAddress() ?? shownHost);
  const shareUrl = policy.shareToken
    ? `http://${shareHost}:${policy.port}/?share=${policy.shareToken}`
    : undefined;
  if (shareUrl) {
    // Presenter mode shows attendees this link; it is read-only, so every client may see it.
    const info = opts.backend.info.bind(opts.backend);
    opts.backend.info = () => ({ ...info(), shareUrl });
  }
  return {
    url,
    shareUrl,
    port: policy.port,
    tokens: { owner: policy.ownerToken, share: policy.shareToken },
    stream,
    async close() {
      stream.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === "IPv4")?.address;
}

function listen(server: Server, host: string, port: number, flag?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(err.code === "EADDRINUSE" ? new PortTakenError(host, port, flag) : err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}
