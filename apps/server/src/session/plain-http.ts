/**
 * A kubeconfig's plain-http:// clusters made usable by client-node. kubectl talks to
 * `server: http://…` as it is (a `kubectl proxy` kubeconfig has nothing else), but client-node
 * 1.x refuses it ("HTTP protocol is not allowed when skipTLSVerify is not set or false") unless
 * the cluster also says insecure-skip-tls-verify, which over plain HTTP changes nothing: there
 * is no TLS to verify.
 */
import type { KubeConfig } from "@kubernetes/client-node";

export function allowPlainHttp(kc: KubeConfig): void {
  kc.clusters = kc.clusters.map((c) =>
    c.server.startsWith("http:") ? { ...c, skipTLSVerify: true } : c,
  );
}
