/**
 * The embedded Kubernetes-compatible API server: an HTTP front end (discovery, OpenAPI, resource
 * REST, watch) over the in-memory store, plus the simulated cluster actors (Deployment
 * controller, garbage collector) and fault injection. Binds 127.0.0.1 by default.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { CompetingWriter } from "./actors/competing-writer.ts";
import { CrdFinalizer } from "./actors/crd-finalizer.ts";
import { DeploymentControllerSim } from "./actors/deployment-controller.ts";
import { EventExpiry } from "./actors/event-expiry.ts";
import { GarbageCollector } from "./actors/garbage-collector.ts";
import { NodeHeartbeat } from "./actors/node-heartbeat.ts";
import { ReplicaSetSimulator } from "./actors/replica-set-simulator.ts";
import { RolloutPlans } from "./actors/rollout-plan.ts";
import { ApiError, pathNotFound } from "./errors.ts";
import { FaultInjector } from "./faults.ts";
import type { ServerContext } from "./http/context.ts";
import {
  discoverCore,
  discoverGroup,
  discoverGroups,
  discoverResources,
} from "./http/discovery.ts";
import { serveHealth, type HealthCheck } from "./http/health.ts";
import { hostAllowed } from "./http/host-check.ts";
import { aggregatedDiscovery } from "./http/negotiation.ts";
import { openApi } from "./http/openapi.ts";
import { SERVER_VERSION } from "./server-version.ts";
import { serveResource } from "./http/resource-handler.ts";
import { sendError, sendJson, sendPageNotFound } from "./http/respond.ts";
import { parseResourcePath } from "./http/route.ts";
import { idSource } from "./ids.ts";
import { kubeconfigYaml, writeKubeconfigFile } from "./kubeconfig.ts";
import { Registry } from "./registry.ts";
import { RESOURCES } from "./resources/catalog.ts";
import { crdResource } from "./resources/crd.ts";
import { schemaOf, servingOf } from "./resources/crd-serving.ts";
import type { ResourceDef } from "./resources/resource.ts";
import { namespaceResource } from "./resources/namespace.ts";
import { ObjectStore } from "./store/object-store.ts";
import { WatchHub } from "./store/watch-hub.ts";
import type { ApiServer, ApiServerOptions } from "./types.ts";

/** Browsers may only reach the server from a loopback page; CLI clients send no Origin. */
function originAllowed(origin: string | undefined): boolean {
  if (!origin) return true;
  try {
    const host = new URL(origin).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

class EmbeddedApiServer implements ApiServer {
  url = "";
  port = 0;
  readonly faults: FaultInjector;
  readonly #host: string;
  readonly #ctx: ServerContext;
  readonly #actors: { start(): void; stop(): void }[];
  readonly #writer: CompetingWriter;
  readonly #sockets = new Set<Socket>();
  readonly #health: HealthCheck[];
  #server: Server | undefined;

  constructor(opts: ApiServerOptions) {
    this.#host = opts.host ?? "127.0.0.1";
    // Time-based start: a restarted process never reissues RVs a long-lived informer has seen.
    const store = new ObjectStore(Math.floor(Date.now() / 1000) * 10);
    const registry = new Registry(store, idSource(opts.seed));
    registry.seedNamespaces();
    registry.seedFooCrd();
    registry.seedKubernetesService();
    registry.seedNode();
    const hub = new WatchHub(store, opts.historyWindow ?? 1000);
    // A CRD gone (or no longer serving its version): its type's storage goes, and its watches end.
    store.subscribe((c) => {
      if (c.resource !== crdResource) return;
      for (const def of RESOURCES)
        if (servingOf(def, store) === "not-served") hub.endResource(def, store.currentRv);
    });
    this.#writer = new CompetingWriter(registry);
    this.faults = new FaultInjector(hub, this.#writer);
    this.#ctx = {
      registry,
      hub,
      faults: this.faults,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 5000,
      resourceVersionWaitMs: opts.tooLargeResourceVersionWaitMs ?? 3000,
      now: Date.now,
    };
    this.#health = [
      { name: "ping", check: () => undefined },
      {
        name: "store",
        check: () =>
          registry.store.get(namespaceResource, undefined, "default")
            ? undefined
            : new Error("the store does not answer"),
      },
    ];
    // The Deployment controller's decisions, which the ReplicaSets and pods are made from.
    const plans = new RolloutPlans();
    this.#actors = [
      new DeploymentControllerSim(registry, plans, {
        readyDelayMs: opts.deploymentReadyDelayMs ?? 1500,
        stepDelayMs: opts.deploymentStepDelayMs ?? 100,
      }),
      new GarbageCollector(registry, opts.garbageCollectionDelayMs ?? 20),
      new CrdFinalizer(registry, opts.garbageCollectionDelayMs ?? 20),
      new EventExpiry(registry, opts.eventTtlMs ?? 3_600_000),
      new ReplicaSetSimulator(registry, plans),
      new NodeHeartbeat(registry, opts.nodeHeartbeatMs ?? 10_000),
    ];
  }

  async listen(port: number): Promise<void> {
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => sendError(res, err));
    });
    server.on("connection", (s) => {
      this.#sockets.add(s);
      s.on("close", () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, this.#host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.#server = server;
    const addr = server.address();
    this.port = typeof addr === "object" && addr ? addr.port : port;
    this.url = `http://${this.#host.includes(":") ? `[${this.#host}]` : this.#host}:${this.port}`;
    for (const a of this.#actors) a.start();
  }

  kubeconfigYaml(): string {
    return kubeconfigYaml(this.url);
  }

  writeKubeconfig(path: string): Promise<void> {
    return writeKubeconfigFile(path, this.kubeconfigYaml());
  }

  activeWatches(): number {
    return this.#ctx.hub.size;
  }

  watchesStarted(): number {
    return this.#ctx.hub.started;
  }

  async #close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    this.#ctx.hub.closeAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.#sockets) s.destroy();
    server.closeAllConnections();
    await closed;
  }

  async stop(): Promise<void> {
    for (const a of this.#actors) a.stop();
    this.#writer.stop();
    await this.#close();
  }

  async restart(): Promise<void> {
    await this.#close();
    await this.listen(this.port);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, this.#host)) {
      throw new ApiError(
        403,
        "Forbidden",
        `Host ${JSON.stringify(req.headers.host ?? "")} is not this server: it answers loopback names and IP addresses only`,
      );
    }
    if (!originAllowed(req.headers.origin)) {
      throw new ApiError(403, "Forbidden", "cross-origin requests are not allowed");
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const accept = req.headers.accept;
    const store = this.#ctx.registry.store;
    const served = RESOURCES.filter((r) => servingOf(r, store) !== "not-served");
    const schemas = (r: ResourceDef) => schemaOf(r, store);
    if (req.method === "GET") {
      if (path === "/version") return sendJson(res, 200, SERVER_VERSION);
      if (serveHealth(res, path, url.searchParams, this.#health)) return;
      if (path === "/api" || path === "/apis") {
        const d =
          path === "/api"
            ? discoverCore(aggregatedDiscovery(accept), `${this.#host}:${this.port}`, served)
            : discoverGroups(aggregatedDiscovery(accept), served);
        return sendJson(res, 200, d.body, d.contentType);
      }
      const parts = path.split("/").filter(Boolean);
      if (parts[0] === "api" && parts.length === 2)
        return this.#sendOr404(res, discoverResources("", parts[1], served));
      if (parts[0] === "apis" && parts.length === 2)
        return this.#sendOr404(res, discoverGroup(parts[1], served));
      if (parts[0] === "apis" && parts.length === 3)
        return this.#sendOr404(res, discoverResources(parts[1], parts[2], served));
      if (path === "/openapi/v3") return sendJson(res, 200, openApi(served, schemas).root);
      if (path.startsWith("/openapi/v3/")) {
        const doc = openApi(served, schemas).docs.get(path.slice("/openapi/v3/".length));
        if (!doc) throw pathNotFound();
        res.writeHead(200, {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(doc.body),
        });
        res.end(doc.body);
        return;
      }
    }
    const rr = parseResourcePath(path);
    if (!rr) throw pathNotFound();
    // A custom resource whose CRD is gone (or no longer serves its version): apiextensions hands
    // the request on, and the server's last handler answers it.
    if (!served.includes(rr.def)) return sendPageNotFound(res);
    await serveResource(this.#ctx, req, res, rr, url.searchParams);
  }

  #sendOr404(res: ServerResponse, body: unknown): void {
    if (body === undefined) throw pathNotFound();
    sendJson(res, 200, body);
  }
}

/** Starts an embedded API server; `port: 0` (the default) picks a free port. */
export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const server = new EmbeddedApiServer(opts);
  await server.listen(opts.port ?? 0);
  return server;
}
