/**
 * The Foo controller: a line-for-line port of kubernetes/sample-controller controller.go
 * (master @ 7e64d481; line numbers in comments refer to it), instrumented with the five stages.
 *
 * Behaviour kept from upstream:
 * - Foo add/update → enqueue (no resourceVersion filter: status echoes and resyncs enqueue too);
 *   no Foo delete handler (garbage collection removes the Deployment).
 * - Deployment add / update (dropped when old and new resourceVersion are equal: a resync) /
 *   delete → owner lookup → enqueue the owning Foo; orphans ignored.
 * - N workers (default 2), each `get` → syncHandler → `forget` on success / `addRateLimited` on
 *   error → `done`. Rate limiter: exponential 5 ms → 1000 s, bucket 50 qps / burst 300. One
 *   departure: an error while the queue shuts down is logged as a drop, not "requeuing"
 *   (upstream's AddRateLimited is then silently ignored; see processNextWorkItem).
 * - syncHandler branches: Foo gone (return nil), deploymentName missing (return nil), create the
 *   Deployment, not controlled by this Foo (ErrResourceExists event + error), replicas differ →
 *   update, then the **unconditional** UpdateStatus, then the Synced event.
 *
 * Added: its Events name this instance (controller-instance.ts), and an informer on Events about
 * Foos notices another controller reconciling them (other-controllers.ts), whose passes would
 * otherwise show as external with nothing to say why.
 *
 * Where each stage fires is docs/stages.md §1: watch in the handlers, enqueue right after the add,
 * dequeue right after `get`, read right after the lister, write right after each API call, and a
 * `done` event when the worker calls Done.
 *
 * Lessons (off by default): `hotLoopBug` writes a fresh status.lastSyncedAt every pass, so every
 * status write changes the Foo and its echo triggers the next pass; `idempotentStatus` skips the
 * UpdateStatus when the status would not change (the fix for the unconditional write).
 */
import {
  AppsV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
} from "@kubernetes/client-node";
import { otherControllerNote, type OtherController, type UnsequencedEvent } from "@loopscope/trace";
import { AbandonableCalls } from "./abandonable-calls.ts";
import { callApi } from "./api-call.ts";
import { EventRecorder } from "./event-recorder.ts";
import { newControllerInstance } from "./controller-instance.ts";
import { OtherControllers } from "./other-controllers.ts";
import {
  ResilientInformer,
  objectKey,
  type InformerError,
  type InformerRecovery,
  type RewatchCause,
} from "./informer/resilient-informer.ts";
import { newDeployment } from "./new-deployment.ts";
import { changedFields } from "./probe/changed-fields.ts";
import { StageProbe, type KlogWriter, type ProbeSink } from "./probe/probe.ts";
import { site } from "./probe/site.ts";
import {
  FOO_GROUP,
  FOO_KIND,
  FOO_PLURAL,
  FOO_VERSION,
  controllerOf,
  type Deployment,
  type Foo,
  type FooStatus,
} from "./types.ts";
import type { EnqueueCause } from "@loopscope/trace";
import { RateLimitingQueue } from "./workqueue/rate-limiting-queue.ts";
import type { WorkqueueMetricsProvider } from "./workqueue/metrics.ts";
import type { RateLimiter } from "./workqueue/rate-limiters/rate-limiter.ts";

export const CONTROLLER_AGENT_NAME = "sample-controller";
export const SUCCESS_SYNCED = "Synced";
export const ERR_RESOURCE_EXISTS = "ErrResourceExists";
export const MESSAGE_RESOURCE_SYNCED = "Foo synced successfully";
export const messageResourceExists = (name: string) =>
  `Resource ${JSON.stringify(name)} already exists and is not managed by Foo`;
const FIELD_MANAGER = CONTROLLER_AGENT_NAME;
/**
 * The pass-end line of a pass that failed while the queue shut down: its key is not requeued.
 * packages/trace's klog reader ends the pass "dropped" on it (markers.ts).
 */
const DROPPED_MESSAGE = "Dropping Foo out of the queue: the work queue is shutting down";

export interface Lessons {
  /** The hot-loop bug: a fresh status.lastSyncedAt on every pass. */
  hotLoopBug: boolean;
  /** Skip UpdateStatus when the status would not change. */
  idempotentStatus: boolean;
}
export type LessonName = keyof Lessons;

