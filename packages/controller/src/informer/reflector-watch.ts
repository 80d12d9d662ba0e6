/**
 * client-node's Watch, asked for as client-go's reflector asks for it (sample-controller's
 * informers), and endable from outside:
 *
 * - **Bookmarks** (`allowWatchBookmarks`): on a quiet watch the server sends one now and then,
 *   which keeps the informer's resourceVersion fresh (a later re-watch is less often 410 Gone).
 * - **A timeout** (`timeoutSeconds`, 5–10 min at random unless told): the server ends the watch
 *   then, and the informer opens the next from its last resourceVersion. If that end does not
 *   come, the connection is dead without a word (a proxy, a tunnel or a load balancer keeps its
 *   near end alive, so TCP keepalive never fails it): the watch is cut a little after, as
 *   client-go's typed clients give the request itself the same timeout.
 * - **`cut()`** ends the open watch with a WatchCut error, which its ListWatch reports through
 *   `error` like any failed watch. Why a failure: ListWatch's done handler aborts "the current
 *   request" before anything else, so a watch ended any other way (`stop()`, then `start()`)
 *   can have its late abort land on the watch opened after it. Through `done`, the next watch
 *   opens only after the old one has been reported.
 *
 * - **One watch at a time.** Its ListWatch holds one request, the latest; a start that raced
 *   another (a restart after an error while a re-watch was being made) opened a second watch
 *   nobody held, reading and delivering on its own, and still open after `stop()` — it kept a
 *   stopped `loopscope up` alive until the server ended it, minutes later. A watch that opens
 *   ends every other still open, and `close()` ends them all, and any that opens after it, until
 *   `reopen()`. Those end without a word: their owner has moved on.
 *
 * - **A request that is never answered** (sent as the network went silent: client-node hands the
 *   request over only once the server's answer begins) is not waited for: `cut()` and `close()`
 *   end it as they end an open watch, and so does its timeout. `watch()` then returns at once; if
 *   the answer comes after all, that request is ended on arrival and delivers nothing.
 *
 * Invariants: `done` is called at most once per watch, and exactly once unless the watch was
 * superseded or closed; no event is delivered for a watch once it has ended; `cut()` ends the
 * latest watch, open or still being asked for; `endedOnTime()` tells whether the latest watch was
 * ended by the server at its timeout.
 */
import { Watch, type KubeConfig } from "@kubernetes/client-node";

/** The error a cut watch ends with: the informer's own doing, not the cluster's. */
export class WatchCut extends Error {
  constructor(
    message: string,
    /** Cut at its timeout, the server's end never having come (else: by `cut()`'s caller). */
    readonly silent = false,
  ) {
    super(message);
  }
}

/** How long past its timeout a watch may wait for the server's end before it is cut. */
const GRACE_MS = 5_000;

/** client-go's reflector: minWatchTimeout (5 min) × (1 + a random fraction). */
const reflectorTimeoutSeconds = () => Math.floor(300 * (1 + Math.random()));

export class ReflectorWatch extends Watch {
  /** Ends the latest watch, open or still being asked for. */
  private cutLatest: ((why: WatchCut) => void) | undefined;
  private onTime = false;
  /** The watches open or being asked for (one but for a moment), each by what ends it quietly. */
  private readonly open = new Set<() => void>();
  private closed = false;
  /**
   * Called as each watch is asked for. client-node's ListWatch asks right after it delivered a
   * list's items, so its user learns there that a list's delivery is complete.
   */
  beforeWatch: (() => void) | undefined;

  constructor(
    config: KubeConfig,
    private readonly timeoutSeconds: () => number = reflectorTimeoutSeconds,
  ) {
    super(config);
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    // Closed: no watch opens until reopen() (see "One watch at a time").
    if (this.closed) return new AbortController();
    this.beforeWatch?.();
    const timeoutSeconds = this.timeoutSeconds();
    const opened = Date.now();
    let ended = false;
    /** Undoes what registers the watch (see below). */
    let unregister = () => {};
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      unregister();
      // (Less a second: the server's clock starts a little after ours.)
      this.onTime = err === null && Date.now() - opened >= timeoutSeconds * 1000 - 1000;
      done(err);
    };
    /** Whatever ends the request once it is in hand; until then, what stops the wait for it. */
    let abort = () => {};
    let stopWaiting = () => {};
    const givenUp = new Promise<undefined>((resolve) => (stopWaiting = () => resolve(undefined)));
    /** Ends it without a word (see "One watch at a time"). */
    const drop = () => {
      if (ended) return;
      ended = true;
      unregister();
      abort();
      stopWaiting();
    };
    const cut = (why: WatchCut) => {
      end(why);
      abort();
      stopWaiting();
    };
    // Counted from the request, as client-go's typed clients time the request itself.
    const deadline = setTimeout(
      () => cut(new WatchCut(`no end from the server ${timeoutSeconds} s in`, true)),
      timeoutSeconds * 1000 + GRACE_MS,
    );
    deadline.unref?.();
    this.open.add(drop);
    this.cutLatest = cut;
    unregister = () => {
      clearTimeout(deadline);
      this.open.delete(drop);
      if (this.cutLatest === cut) this.cutLatest = undefined;
    };
    const answered = super.watch(
      path,
      { ...queryParams, allowWatchBookmarks: true, timeoutSeconds },
      (phase, apiObj, watchObj) => {
        if (!ended) callback(phase, apiObj, watchObj);
      },
      end,
    );
    const request = await Promise.race([answered, givenUp]);
    if (request === undefined) {
      // Ended before the server answered: should it answer after all, that request goes at once.
      answered.then(
        (late) => late.abort(),
        () => {},
      );
      return new AbortController();
    }
    if (ended) {
      request.abort();
      return request;
    }
    abort = () => request.abort();
    for (const other of [...this.open]) if (other !== drop) other();
    return request;
  }

  /** Ends every open watch without a word, and each that opens from now until `reopen()`. */
  close(): void {
    this.closed = true;
    for (const drop of [...this.open]) drop();
  }

  reopen(): void {
    this.closed = false;
  }

  /** Ends the latest watch, open or still being asked for, with `why`; whether there was one. */
  cut(why: WatchCut): boolean {
    const cut = this.cutLatest;
    if (!cut) return false;
    cut(why);
    return true;
  }

  /** Whether the latest watch to end was ended by the server at the timeout it was asked for. */
  endedOnTime(): boolean {
    return this.onTime;
  }
}
