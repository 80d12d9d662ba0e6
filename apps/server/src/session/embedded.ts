/**
 * The embedded API server (packages/apiserver), loaded on demand so `loopscope run --kubeconfig`
 * never pays for it.
 */
import type { ApiServer, ApiServerOptions } from "@loopscope/apiserver";

export type { ApiServer, ApiServerOptions, Faults } from "@loopscope/apiserver";

export async function startEmbeddedApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const { startApiServer } = await import("@loopscope/apiserver");
  return startApiServer(opts);
}
