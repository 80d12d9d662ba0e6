/**
 * Notices another controller reconciling the same Foos — a second loopscope on the cluster, or
 * the Go sample-controller. Its writes reach this controller as anyone else's, so the passes they
 * cause show as external (and its own passes are missing): the self/external picture is wrong,
 * and only this tells the user why.
 *
 * How: sample-controller records an Event on a Foo at the end of every pass that syncs it
 * (Synced) or finds a Deployment not its own (ErrResourceExists), and so does this port, naming
 * itself (controller-instance.ts). An informer watches Events about Foos (field selector
 * involvedObject.kind=Foo, so the cluster's other Events never reach us); an Event with one of
 * those reasons from another instance, or another component, is another controller at work —
 * reported once per controller.
 *
 * Only Events written while this controller runs count. Events live an hour after their last
 * write, so the initial list holds those of controllers stopped since; it is taken as what was
 * there before, and only later writes — an Event created, or its count bumped, after that list,
 * in the cluster's own order of writes — are evidence. No clock is compared: an Event's
 * timestamps are its writer's clock, and on a real cluster that may be minutes off ours either
 * way. A controller at work writes an Event at the end of its passes, so one already running
 * when we start is noticed at its next (sample-controller resyncs every 30 s; client-go's
 * recorder, once its spam filter holds back a busy Foo's Events, still writes one per Foo every
 * 5 minutes), and one that makes no pass causes no pass of ours meanwhile.
 *
 * Cost: one more watch; nothing here touches the workqueue or the probe's stages. A cluster that
 * forbids listing Events (RBAC) is told about once, and not asked again.
 */
import { CoreV1Api, type CoreV1Event, type KubeConfig } from "@kubernetes/client-node";
import type { OtherController } from "@loopscope/trace";
import type { AbandonableCalls } from "./abandonable-calls.ts";
import { ResilientInformer } from "./informer/resilient-informer.ts";
import { FOO_GROUP, FOO_KIND } from "./types.ts";

export interface OtherControllersOptions {
  kubeConfig: KubeConfig;
  calls: AbandonableCalls;
  /** This controller's own instance name (its Events are not another's). */
  instance: string;
  /** The Event reasons that mean a pass of a Foo's controller. */
  reasons: readonly string[];
  backoffInitialMs: number;
  backoffMaxMs: number;
  watchTimeoutSeconds?: () => number;
  /** Once per other controller. */
  onOther: (o: OtherController) => void;
  /** The cluster does not let this controller list or watch Events: nothing will be noticed. */
  onForbidden: (why: string) => void;
}

const FIELD_SELECTOR = `involvedObject.kind=${FOO_KIND}`;

export class OtherControllers {
  private readonly events: ResilientInformer<CoreV1Event>;
  private readonly reasons: ReadonlySet<string>;
  private readonly named = new Set<string>();
  private failed: (() => void) | undefined;

  constructor(private readonly opts: OtherControllersOptions) {
    this.reasons = new Set(opts.reasons);
    const core = opts.kubeConfig.makeApiClient(CoreV1Api);
    this.events = new ResilientInformer<CoreV1Event>({
      kubeConfig: opts.kubeConfig,
      kind: "Event",
      path: "/api/v1/events",
      fieldSelector: FIELD_SELECTOR,
      list: () =>
        opts.calls.run((o) => core.listEventForAllNamespaces({ fieldSelector: FIELD_SELECTOR }, o)),
      resyncMs: 0,
      backoffInitialMs: opts.backoffInitialMs,
      backoffMaxMs: opts.backoffMaxMs,
      watchTimeoutSeconds: opts.watchTimeoutSeconds,
      // Other failures are an outage's, which the Foo informer reports; this one retries quietly.
      onError: (e) => {
        this.failed?.();
        if (statusOf(e.error) !== 403) return;
        void this.events.stop();
        opts.onForbidden(messageOf(e.error));
      },
    });
    this.events.addEventHandler({
      add: (ev) => this.seen(ev),
      update: (_, ev) => this.seen(ev),
    });
  }

  /**
   * Starts watching. Resolves once the Events there before are listed — from then on, another
   * controller's write is noticed — or the list failed (it is tried again meanwhile, and a start
   * must not wait on what the controller can do without), or on stop().
   */
  start(): Promise<void> {
    const failed = new Promise<void>((resolve) => (this.failed = resolve));
    void this.events.start();
    return Promise.race([this.events.waitForCacheSync().then(() => {}), failed]);
  }

  /** See FooController.clusterAnswersAgain. */
  rewatch(): void {
    this.events.rewatch();
  }

  stop(): Promise<void> {
    return this.events.stop();
  }

  private seen(ev: CoreV1Event): void {
    // Listed at the start: written before this controller ran (see the module comment).
    if (!this.events.hasSynced()) return;
    const io = ev.involvedObject;
    if (io?.kind !== FOO_KIND || io.apiVersion?.split("/")[0] !== FOO_GROUP) return;
    if (ev.reason === undefined || !this.reasons.has(ev.reason)) return;
    // As kubectl describe's "From": source first, then the reporting fields.
    const instance = ev.source?.host || ev.reportingInstance || "";
    if (instance === this.opts.instance) return;
    const name =
      instance || ev.source?.component || ev.reportingComponent || "a controller with no name";
    if (this.named.has(name)) return;
    this.named.add(name);
    this.opts.onOther({
      name,
      reason: ev.reason,
      key: io.namespace ? `${io.namespace}/${io.name ?? ""}` : (io.name ?? ""),
      at: secondOf(ev.lastTimestamp ?? ev.eventTime ?? ev.series?.lastObservedTime),
    });
  }
}

/** RFC 3339 to the second, "" for none; a watch gives strings, a list Dates. */
function secondOf(t: Date | string | undefined): string {
  if (t === undefined) return "";
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace(/\.\d+Z$/, "Z");
}

function statusOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | undefined;
  const code = e?.code ?? e?.statusCode;
  return typeof code === "number" ? code : undefined;
}

function messageOf(err: unknown): string {
  const e = err as { body?: unknown; message?: string } | undefined;
  try {
    const body = typeof e?.body === "string" ? (JSON.parse(e.body) as unknown) : e?.body;
    const msg = (body as { message?: unknown } | undefined)?.message;
    if (typeof msg === "string") return msg;
  } catch {
    // not JSON: the error's own message
  }
  return (e?.message ?? String(err)).split("\n")[0] ?? "";
}
