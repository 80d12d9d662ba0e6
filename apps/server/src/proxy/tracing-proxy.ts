/**
 * The proxy and the WireTracer wired together: what passes through becomes trace events, and the
 * tracer's clock is moved on by a timer so a pass ends when its writes stop even if nothing else
 * happens. `loopscope proxy` runs one; tests and the bench start one in process.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { nowMicros } from "@loopscope/controller";
import type { UnsequencedEvent } from "@loopscope/trace";
import { startProxyServer, type ProxyServer } from "./proxy-server.ts";
import { upstreamFor } from "./upstream.ts";
import { WireTracer, DEFAULT_PASS_GAP_MS } from "./wire-tracer.ts";

export interface TracingProxyOptions {
  /** The API server to front. */
  upstream: KubeConfig;
  /** Takes each event; returns the seq its stream gave it. */
  emit(e: UnsequencedEvent): number;
  /** `--for`: "group/Kind" of the primary objects; none = learn them from status writes. */
  primaries?: readonly string[];
  passGapMs?: number;
  onPrimary?(groupKind: string): void;
  host?: string;
  port?: number;
}

export interface TracingProxy {
  server: ProxyServer;
  tracer: WireTracer;
  /** Ends the passes still open, then closes the proxy. Idempotent. */
  stop(): Promise<void>;
}

export async function startTracingProxy(o: TracingProxyOptions): Promise<TracingProxy> {
  const tracer = new WireTracer({
    emit: o.emit,
    primaries: o.primaries,
    passGapMs: o.passGapMs,
    onPrimary: o.onPrimary,
  });
  const server = await startProxyServer({
    upstream: upstreamFor(o.upstream),
    onObservation: (ob) => tracer.observe(ob),
    host: o.host,
    port: o.port,
    namespace: o.upstream.getContextObject(o.upstream.getCurrentContext())?.namespace,
  });
  // Often enough that a pass ends within a fifth of the gap after it went quiet.
  const tick = setInterval(
    () => tracer.advance(nowMicros()),
    Math.max(5, (o.passGapMs ?? DEFAULT_PASS_GAP_MS) / 5),
  );
  tick.unref();
  let stopping: Promise<void> | undefined;
  return {
    server,
    tracer,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(tick);
        await server.close();
        tracer.flush();
      })()),
  };
}
