/**
 * The Kubernetes API proxy: an HTTP server on 127.0.0.1 that forwards every request to the
 * upstream API server unchanged — method, path, query, body, and the client's Accept (JSON or
 * protobuf), streaming both ways, a watch never buffered — and reports what it forwarded as
 * WireObservations.
 *
 * Invariants:
 * - Bytes reach the client exactly as upstream sent them and as soon as they arrive; recording
 *   works on a copy after each chunk was written on, so it can slow nothing but itself.
 * - A dropped upstream connection is passed on as a dropped connection (the client's watch ends
 *   the way the API server's would have), and a client that goes away ends its upstream request:
 *   nothing is left hanging either side.
 * - Who may use it: as with `kubectl proxy`, any process of this machine while it runs — it binds
 *   loopback, refuses a Host header that is not a loopback name or IP (DNS rebinding) and any
 *   request with an Origin (browsers; Kubernetes clients send none). No token: client-go (kubectl,
 *   controller-runtime) sends a kubeconfig's credentials only over TLS, and the proxy speaks plain
 *   HTTP. A client's Authorization header is dropped; upstream sees the kubeconfig's credentials.
 * - Recorded: requests of the controller — everything but kubectl (User-Agent `kubectl/…`), whose
 *   requests pass through unrecorded. Only JSON bodies are read (protobuf passes untouched; of
 *   it, a write's verb, target and status are recorded).
 * - Not forwarded: connection upgrades (exec, attach, port-forward) answer 501; an offer of
 *   HTTP/2 (h2c) is answered over HTTP/1.1.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nowMicros } from "@loopscope/controller";
import { PortTakenError } from "../dashboard/dashboard-server.ts";
import { hostAllowed, type AccessPolicy } from "../http/security.ts";
import { isWrite, parseApiRequest, type ApiRequest } from "./api-path.ts";
import { BodyCopy, LineTap } from "./body-tap.ts";
import { isStatus, listItems, objectMeta, statusReason } from "./object-meta.ts";
import type { Upstream } from "./upstream.ts";
import type { WireObservation } from "./wire.ts";

export interface ProxyServerOptions {
  upstream: Upstream;
  onObservation(o: WireObservation): void;
  /** Default 127.0.0.1; the proxy carries the upstream's credentials, so keep it on loopback. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The written kubeconfig's namespace (the upstream context's; default "default"). */
  namespace?: string;
}

export interface ProxyServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** A kubeconfig for the controller: this proxy, no credentials. */
  kubeconfigYaml(): string;
  close(): Promise<void>;
}

/** Bodies bigger than this are forwarded but not recorded. */
const RECORD_LIMIT = 64 * 1024 * 1024;
const REQUEST_RECORD_LIMIT = 4 * 1024 * 1024;
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "http2-settings",
  "te",
  "trailer",
];

