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
 * Invariants: `done` is called at most once per watch, and exactly once unless the watch was
 * superseded or closed; `cut()` ends only a watch that is open (one whose request is still being
 * made cannot be reached, and is not silent yet); `endedOnTime()` tells whether the latest watch
 * was ended by the server at its timeout.
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
  private cutOpen: ((why: WatchCut) => void) | undefined;
  private onTime = false;
  /** The open watches (one but for a moment), each by what ends it without a word. */
  private readonly open = new Set<() => void>();
  private closed = false;

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
    const timeoutSeconds = this.timeoutSeconds();
    const opened = Date.now();
    let ended = false;
    /** Undoes what registers the watch once open (see below). */
    let unregister = () => {};
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      unregister();
      // (Less a second: the server's clock starts a little after ours.)
      this.onTime = err === null && Date.now() - opened >= timeoutSeconds * 1000 - 1000;
      done(err);
    };
    const request = await super.watch(
      path,
      { ...queryParams, allowWatchBookmarks: true, timeoutSeconds },
      callback,
      end,
    );
    if (ended) return request;
    /** Ends it without a word (see "One watch at a time"). */
    const drop = () => {
      if (ended) return;
      ended = true;
      unregister();
      request.abort();
    };
    if (this.closed) {
      drop();
      return request;
    }
    for (const other of [...this.open]) other();
    const cut = (why: WatchCut) => {
      end(why);
      request.abort();
    };
    const deadline = setTimeout(
      () => this.cut(new WatchCut(`no end from the server ${timeoutSeconds} s in`, true)),
      timeoutSeconds * 1000 + GRACE_MS,
    );
    deadline.unref?.();
    this.open.add(drop);
    this.cutOpen = cut;
    unregister = () => {
      clearTimeout(deadline);
      this.open.delete(drop);
      if (this.cutOpen === cut) this.cutOpen = undefined;
    };
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

  /** Ends the open watch with `why`; whether there was one. */
  cut(why: WatchCut): boolean {
    const cut = this.cutOpen;
    if (!cut) return false;
    cut(why);
    return true;
  }

  /** Whether the latest watch to end was ended by the server at the timeout it was asked for. */
  endedOnTime(): boolean {
    return this.onTime;
  }
}
