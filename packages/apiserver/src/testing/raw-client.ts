/**
 * Test helpers: a minimal HTTP client for the embedded server (plain fetch, so tests see exactly
 * what goes over the wire) and a watch-stream reader. Test-only; not exported from the package.
 */

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";
export const DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
/** What a Foo body must name (a custom resource's kind does not come from the URL). */
export const FOO_TYPE = { apiVersion: "samplecontroller.k8s.io/v1alpha1", kind: "Foo" } as const;

/** Tries of a request whose connection fails (see `request`). */
const MAX_TRIES = 4;

export class RawClient {
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
    accept = "application/json",
  ): Promise<Reply<T>> {
    const init = {
      method,
      headers: { "Content-Type": contentType, Accept: accept },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    };
    let res: Response | undefined;
    // A pooled keep-alive connection the server dropped (restart): retried on another, as Go
    // clients do. The pool may hold several such connections (one per request that ran at
    // once before the restart), and each failed try uses up one.
    for (let tries = 1; res === undefined; tries++) {
      try {
        res = await fetch(this.base + path, init);
      } catch (err) {
        if (tries === MAX_TRIES) throw err;
      }
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON bodies (healthz) stay text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = Record<string, unknown>>(path: string, accept?: string) {
    return this.request<T>("GET", path, undefined, undefined, accept);
  }
  post<T = Record<string, unknown>>(path: string, body: unknown) {
    return this.request<T>("POST", path, body);
  }
  put<T = Record<string, unknown>>(path: string, body: unknown) {
    return this.request<T>("PUT", path, body);
  }
  patch<T = Record<string, unknown>>(
    path: string,
    body: unknown,
    type = "application/merge-patch+json",
  ) {
    return this.request<T>("PATCH", path, body, type);
  }
  delete<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>("DELETE", path, body);
  }

  /** Creates a Foo and returns the stored object. */
  async createFoo(name: string, replicas = 1, extra: Record<string, unknown> = {}): Promise<KObj> {
    const r = await this.post<KObj>(FOOS, {
      ...FOO_TYPE,
      metadata: { name },
      spec: { deploymentName: name, replicas },
      ...extra,
    });
    if (r.status !== 201)
      throw new Error(`create foo ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Opens a watch; events arrive in `events` as they come. */
  async watch(path: string, accept = "application/json"): Promise<WatchStream> {
    const controller = new AbortController();
    const res = await fetch(this.base + path, {
      headers: { Accept: accept },
      signal: controller.signal,
    });
    return new WatchStream(res, controller);
  }
}

/** A Status answer (a refusal): the fields the tests read. */
export interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
  details: {
    name: string;
    group: string;
    kind: string;
    causes: { reason: string; message: string; field: string }[];
  };
}

export interface KObj {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    generation?: number;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    ownerReferences?: unknown[];
    [k: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface WatchLine {
  type: string;
  object: KObj & { code?: number; reason?: string; message?: string };
}

export class WatchStream {
  readonly status: number;
  readonly headers: Headers;
  readonly events: WatchLine[] = [];
  /** When each of `events` arrived (Date.now()), for tests that time what the server did. */
  readonly times: number[] = [];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  readonly #controller: AbortController;
  #waiters: (() => void)[] = [];
  #done = false;

  constructor(res: Response, controller: AbortController) {
    this.status = res.status;
    this.headers = res.headers;
    this.#controller = controller;
    this.ended = this.#pump(res);
  }

  async #pump(res: Response): Promise<void> {
    const reader = res.body?.getReader();
    if (!reader) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) {
            this.events.push(JSON.parse(line) as WatchLine);
            this.times.push(Date.now());
          }
          this.#notify();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      this.#done = true;
      this.#notify();
    }
  }

  #notify(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }

  /** Waits until `pred` holds for the events so far (the test timeout bounds the wait). */
  async until(pred: (events: WatchLine[]) => boolean): Promise<WatchLine[]> {
    while (!pred(this.events)) {
      if (this.#done) {
        throw new Error(`watch ended first; got ${JSON.stringify(this.events.map((e) => e.type))}`);
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    return this.events;
  }

  /** Client-side disconnect. */
  close(): void {
    this.#controller.abort();
  }
}

/** Polls `check` until it returns a truthy value (bounded by the test's timeout). */
export async function eventually<T>(
  check: () => T | Promise<T>,
  intervalMs = 10,
): Promise<NonNullable<T>> {
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function deploymentBody(
  name: string,
  replicas = 1,
  image = "nginx:1.25",
  ownerReferences?: unknown[],
) {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "nginx", image }] },
      },
    },
  };
}
