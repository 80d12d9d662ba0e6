/**
 * proxy: what `loopscope proxy` adds to a request. The same requests — a GET of a Foo and a no-op
 * PUT of its status, alternately, one at a time on a keep-alive connection, as a controller's
 * client makes them — go straight to the embedded API server (baseline) or through the tracing
 * proxy recording them into a TraceHub, as `loopscope proxy` runs it (and through the bare proxy,
 * forwarding only: what recording adds on top). Value = p95 latency in ms
 * over N requests (p50 in the details); the p95 added is printed after each round.
 * Goal: the proxy adds ≤ 2 ms at p95.
 *
 *   pnpm bench proxy [--smoke]          (PROXY_REQUESTS=N to change the 2000)
 */
import http from "node:http";
import { fastCluster } from "./lib/foo-burst.ts";
import { TraceHub } from "../../apps/server/src/hub/trace-hub.ts";
import { startTracingProxy } from "../../apps/server/src/proxy/tracing-proxy.ts";
import { startProxyServer } from "../../apps/server/src/proxy/proxy-server.ts";
import { upstreamFor } from "../../apps/server/src/proxy/upstream.ts";
import type { Bench, Measurement } from "./lib/types.ts";

const FOO = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/bench-foo";

function request(agent: http.Agent, base: string, method: string, path: string, body?: string) {
  return new Promise<string>((resolve, reject) => {
    const req = http.request(base + path, {
      agent,
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
    });
    req.on("response", (res) => {
      let s = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (s += c));
      res.on("end", () =>
        (res.statusCode ?? 500) < 400
          ? resolve(s)
          : reject(new Error(`${method} ${path}: ${res.statusCode} ${s}`)),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function latencies(base: string, count: number): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const foo = await request(agent, base, "GET", FOO);
      const t1 = performance.now();
      await request(agent, base, "PUT", `${FOO}/status`, foo);
      times.push(t1 - t0, performance.now() - t1);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return {
    value: percentile(times, 0.95),
    details: { p50: percentile(times, 0.5), requests: times.length },
  };
}

const bench: Bench = {
  description:
    "p95 ms of a GET and a no-op status PUT, straight to the API server vs through loopscope proxy (goal: adds ≤ 2 ms)",
  unit: "ms",
  better: "lower",
  async setup(ctx) {
    const count = ctx.smoke ? 25 : Number(process.env.PROXY_REQUESTS ?? 1000);
    const { api, kubeConfig: upstream } = await fastCluster();
    const hub = new TraceHub();
    const proxy = await startTracingProxy({
      upstream,
      emit: (e) => hub.push(e).seq,
      primaries: ["samplecontroller.k8s.io/Foo"],
    });
    await request(
      new http.Agent(),
      api.url,
      "POST",
      FOO.slice(0, FOO.lastIndexOf("/")),
      JSON.stringify({
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        metadata: { name: "bench-foo" },
        spec: { deploymentName: "bench-foo", replicas: 1 },
      }),
    );
    // The same proxy recording nothing: what forwarding alone costs.
    const bare = await startProxyServer({
      upstream: upstreamFor(upstream),
      onObservation: () => {},
    });
    let direct = NaN;
    return {
      baseline: {
        name: "direct",
        run: async () => {
          const m = await latencies(api.url, count);
          direct = m.value;
          return m;
        },
      },
      cases: [
        { name: "forwarding only", run: () => latencies(bare.url, count) },
        {
          name: "through loopscope proxy",
          run: async () => {
            const m = await latencies(proxy.server.url, count);
            ctx.log(
              `p95 added: ${(m.value - direct).toFixed(2)} ms (${hub.lastSeq} events traced so far)`,
            );
            return m;
          },
        },
      ],
      info: { requests: count * 2 },
      async teardown() {
        await proxy.stop();
        await bare.close();
        await api.stop();
      },
    };
  },
};

export default bench;
