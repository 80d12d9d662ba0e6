/**
 * Where the proxy sends requests: the embedded API server (plain HTTP on loopback) or a
 * kubeconfig's cluster, reached with that kubeconfig's own credentials — client certs, a token,
 * basic auth, an exec plugin or auth provider — applied by client-node's KubeConfig to each
 * request, so a token an exec plugin refreshes is fresh. Connections are kept alive: a controller
 * makes many small requests.
 */
import http from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";

export interface UpstreamRequest {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  headers: http.OutgoingHttpHeaders;
}

export interface Upstream {
  /** The API server's URL (with credentials if the kubeconfig put any in it: never print it). */
  readonly url: URL;
  request(r: UpstreamRequest): Promise<http.ClientRequest>;
  close(): void;
}

export function upstreamFor(kc: KubeConfig): Upstream {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error("the kubeconfig has no current cluster");
  const url = new URL(cluster.server);
  const base = url.pathname.replace(/\/+$/, "");
  const secure = url.protocol === "https:";
  const user = kc.getCurrentUser();
  // Credentials or TLS material to apply: without them (the embedded server) a request costs
  // no await on the kubeconfig.
  const needsAuth =
    secure || Boolean(user && (user.token || user.exec || user.authProvider || user.username));
  // noDelay: a small request or response must not wait for an ACK (Nagle) on its way.
  const agentOptions = { keepAlive: true, maxSockets: 256, noDelay: true };
  let agent: http.Agent | undefined;
  return {
    url,
    async request(r) {
      const headers: http.OutgoingHttpHeaders = r.headers;
      const opts: https.RequestOptions = {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || (secure ? 443 : 80),
        method: r.method,
        path: base + r.path,
        headers,
      };
      if (needsAuth) {
        const auth: https.RequestOptions = { headers: {} };
        await kc.applyToHTTPSOptions(auth);
        for (const [k, v] of Object.entries(auth.headers ?? {})) headers[k] = v;
        if (auth.auth) opts.auth = auth.auth;
        // TLS material does not change while we run: one agent holds it (and the connections).
        agent ??= secure
          ? new https.Agent({
              ...agentOptions,
              ca: auth.ca,
              cert: auth.cert,
              key: auth.key,
              servername: auth.servername,
              ...(auth.rejectUnauthorized !== undefined
                ? { rejectUnauthorized: auth.rejectUnauthorized }
                : {}),
            })
          : new http.Agent(agentOptions);
      } else {
        agent ??= new http.Agent(agentOptions);
      }
      opts.agent = agent;
      return secure ? https.request(opts) : http.request(opts);
    },
    close() {
      agent?.destroy();
    },
  };
}