export interface FooControllerOptions {
  kubeConfig: KubeConfig;
  /** Worker count (sample-controller main.go: 2). */
  workers?: number;
  /** Informer resync period in ms (sample-controller: 30 s); 0 disables. */
  resyncMs?: number;
  /** Receives every stage event; may return the seq it assigned (see probe/probe.ts). */
  probe?: ProbeSink | ((e: UnsequencedEvent) => void);
  lessons?: Partial<Lessons>;
  metrics?: WorkqueueMetricsProvider;
  /** klog text output (one line per call, no newline); STAGE lines at verbosity >= 2. */
  klog?: KlogWriter;
  /** klog verbosity (-v); default 2. */
  verbosity?: number;
  /** Overrides sample-controller's rate limiter (tests). */
  rateLimiter?: RateLimiter<string>;
  /** Informer restart backoff (default 200 ms → 30 s). */
  informerBackoffMs?: { initial: number; max: number };
  /** Each informer watch's timeout, s (default 5–10 min at random, as client-go's reflector). */
  watchTimeoutSeconds?: () => number;
  /** Called on informer failures (each is retried with backoff). */
  onInformerError?: (e: InformerError) => void;
  /** Called when an informer lists or watches again after failures. */
  onInformerRecovered?: (e: InformerRecovery) => void;
  /** run() rejects if caches have not synced by then (default: wait forever). */
  cacheSyncTimeoutMs?: number;
  /**
   * Another controller records Events about the Foos this one reconciles (once per controller;
   * see other-controllers.ts). Also a note in the trace and a klog W line.
   */
  onOtherController?: (o: OtherController) => void;
}

/** Why an informer watches anew, as its trace note says it (after "the Foo informer's "). */
const REWATCH_TEXT: Record<Exclude<RewatchCause, "gone" | "abandoned">, string> = {
  closed: "watch was closed by the server",
  outage:
    "watch is replaced (the cluster answers again after an outage, and a watch open across one may be dead without a word)",
  silent:
    "watch is replaced (the server did not end it at the timeout it asked for: its connection was dead without a word)",
};

// One probe call site each (see probe/site.ts).
const AT = {
  watchFooAdd: site(),
  watchFooUpdate: site(),
  watchDeployment: site(),
  enqueue: site(),
  enqueueRetry: site(),
  dequeue: site(),
  read: site(),
  writeCreate: site(),
  writeUpdate: site(),
  writeStatus: site(),
  done: site(),
  doneError: site(),
  doneDropped: site(),
  logSetup: site(),
  logStarting: site(),
  logWaiting: site(),
  logStartingWorkers: site(),
  logStarted: site(),
  logShutdown: site(),
  logSynced: site(),
  logError: site(),
  logDropped: site(),
  logFooGone: site(),
  logNoName: site(),
  logUpdateDeployment: site(),
  logProcessing: site(),
  logOrphan: site(),
  logEvent: site(),
  logInformerError: site(),
  noteInformerError: site(),
  logRelist: site(),
  noteRewatch: site(),
  noteFooGone: site(),
  noteNoName: site(),
  noteNotOwned: site(),
  logOtherController: site(),
  noteOtherController: site(),
  logEventsForbidden: site(),
  noteEventsForbidden: site(),
  logStatusPruned: site(),
  noteStatusPruned: site(),
};

/** How long a stop waits for the passes in flight before it abandons their calls. */
const STOP_GRACE_MS = 3000;

/** The informers' caches did not sync within the controller's cacheSyncTimeoutMs. */
export class CacheSyncTimeout extends Error {
  override name = "CacheSyncTimeout";
  constructor() {
    super("failed to wait for caches to sync");
  }
}

