/**
 * The /ws endpoint: refuses upgrades from a foreign Host or Origin or without a token (403,
 * before any WebSocket exists), then gives each client a ClientStream, a `hello` and the
 * current objects; pushes a fresh `objects` snapshot to every client when objects change
 * (coalesced to at most one per `objectsMs`; a congested client gets it once it drains); on a
 * kubeconfig's cluster, the cluster's reachability after `hello` and to every client on each
 * change (rare and small: sent even to a congested client, behind what it has queued); the same
 * for a live run's Foo API presence and its informers' health, and for its recording once a write
 * to it failed.
 * A client that does not answer a WebSocket ping within `heartbeatMs` is cut off, so a vanished
 * peer (laptop lid closed, cable pulled) does not keep a stream alive; only a pong that echoes the
 * ping's random payload answers it.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { API } from "@loopscope/protocol";
import type { DashboardBackend } from "../dashboard/backend.ts";
import { infoFor } from "../http/api-routes.ts";
import { requestUrl } from "../http/request-url.ts";
import { accessOf, hostAllowed, originAllowed, type AccessPolicy } from "../http/security.ts";
import { ClientStream, DEFAULT_TUNING, type StreamTuning } from "./client-stream.ts";

export interface StreamServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly clients: number;
  /** Largest per-client socket buffer seen so far (bytes). */
  peakBuffered(): number;
  /** Clients closed so far for sending without reading the replies (1008). */
  unreadClosed(): number;
  close(): void;
}

export function createStreamServer(
  policy: AccessPolicy,
  backend: DashboardBackend,
  tuning: StreamTuning = DEFAULT_TUNING,
  objectsMs = 200,
  heartbeatMs = 30_000,
): StreamServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  // The payload of each socket's last ping while it is unanswered. Only a pong that echoes it
  // counts: a client may send pongs unasked, and one that never reads (so never saw the ping)
  // kept itself alive that way.
  const unanswered = new WeakMap<object, Buffer>();
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (unanswered.has(ws)) {
        ws.terminate();
        continue;
      }
      const payload = randomBytes(8);
      unanswered.set(ws, payload);
      ws.ping(payload);
    }
  }, heartbeatMs);
  heartbeat.unref();
  const streams = new Set<ClientStream>();
  let objectsTimer: NodeJS.Timeout | undefined;
  let peak = 0;
  let unreadClosed = 0;

  const stopObjects = backend.objects?.onChanged(() => {
    objectsTimer ??= setTimeout(pushObjects, objectsMs);
  });
  const reachability = backend.reachability;
  const stopReachability = reachability?.onChange(() => {
    const cluster = reachability.state();
    for (const s of streams) s.send({ type: "reachability", cluster });
  });

  const fooApi = backend.fooApi;
  const stopFooApi = fooApi?.onChange(() => {
    const state = fooApi.state();
    for (const s of streams) s.send({ type: "fooApi", fooApi: state });
  });

  const informers = backend.informers;
  const stopInformers = informers?.onChange(() => {
    const state = informers.state();
    for (const s of streams) s.send({ type: "informers", informers: state });
  });

  const recording = backend.recording;
  const stopRecording = recording?.onFailure(() => {
    const failure = recording.failure();
    if (failure) for (const s of streams) s.send({ type: "recording", failure });
  });

  function pushObjects(): void {
    objectsTimer = undefined;
    const objects = backend.objects!.snapshot();
    let retry = false;
    for (const s of streams) {
      if (s.congested) retry = true;
      else s.send({ type: "objects", objects });
    }
    if (retry) objectsTimer = setTimeout(pushObjects, objectsMs);
  }

  return {
    handleUpgrade(req, socket, head) {
      const url = requestUrl(req);
      if (!url) {
        socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      const access = accessOf(policy, url.searchParams.get("token"));
      const ok =
        url.pathname === API.ws &&
        hostAllowed(policy, req.headers.host) &&
        originAllowed(policy, req.headers.origin, req.headers.host) &&
        access !== "none";
      if (!ok) {
        socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const stream = new ClientStream(ws, backend.hub, tuning);
        ws.on("pong", (data) => {
          if (unanswered.get(ws)?.equals(data)) unanswered.delete(ws);
        });
        streams.add(stream);
        ws.on("close", () => {
          peak = Math.max(peak, stream.peakBuffered);
          if (stream.closedUnread) unreadClosed++;
          streams.delete(stream);
        });
        stream.send({ type: "hello", info: infoFor(backend, access === "reader") });
        // A page that opens during an outage must see it, not only one open before it began.
        if (reachability) stream.send({ type: "reachability", cluster: reachability.state() });
        if (fooApi) stream.send({ type: "fooApi", fooApi: fooApi.state() });
        if (informers) stream.send({ type: "informers", informers: informers.state() });
        const failure = recording?.failure();
        if (failure) stream.send({ type: "recording", failure });
        if (backend.objects) stream.send({ type: "objects", objects: backend.objects.snapshot() });
      });
    },
    get clients() {
      return streams.size;
    },
    peakBuffered() {
      return Math.max(peak, ...[...streams].map((s) => s.peakBuffered));
    },
    unreadClosed() {
      return unreadClosed + [...streams].filter((s) => s.closedUnread).length;
    },
    close() {
      clearInterval(heartbeat);
      stopObjects?.();
      stopReachability?.();
      stopFooApi?.();
      stopInformers?.();
      stopRecording?.();
      if (objectsTimer) clearTimeout(objectsTimer);
      for (const s of streams) s.close();
      for (const ws of wss.clients) ws.close(1001, "server shutting down");
      wss.close();
    },
  };
}
