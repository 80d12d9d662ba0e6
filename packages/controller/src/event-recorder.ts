/**
 * Kubernetes Events the controller records, like client-go's EventRecorder + broadcaster:
 * asynchronous (the reconcile never waits for them and they are not writes of the pass),
 * rate-limited per object (EventSpamFilter: 25, then one every 5 minutes; each is still told to
 * `onEvent`, the log), aggregated (a repeat of the same object/type/reason/message bumps `count`
 * on the existing Event instead of creating another, which is why `kubectl describe foo` shows
 * "Synced (x15 over …)").
 *
 * Invariants: at most one request per aggregation key is in flight; repeats arriving meanwhile
 * are folded into the next update, which goes as soon as a request succeeds — after a failure it
 * waits for the next repeat (a cluster that refuses is not asked again at once, in a loop); an
 * update of an Event the cluster no longer has (expired after its TTL, an hour on a cluster, or
 * deleted) creates it again with the whole count, as client-go's recorder does;
 * `flush()` resolves once nothing is pending; failures are reported through `onError` and never
 * thrown into the controller.
 */
import {
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from "@kubernetes/client-node";
import type { AbandonableCalls } from "./abandonable-calls.ts";
import { EventSpamFilter } from "./event-spam-filter.ts";

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
}

interface Aggregate {
  name: string | undefined;
  count: number;
  sentCount: number;
  inFlight: Promise<boolean> | undefined;
  first: string;
  last: string;
}

export class EventRecorder {
  private readonly core: CoreV1Api;
  private readonly aggregates = new Map<string, Aggregate>();
  private readonly pending = new Set<Promise<boolean>>();
  private readonly spam: EventSpamFilter;

  constructor(
    kubeConfig: KubeConfig,
    private readonly calls: AbandonableCalls,
    private readonly component: string,
    /** This controller's own name among others of the same component (controller-instance.ts). */
    private readonly instance: string | undefined,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly onEvent: (
      obj: InvolvedObject,
      type: string,
      reason: string,
      message: string,
    ) => void = () => {},
    now: () => number = () => Date.now(),
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.spam = new EventSpamFilter(now);
  }

  event(obj: InvolvedObject, type: "Normal" | "Warning", reason: string, message: string): void {
    this.onEvent(obj, type, reason, message);
    const source = `${this.component}|${this.instance ?? ""}`;
    const object = `${obj.apiVersion}|${obj.kind}|${obj.namespace}|${obj.name}|${obj.uid ?? ""}`;
    if (!this.spam.allow(`${source}|${object}|${type}`)) return;
    const key = `${obj.uid ?? obj.namespace + "/" + obj.name}|${type}|${reason}|${message}`;
    const now = new Date().toISOString();
    let agg = this.aggregates.get(key);
    if (!agg) {
      agg = { name: undefined, count: 0, sentCount: 0, inFlight: undefined, first: now, last: now };
      this.aggregates.set(key, agg);
    }
    agg.count++;
    agg.last = now;
    if (!agg.inFlight) this.send(agg, obj, type, reason, message);
  }

  /** Resolves when every event recorded so far has been sent (or failed). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private send(
    agg: Aggregate,
    obj: InvolvedObject,
    type: string,
    reason: string,
    message: string,
  ): void {
    const p = (async () => {
      const count = agg.count;
      const create = async () => {
        const name = `${obj.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`;
        await this.calls.run((o) =>
          this.core.createNamespacedEvent(
            {
              namespace: obj.namespace,
              body: {
                metadata: { name, namespace: obj.namespace },
                involvedObject: obj,
                type,
                reason,
                message,
                count,
                firstTimestamp: new Date(agg.first),
                lastTimestamp: new Date(agg.last),
                source: { component: this.component, host: this.instance },
                reportingComponent: this.component,
                reportingInstance: this.instance,
              },
            },
            o,
          ),
        );
        agg.name = name;
      };
      try {
        const named = agg.name;
        if (named === undefined) await create();
        else
          await this.calls
            .run((o) =>
              this.core.patchNamespacedEvent(
                { name: named, namespace: obj.namespace, body: { count, lastTimestamp: agg.last } },
                setHeaderOptions("Content-Type", PatchStrategy.MergePatch, o),
              ),
            )
            .catch((err: unknown) => {
              if ((err as { code?: unknown } | undefined)?.code !== 404) throw err;
              return create();
            });
        agg.sentCount = count;
        return true;
      } catch (err) {
        this.onError(err);
        return false;
      }
    })();
    agg.inFlight = p;
    this.pending.add(p);
    void p.then((sent) => {
      this.pending.delete(p);
      agg.inFlight = undefined;
      if (sent && agg.count > agg.sentCount) this.send(agg, obj, type, reason, message);
    });
  }
}