export class FooController {
  readonly queue: RateLimitingQueue<string>;
  readonly foos: ResilientInformer<Foo>;
  readonly deployments: ResilientInformer<Deployment>;
  private readonly probe: StageProbe;
  private readonly co: CustomObjectsApi;
  private readonly apps: AppsV1Api;
  private readonly recorder: EventRecorder;
  /** This controller's name in its Events, among others of its component (controller-instance.ts). */
  readonly instance = newControllerInstance();
  /** Watches Events about Foos for another controller's. */
  readonly otherControllers: OtherControllers;
  /** Whether the hot-loop timestamp was found pruned (statusPruned says it once). */
  private saidStatusPruned = false;
  /** Every API call but the watches (they end their own way): a dead connection can be left. */
  private readonly calls = new AbandonableCalls();
  private readonly lessons: Lessons;
  /** How many workers take keys from the queue. */
  readonly workerCount: number;
  private workers: Array<Promise<void>> = [];
  private running = false;
  /** Set by `stop`: workers finish the pass they hold and take no further key. */
  private stopping = false;
  private readonly cacheSyncTimeoutMs: number | undefined;

  constructor(opts: FooControllerOptions) {
    const kc = opts.kubeConfig;
    this.workerCount = opts.workers ?? 2;
    this.lessons = { hotLoopBug: false, idempotentStatus: false, ...opts.lessons };
    this.cacheSyncTimeoutMs = opts.cacheSyncTimeoutMs;
    this.probe = new StageProbe({
      sink: opts.probe as ProbeSink | undefined,
      klog: opts.klog,
      verbosity: opts.verbosity,
    });
    this.co = kc.makeApiClient(CustomObjectsApi);
    this.apps = kc.makeApiClient(AppsV1Api);
    this.queue = new RateLimitingQueue<string>({
      rateLimiter: opts.rateLimiter,
      metrics: opts.metrics,
      name: "foos",
    });
    const resyncMs = opts.resyncMs ?? 30_000;
    const backoff = opts.informerBackoffMs ?? { initial: 200, max: 30_000 };
    const onInformerError = (e: InformerError) => {
      const err = e.error as { message?: string } | undefined;
      const why = (err?.message ?? String(e.error)).split("\n")[0] ?? "";
      this.probe.log(AT.logInformerError, 0, "E", `Failed to ${e.kind}`, [
        ["err", why],
        ["attempt", e.attempt],
        ["retryInMs", e.retryInMs],
      ]);
      // Into the trace too: a closed watch or a 410 Gone is why a re-list's events come.
      if (this.probe.on) {
        const [verb, kind] = e.kind.split(" ");
        this.probe.emit(AT.noteInformerError, {
          stage: "note",
          key: "",
          level: "E",
          text:
            verb === "watch"
              ? `the ${kind} informer's watch failed (${why}): it lists again in ${e.retryInMs} ms, then watches anew`
              : `the ${kind} informer's list failed (${why}): it tries again in ${e.retryInMs} ms`,
        });
      }
      opts.onInformerError?.(e);
    };
    // Into the trace: why a burst of watch events (a re-list's) comes, or why none came a while.
    const onRewatch = ({ kind, why }: { kind: string; why: RewatchCause }) => {
      const text =
        why === "gone"
          ? // packages/trace's narration recognises this text (narrate.ts, RELIST).
            `the ${kind} informer's watch ended with 410 Gone (its resourceVersion was too old): it lists every ${kind} again, then watches anew`
          : why === "abandoned"
            ? `the ${kind} informer's list is given up (sent before the cluster's outage ended, it may never be answered): it lists again`
            : `the ${kind} informer's ${REWATCH_TEXT[why]}: it watches again from the last resourceVersion it saw`;
      // In the klog text too (client-go's reflector says as much at -v=0 for a 410): a klog
      // replay of a watch drop shows why a re-list's events come.
      if (why === "gone") this.probe.log(AT.logRelist, 0, "W", text, []);
      if (!this.probe.on) return;
      this.probe.emit(AT.noteRewatch, { stage: "note", key: "", level: "I", text });
    };
    this.foos = new ResilientInformer<Foo>({
      kubeConfig: kc,
      kind: FOO_KIND,
      path: `/apis/${FOO_GROUP}/${FOO_VERSION}/${FOO_PLURAL}`,
      list: () =>
        this.calls.run(
          (o) =>
            this.co.listClusterCustomObject(
              { group: FOO_GROUP, version: FOO_VERSION, plural: FOO_PLURAL },
              o,
            ) as Promise<KubernetesListObject<Foo>>,
        ),
      resyncMs,
      backoffInitialMs: backoff.initial,
      backoffMaxMs: backoff.max,
      watchTimeoutSeconds: opts.watchTimeoutSeconds,
      onError: onInformerError,
      onRecover: opts.onInformerRecovered,
      onRewatch,
    });
    this.deployments = new ResilientInformer<Deployment>({
      kubeConfig: kc,
      kind: "Deployment",
      path: "/apis/apps/v1/deployments",
      list: () => this.calls.run((o) => this.apps.listDeploymentForAllNamespaces({}, o)),
      resyncMs,
      backoffInitialMs: backoff.initial,
      backoffMaxMs: backoff.max,
      watchTimeoutSeconds: opts.watchTimeoutSeconds,
      onError: onInformerError,
      onRecover: opts.onInformerRecovered,
      onRewatch,
    });
    this.recorder = new EventRecorder(
      kc,
      this.calls,
      CONTROLLER_AGENT_NAME,
      this.instance,
      () => {},
      (obj, type, reason, message) =>
        this.probe.log(AT.logEvent, 0, "I", "Event occurred", [
          ["object", `${obj.namespace}/${obj.name}`],
          ["fieldPath", ""],
          ["kind", obj.kind],
          ["apiVersion", obj.apiVersion],
          ["type", type],
          ["reason", reason],
          ["message", message],
        ]),
    );

    this.otherControllers = new OtherControllers({
      kubeConfig: kc,
      calls: this.calls,
      instance: this.instance,
      reasons: [SUCCESS_SYNCED, ERR_RESOURCE_EXISTS],
      backoffInitialMs: backoff.initial,
      backoffMaxMs: backoff.max,
      watchTimeoutSeconds: opts.watchTimeoutSeconds,
      onOther: (o) => {
        const text = otherControllerNote(o);
        this.probe.log(AT.logOtherController, 0, "W", text, [
          ["objectRef", o.key],
          ["controller", o.name],
        ]);
        if (this.probe.on)
          this.probe.emit(AT.noteOtherController, { stage: "note", key: o.key, level: "W", text });
        opts.onOtherController?.(o);
      },
      onForbidden: (why) => {
        const text = `this controller may not list Events (${why}): another controller reconciling the same Foos would go unnoticed`;
        this.probe.log(AT.logEventsForbidden, 0, "W", text, []);
        if (this.probe.on)
          this.probe.emit(AT.noteEventsForbidden, { stage: "note", key: "", level: "W", text });
      },
    });

    // NewController, lines 126–153.
    this.probe.log(AT.logSetup, 0, "I", "Setting up event handlers", []);
    this.foos.addEventHandler({
      add: (obj, initial) => {
        const seq = this.probe.on
          ? this.probe.emit(AT.watchFooAdd, {
              stage: "watch",
              kind: FOO_KIND,
              event: "add",
              key: objectKey(obj),
              ns: obj.metadata.namespace,
              name: obj.metadata.name ?? "",
              rv: obj.metadata.resourceVersion,
              // Only when true: an add from the watch is the common case, and says nothing more.
              initial: initial || undefined,
            })
          : 0;
        this.enqueueFoo(obj, "watch", seq);
      },
      update: (oldObj, newObj) => {
        const resync = oldObj.metadata.resourceVersion === newObj.metadata.resourceVersion;
        const seq = this.probe.on
          ? this.probe.emit(AT.watchFooUpdate, {
              stage: "watch",
              kind: FOO_KIND,
              event: "update",
              key: objectKey(newObj),
              ns: newObj.metadata.namespace,
              name: newObj.metadata.name ?? "",
              rv: newObj.metadata.resourceVersion,
              oldRv: oldObj.metadata.resourceVersion,
            })
          : 0;
        this.enqueueFoo(newObj, resync ? "resync" : "watch", seq);
      },
    });
    this.deployments.addEventHandler({
      add: (obj, initial) => this.handleObject(obj, "add", undefined, initial),
      update: (oldObj, newObj) => {
        // Periodic resync will send update events for all known Deployments. Two different
        // versions of the same Deployment will always have different RVs. (lines 145–149)
        if (newObj.metadata?.resourceVersion === oldObj.metadata?.resourceVersion) return;
        this.handleObject(newObj, "update", oldObj.metadata?.resourceVersion);
      },
      delete: (obj) => this.handleObject(obj, "delete"),
    });
  }