export async function startProxyServer(o: ProxyServerOptions): Promise<ProxyServer> {
  const host = o.host ?? "127.0.0.1";
  // hostAllowed's policy; the proxy has no token to go with it.
  const policy: AccessPolicy = { ownerToken: "", bindHost: host, port: 0 };
  const server = http.createServer({ noDelay: true }, (req, res) => {
    handle(req, res).catch((err: unknown) => fail(res, 502, `upstream: ${messageOf(err)}`));
  });
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  // No "upgrade" listener: Node then hands a request that offers an upgrade to `handle`, which
  // refuses the streams it cannot forward and answers an offer of HTTP/2 (h2c, what the JDK's
  // client makes on plain HTTP) over HTTP/1.1, as the API server does. A listener took every
  // request with an Upgrade header, and every request of such a client got the 501.

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(policy, req.headers.host)) return fail(res, 403, "Host not allowed");
    if (req.headers.origin !== undefined) return fail(res, 403, "browser requests are refused");
    const upgrade = req.headers.upgrade;
    if (upgrade !== undefined && !/^h2c$/i.test(upgrade.trim()))
      return fail(res, 501, "does not forward exec, attach or port-forward");
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    const ua = req.headers["user-agent"] ?? "";
    const api = ua.startsWith("kubectl/") ? undefined : parseApiRequest(method, url);
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    delete headers.host;
    delete headers.authorization;
    const up = await o.upstream.request({ method, path: url, headers });
    // A read or write of the controller: its pass began before it reached us (see WireTracer).
    const acts = api !== undefined && (api.verb === "get" || isWrite(api.verb));
    const sent = acts && isWrite(api.verb) ? new BodyCopy(REQUEST_RECORD_LIMIT) : undefined;
    if (sent) req.on("data", (c: Buffer) => sent.push(c));
    if (acts) {
      req.on("end", () => {
        const body = sent?.json();
        o.onObservation({
          type: "begin",
          ts: nowMicros(),
          request: api,
          ...(body !== undefined ? { sent: body } : {}),
        });
      });
    }
    req.pipe(up);
    // The client went away (closed its watch, timed out): end the upstream request with it.
    res.on("close", () => {
      if (!res.writableFinished) up.destroy();
    });
    up.on("error", (err) => {
      if (api && isWrite(api.verb)) {
        o.onObservation({
          type: "write",
          ts: nowMicros(),
          request: api,
          code: 502,
          reason: err.message,
        });
      }
      // Mid-body, the only honest thing to tell the client is a dropped connection.
      if (res.headersSent) res.destroy();
      else fail(res, 502, `upstream: ${err.message}`);
    });
    up.on("response", (ures) => {
      const out: http.OutgoingHttpHeaders = { ...ures.headers };
      for (const h of HOP_BY_HOP) delete out[h];
      res.writeHead(ures.statusCode ?? 502, ures.statusMessage, out);
      // A watch's headers go at once (clients wait for them before the first event); any other
      // response's go with its body, in one packet.
      if (api?.verb === "watch" || (api === undefined && /[?&]watch=(true|1)/.test(url)))
        res.flushHeaders();
      const json = (ures.headers["content-type"] ?? "").includes("json");
      const recordAs = api ? recorder(api, ures, json, sent) : undefined;
      ures.pipe(res);
      if (recordAs) ures.on("data", recordAs.push);
      ures.on("end", () => recordAs?.end());
      // Upstream dropped the connection mid-body: drop ours too (pipe alone would leave it open).
      ures.on("close", () => {
        if (!ures.complete) res.destroy();
      });
      ures.on("error", () => res.destroy());
    });
  }

  function recorder(
    api: ApiRequest,
    ures: http.IncomingMessage,
    json: boolean,
    sent: BodyCopy | undefined,
  ): { push(c: Buffer): void; end(): void } | undefined {
    const code = ures.statusCode ?? 0;
    const resource = { group: api.group, resource: api.resource };
    if (api.verb === "watch") {
      if (!json || code !== 200) return undefined;
      const tap = new LineTap((v) => {
        const e = v as { type?: unknown; object?: unknown };
        if (e.type !== "ADDED" && e.type !== "MODIFIED" && e.type !== "DELETED") return;
        const object = objectMeta(e.object);
        if (object)
          o.onObservation({ type: "watch", ts: nowMicros(), event: e.type, object, resource });
      }, RECORD_LIMIT);
      return { push: (c) => tap.push(c), end: () => {} };
    }
    const gzipped = ures.headers["content-encoding"] === "gzip";
    const body = json ? new BodyCopy(RECORD_LIMIT) : undefined;
    return {
      push: (c) => body?.push(c),
      end: () => {
        const ts = nowMicros();
        const value = body?.json(gzipped);
        if (api.verb === "list") {
          const items = code === 200 ? listItems(value) : undefined;
          if (items) o.onObservation({ type: "list", ts, items, resource });
        } else if (api.verb === "get") {
          const object = code < 400 ? objectMeta(value) : undefined;
          o.onObservation({ type: "read", ts, request: api, code, ...(object ? { object } : {}) });
        } else {
          const w: WireObservation = { type: "write", ts, request: api, code };
          const reason = statusReason(value);
          if (reason && code >= 400) w.reason = reason;
          const object = isStatus(value) ? undefined : objectMeta(value);
          if (object) w.object = object;
          const reqBody = sent?.json();
          if (reqBody !== undefined) w.sent = reqBody;
          o.onObservation(w);
        }
      },
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "EADDRINUSE" ? new PortTakenError(host, o.port ?? 0) : e),
    );
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  policy.port = port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    kubeconfigYaml: () => kubeconfigYaml(url, o.namespace ?? "default"),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        o.upstream.close();
      }),
  };
}

/** Answers with a Kubernetes Status, as an API server would, so clients show the message. */
function fail(res: http.ServerResponse, code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reason =
    code === 403 ? "Forbidden" : code === 501 ? "NotImplemented" : "ServiceUnavailable";
  res.writeHead(code, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `loopscope proxy: ${message}`,
      reason,
      code,
    }),
  );
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * `insecure-skip-tls-verify` only because client-node 1.x refuses an http:// server without it:
 * there is no TLS between the controller and the proxy (both on this machine's loopback).
 */
function kubeconfigYaml(server: string, namespace: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: loopscope-proxy",
    "  cluster:",
    `    server: ${server}`,
    "    insecure-skip-tls-verify: true",
    "users:",
    "- name: loopscope-proxy",
    "  user: {}",
    "contexts:",
    "- name: loopscope-proxy",
    "  context:",
    "    cluster: loopscope-proxy",
    "    user: loopscope-proxy",
    `    namespace: ${JSON.stringify(namespace)}`,
    "current-context: loopscope-proxy",
    "",
  ].join("\n");
}
