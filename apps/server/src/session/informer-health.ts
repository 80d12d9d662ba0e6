/**
 * Whether the controller's informers list and watch, told as it changes. Credentials rejected
 * mid-run (a token revoked or expired: 401), RBAC revoked (403) or a server failing (500): the
 * cluster still answers /version (cluster-reachability.ts sees no outage), but every list and
 * watch is refused and the informers retry with backoff (up to 30 s), which alone shows only as
 * trace notes while the page looked healthy.
 *
 * Invariants: an informer counts as failing from its second failure in a row (its retry failed
 * too), so a single blip — a watch cut and listed again at once — changes nothing; it stops
 * failing when it lists or watches again (ResilientInformer's recovery). Listeners hear every
 * change of the state: failing or not, and while failing each new failure (its reason and retry),
 * with `since` the first failure's time. Failures with no answer (the cluster's outage) and the
 * Foo informer's 404 (the Foo API gone: foo-api-presence.ts) are those monitors' and count not.
 */
import { STATUS_CODES } from "node:http";
import type { InformerHealth } from "@loopscope/protocol";
import type { InformerError, InformerRecovery } from "@loopscope/controller";
import { httpStatus, meansFooApiGone, statusOf } from "./foo-api-presence.ts";

export type InformerHealthListener = (now: InformerHealth, before: InformerHealth) => void;

interface Failing {
  /** When its first failure in a row was. */
  since: Date;
  attempt: number;
}

export class InformerHealthMonitor {
  private current: InformerHealth = { failing: false };
  /** Informers (by kind) whose lists or watches the cluster refuses, since their first failure. */
  private readonly refused = new Map<string, Failing>();
  private readonly listeners = new Set<InformerHealthListener>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  state(): InformerHealth {
    return this.current;
  }

  onChange(listener: InformerHealthListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  informerFailed(e: InformerError): void {
    const code = httpStatus(e.error);
    if (code === undefined || meansFooApiGone(e)) return;
    // e.kind: "list Foo", "watch Deployment".
    const kind = e.kind.split(" ")[1] ?? e.kind;
    const at = this.now();
    const since = this.refused.get(kind)?.since ?? at;
    this.refused.set(kind, { since, attempt: e.attempt });
    const kinds = this.failingKinds();
    if (kinds.length === 0) return;
    this.set({
      failing: true,
      kinds,
      error: reasonOf(code, e.error),
      retryInMs: e.retryInMs,
      at: at.toISOString(),
      since: this.current.failing ? this.current.since : since.toISOString(),
    });
  }

  informerRecovered(e: InformerRecovery): void {
    if (!this.refused.delete(e.kind) || !this.current.failing) return;
    const kinds = this.failingKinds();
    if (kinds.length === this.current.kinds.length) return;
    this.set(kinds.length === 0 ? { failing: false } : { ...this.current, kinds });
  }

  private failingKinds(): string[] {
    return [...this.refused].filter(([, f]) => f.attempt >= 2).map(([kind]) => kind);
  }

  private set(next: InformerHealth): void {
    const before = this.current;
    this.current = next;
    for (const l of this.listeners) l(next, before);
  }
}

/** "401 Unauthorized"; "403 Forbidden: deployments.apps is forbidden: User …" (the Status's words). */
function reasonOf(code: number, err: unknown): string {
  const name = `${code} ${STATUS_CODES[code] ?? "error"}`;
  const message = statusOf(err)?.message;
  return typeof message === "string" && message !== "" && !name.endsWith(message)
    ? `${name}: ${message}`
    : name;
}