  /**
   * Starts informers, waits for their caches, starts the workers; resolves once they run. Like
   * upstream's Run, once per controller: after stop() the queue is shut down for good.
   */
  async run(): Promise<void> {
    if (this.running) return;
    if (this.queue.isShuttingDown())
      throw new Error("this controller was stopped; create a new one");
    this.running = true;
    this.probe.log(AT.logStarting, 0, "I", "Starting Foo controller", []);
    void this.foos.start();
    void this.deployments.start();
    // Its list is waited for (not past a failure: no pass needs it), so that another controller
    // at work is noticed from the first pass on.
    const othersWatched = this.otherControllers.start().then(() => true);
    this.probe.log(AT.logWaiting, 0, "I", "Waiting for informer caches to sync", []);
    const synced = Promise.all([
      this.foos.waitForCacheSync(),
      this.deployments.waitForCacheSync(),
      othersWatched,
    ]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout =
      this.cacheSyncTimeoutMs === undefined
        ? undefined
        : new Promise<"timeout">(
            (resolve) => (timer = setTimeout(() => resolve("timeout"), this.cacheSyncTimeoutMs)),
          );
    const result = await (timeout ? Promise.race([synced, timeout]) : synced);
    if (timer) clearTimeout(timer);
    if (result === "timeout" || result.includes(false)) {
      await this.stop();
      throw result === "timeout"
        ? new CacheSyncTimeout()
        : new Error("failed to wait for caches to sync");
    }
    this.probe.log(AT.logStartingWorkers, 0, "I", "Starting workers", [
      ["count", this.workerCount],
    ]);
    for (let i = 1; i <= this.workerCount; i++) this.workers.push(this.runWorker(i));
    this.probe.log(AT.logStarted, 0, "I", "Started workers", []);
  }

  /**
   * The cluster answers again after an outage: what was open across it may be dead without a
   * word. The informers' watches (the Events' too) are replaced (see ResilientInformer.rewatch),
   * and the API calls still waiting are abandoned (see AbandonableCalls): their passes fail and
   * are retried.
   */
  clusterAnswersAgain(): void {
    this.foos.rewatch();
    this.deployments.rewatch();
    this.otherControllers.rewatch();
    this.calls.abandon(
      "no answer came before the cluster's outage ended, and its connection may be dead: abandoned",
    );
  }

  /**
   * Shuts the queue down, lets in-flight passes finish, stops the informers, flushes Events. A
   * pass, or an Event's post, still waiting after STOP_GRACE_MS is abandoned: on a dead
   * connection it would hold the stop for good. Keys still queued are not worked on: upstream's
   * Run returns at the context's end and its process exits with them in the queue, so a trace
   * shows no pass after "Shutting down workers" that did not start before it.
   */
  async stop(): Promise<void> {
    this.probe.log(AT.logShutdown, 0, "I", "Shutting down workers", []);
    this.stopping = true;
    this.queue.shutDown();
    await this.withinGrace(Promise.all(this.workers));
    this.workers = [];
    await Promise.all([this.foos.stop(), this.deployments.stop(), this.otherControllers.stop()]);
    await this.withinGrace(this.recorder.flush());
    // What still waits is nobody's now (a list client-node made after a 410, say): were it
    // answered later, its objects would reach handlers after the stop.
    this.calls.abandon("the controller stopped");
    this.running = false;
  }

  /** Waits for `work`, abandoning every call (and any later one) if it takes over the grace. */
  private async withinGrace(work: Promise<unknown>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), STOP_GRACE_MS)));
    if ((await Promise.race([work, late])) === "late") {
      this.calls.close(
        `the controller is stopping, and no answer came within ${STOP_GRACE_MS / 1000} s: abandoned`,
      );
    }
    clearTimeout(timer);
    await work;
  }

  setLesson(name: LessonName, on: boolean): void {
    this.lessons[name] = on;
  }

  getLessons(): Lessons {
    return { ...this.lessons };
  }

  /** enqueueFoo (lines 331–338). */
  private enqueueFoo(obj: Foo, cause: EnqueueCause, causeSeq: number): void {
    const key = objectKey(obj);
    const merged = this.queue.add(key);
    if (merged === "ignored" || !this.probe.on) return;
    this.probe.emit(AT.enqueue, {
      stage: "enqueue",
      key,
      len: this.queue.len(),
      merged,
      cause,
      causeSeq,
    });
  }

  /** handleObject (lines 345–383): resolve a Deployment to its controlling Foo. */
  private handleObject(
    obj: Deployment,
    verb: "add" | "update" | "delete",
    oldRv?: string,
    initial = false,
  ): void {
    const objName = objectKey(obj);
    this.probe.log(AT.logProcessing, 4, "I", "Processing object", [["object", objName]]);
    const owner = controllerOf(obj as { metadata?: { ownerReferences?: never } });
    // Only Deployments controlled by a Foo are acted on; others are not our events.
    if (!owner || owner.kind !== FOO_KIND) return;
    const ns = obj.metadata?.namespace ?? "";
    const foo = this.foos.get(ns, owner.name);
    const seq = this.probe.on
      ? this.probe.emit(AT.watchDeployment, {
          stage: "watch",
          kind: "Deployment",
          event: verb,
          key: foo ? objectKey(foo) : "",
          ns,
          name: obj.metadata?.name ?? "",
          rv: obj.metadata?.resourceVersion,
          oldRv,
          initial: initial || undefined,
        })
      : 0;
    if (!foo) {
      this.probe.log(AT.logOrphan, 4, "I", "Ignore orphaned object", [
        ["object", objName],
        ["foo", owner.name],
      ]);
      return;
    }
    this.enqueueFoo(foo, "watch", seq);
  }

  /** runWorker (lines 193–196). */
  private async runWorker(worker: number): Promise<void> {
    while (await this.processNextWorkItem(worker)) {
      // keep going until shutdown
    }
  }

  /** processNextWorkItem (lines 200–236). */
  private async processNextWorkItem(worker: number): Promise<boolean> {
    if (this.stopping) return false;
    const got = await this.queue.get();
    if (got.shutdown) return false;
    const key = got.item;
    if (this.probe.on)
      this.probe.emit(AT.dequeue, { stage: "dequeue", key, len: this.queue.len(), worker });
    try {
      await this.syncHandler(key, worker);
      this.queue.forget(key);
      this.probe.log(AT.logSynced, 0, "I", "Successfully synced", [["objectName", key]]);
      if (this.probe.on)
        this.probe.emit(AT.done, { stage: "done", key, outcome: "synced", worker });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (this.queue.isShuttingDown()) {
        // The queue ignores adds once it shuts down: the key is dropped, not requeued. Upstream
        // logs "requeuing" all the same (its AddRateLimited is silently ignored then); the log
        // says what happens, in the words of client-go's controllers that drop a key (the
        // Deployment controller's "Dropping deployment out of the queue"), so that a klog
        // reader ends the pass "dropped" as the `done` event does.
        this.probe.log(AT.logDropped, 0, "E", DROPPED_MESSAGE, [
          ["err", message],
          ["logger", "UnhandledError"],
          ["objectReference", key],
        ]);
        if (this.probe.on)
          this.probe.emit(AT.doneDropped, {
            stage: "done",
            key,
            outcome: "dropped",
            error: message,
            worker,
          });
      } else {
        this.probe.log(AT.logError, 0, "E", "Error syncing; requeuing for later retry", [
          ["err", message],
          ["logger", "UnhandledError"],
          ["objectReference", key],
        ]);
        const delayMs = this.queue.addRateLimited(key, (merged) => {
          if (merged === "ignored" || !this.probe.on) return;
          this.probe.emit(AT.enqueueRetry, {
            stage: "enqueue",
            key,
            len: this.queue.len(),
            merged,
            cause: "retry",
            delayMs,
          });
        });
        if (this.probe.on)
          this.probe.emit(AT.doneError, {
            stage: "done",
            key,
            outcome: "requeued",
            error: message,
            delayMs,
            worker,
          });
      }
    } finally {
      this.queue.done(key);
    }
    return true;
  }

  /** syncHandler (lines 241–312). Throws to requeue. */
  private async syncHandler(key: string, worker: number): Promise<void> {
    const slash = key.indexOf("/");
    const namespace = slash < 0 ? "" : key.slice(0, slash);
    const name = slash < 0 ? key : key.slice(slash + 1);

    const foo = this.foos.get(namespace, name);
    if (this.probe.on)
      this.probe.emit(AT.read, {
        stage: "read",
        key,
        rv: foo?.metadata.resourceVersion,
        generation: foo?.metadata.generation,
        found: foo ? undefined : false,
        worker,
      });
    if (!foo) {
      this.probe.log(
        AT.logFooGone,
        0,
        "E",
        "Foo referenced by item in work queue no longer exists",
        [
          // The generated lister's NotFound names the resource in the singular: Resource("foo").
          ["err", `foo.${FOO_GROUP} ${JSON.stringify(name)} not found`],
          ["logger", "UnhandledError"],
          ["objectReference", key],
        ],
      );
      if (this.probe.on)
        this.probe.emit(AT.noteFooGone, {
          stage: "note",
          key,
          level: "E",
          text: "Foo referenced by item in work queue no longer exists",
        });
      return;
    }

    const deploymentName = foo.spec?.deploymentName;
    if (!deploymentName) {
      this.probe.log(AT.logNoName, 0, "E", "Deployment name missing from object reference", [
        ["logger", "UnhandledError"],
        ["objectReference", key],
      ]);
      if (this.probe.on)
        this.probe.emit(AT.noteNoName, {
          stage: "note",
          key,
          level: "E",
          text: "Deployment name missing from object reference",
        });
      return;
    }

    let deployment = this.deployments.get(namespace, deploymentName);
    if (!deployment) {
      const target = `deployments/${namespace}/${deploymentName}`;
      const res = await callApi(() =>
        this.calls.run((o) =>
          this.apps.createNamespacedDeploymentWithHttpInfo(
            { namespace, body: newDeployment(foo), fieldManager: FIELD_MANAGER },
            o,
          ),
        ),
      );
      if (this.probe.on)
        this.probe.emit(
          AT.writeCreate,
          res.ok
            ? {
                stage: "write",
                key,
                verb: "create",
                target,
                code: res.code,
                rv: res.data.metadata?.resourceVersion,
                changed: true,
                worker,
              }
            : {
                stage: "write",
                key,
                verb: "create",
                target,
                code: res.code,
                reason: res.reason,
                changed: false,
                worker,
              },
        );
      if (!res.ok) throw res.error;
      deployment = res.data;
    }

    if (!isControlledBy(deployment, foo)) {
      const msg = messageResourceExists(deployment.metadata?.name ?? "");
      this.recorder.event(involved(foo), "Warning", ERR_RESOURCE_EXISTS, msg);
      if (this.probe.on)
        this.probe.emit(AT.noteNotOwned, {
          stage: "note",
          key,
          level: "W",
          text: `${ERR_RESOURCE_EXISTS}: ${msg}`,
        });
      throw new Error(msg);
    }

    const want = foo.spec.replicas;
    if (want !== undefined && want !== null && want !== deployment.spec?.replicas) {
      this.probe.log(AT.logUpdateDeployment, 4, "I", "Update deployment resource", [
        ["objectRef", key],
        ["currentReplicas", deployment.spec?.replicas ?? 0],
        ["desiredReplicas", want],
      ]);
      const target = `deployments/${namespace}/${deploymentName}`;
      const body = newDeployment(foo);
      const res = await callApi(() =>
        this.calls.run((o) =>
          this.apps.replaceNamespacedDeploymentWithHttpInfo(
            { name: deploymentName, namespace, body, fieldManager: FIELD_MANAGER },
            o,
          ),
        ),
      );
      if (this.probe.on)
        this.probe.emit(
          AT.writeUpdate,
          res.ok
            ? {
                stage: "write",
                key,
                verb: "update",
                target,
                code: res.code,
                rv: res.data.metadata?.resourceVersion,
                changed:
                  res.data.metadata?.resourceVersion !== deployment.metadata?.resourceVersion,
                fields: changedFields(body, deployment),
                worker,
              }
            : {
                stage: "write",
                key,
                verb: "update",
                target,
                code: res.code,
                reason: res.reason,
                changed: false,
                worker,
              },
        );
      if (!res.ok) throw res.error;
      deployment = res.data;
    }

    await this.updateFooStatus(foo, deployment, key, worker);
    this.recorder.event(involved(foo), "Normal", SUCCESS_SYNCED, MESSAGE_RESOURCE_SYNCED);
  }

  /**
   * Said once: the hot-loop lesson's timestamp came back pruned. A cluster keeps only what the
   * Foo CRD declares, and sample-controller's own declares availableReplicas alone: each buggy
   * write then stores nothing new, and the loop the lesson shows never comes.
   */
  private statusPruned(key: string): void {
    if (this.saidStatusPruned) return;
    this.saidStatusPruned = true;
    const text =
      "the cluster pruned status.lastSyncedAt from the status write: its Foo CRD does not declare the field, so the hot-loop lesson's timestamp changes nothing and no loop comes; kubectl apply -f public/manifests/crd.yaml (loopscope's Foo CRD) declares it";
    this.probe.log(AT.logStatusPruned, 0, "W", text, [["objectRef", key]]);
    if (this.probe.on)
      this.probe.emit(AT.noteStatusPruned, { stage: "note", key, level: "W", text });
  }

  /** updateFooStatus (lines 314–326): unconditional unless the idempotentStatus lesson is on. */
  private async updateFooStatus(
    foo: Foo,
    deployment: Deployment,
    key: string,
    worker: number,
  ): Promise<void> {
    const fooCopy = structuredClone(foo);
    const status: FooStatus = {
      ...fooCopy.status,
      availableReplicas: deployment.status?.availableReplicas ?? 0,
    };
    if (this.lessons.hotLoopBug) status.lastSyncedAt = microTimestamp();
    fooCopy.status = status;
    if (this.lessons.idempotentStatus && sameStatus(foo.status, status)) return;
    const ns = foo.metadata.namespace ?? "";
    const name = foo.metadata.name ?? "";
    const target = `${FOO_PLURAL}/${ns}/${name}/status`;
    const res = await callApi(() =>
      this.calls.run((o) =>
        this.co.replaceNamespacedCustomObjectStatusWithHttpInfo(
          {
            group: FOO_GROUP,
            version: FOO_VERSION,
            namespace: ns,
            plural: FOO_PLURAL,
            name,
            body: fooCopy,
            fieldManager: FIELD_MANAGER,
          },
          o,
        ),
      ),
    );
    const rv = res.ok ? (res.data as Foo).metadata?.resourceVersion : undefined;
    if (res.ok && status.lastSyncedAt !== undefined && !(res.data as Foo).status?.lastSyncedAt)
      this.statusPruned(key);
    if (this.probe.on)
      this.probe.emit(
        AT.writeStatus,
        res.ok
          ? {
              stage: "write",
              key,
              verb: "updateStatus",
              target,
              code: res.code,
              rv,
              changed: rv !== foo.metadata.resourceVersion,
              fields:
                rv !== foo.metadata.resourceVersion
                  ? changedFields(status, foo.status, "status")
                  : [],
              worker,
            }
          : {
              stage: "write",
              key,
              verb: "updateStatus",
              target,
              code: res.code,
              reason: res.reason,
              changed: false,
              worker,
            },
      );
    if (!res.ok) throw res.error;
  }
}

