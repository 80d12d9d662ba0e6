/**
 * The embedded API server as the session uses it (packages/apiserver's `startApiServer`).
 * Typed here by the contract agreed with packages/apiserver so this folder builds while that
 * package lands; the import is dynamic so `loopscope run --kubeconfig` never loads it.
 */
export interface ApiServerOptions {
  port?: number;
  /** How long the simulated Deployment controller takes to make a pod available. */
  deploymentReadyDelayMs?: number;
  [option: string]: unknown;
}

export interface ApiServer {
  url: string;
  kubeconfigYaml(): string;
  writeKubeconfig(path: string): unknown;
  /** Fault injection (watch close, 410, 500s …); shape owned by packages/apiserver. */
  faults: unknown;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

export async function startEmbeddedApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const mod = (await import("@loopscope/apiserver")) as unknown as {
    startApiServer?: (o: ApiServerOptions) => Promise<ApiServer>;
  };
  if (typeof mod.startApiServer !== "function")
    throw new Error("the embedded API server is not available in this build");
  return mod.startApiServer(opts);
}