/** metav1.IsControlledBy: the controller owner reference points at this Foo's uid. */
function isControlledBy(deployment: Deployment, foo: Foo): boolean {
  const ref = controllerOf(deployment as { metadata?: { ownerReferences?: never } });
  return ref !== undefined && ref.uid === foo.metadata.uid;
}

function involved(foo: Foo) {
  return {
    apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
    kind: FOO_KIND,
    namespace: foo.metadata.namespace ?? "",
    name: foo.metadata.name ?? "",
    uid: foo.metadata.uid,
    resourceVersion: foo.metadata.resourceVersion,
  };
}

function sameStatus(a: FooStatus | undefined, b: FooStatus): boolean {
  if (!a) return false;
  const ka = Object.keys(a).filter((k) => a[k as keyof FooStatus] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k as keyof FooStatus] !== undefined);
  return (
    ka.length === kb.length && kb.every((k) => a[k as keyof FooStatus] === b[k as keyof FooStatus])
  );
}

/** RFC 3339 with microseconds: distinct on every pass, which is the point of the bug. */
function microTimestamp(): string {
  const us = Math.round((performance.timeOrigin + performance.now()) * 1000);
  const iso = new Date(Math.floor(us / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(us % 1_000_000).padStart(6, "0")}Z`;
}
