/**
 * client-node's Watch, with a way to end the open watch from outside: `cut()` fails it with a
 * WatchCut error, and its ListWatch reports that through `error` like any failed watch.
 *
 * Why a failure, and why this way: a watch whose connection outlived a network that went away
 * can stay open and silent for good (through a proxy, a tunnel or a load balancer, the near end
 * of the connection lives on and answers TCP keepalive), so the informer must be able to
 * replace it. ListWatch's done handler aborts "the current request"
 * before anything else; a watch ended any other way (`stop()` and `start()`) can have its late
 * abort land on the watch opened after it. Through `done`, the next watch opens only after the
 * old one has been reported.
 *
 * Invariants: `done` is called once per watch, whatever ends it; `cut()` ends only a watch that
 * is open (one whose request is still being made cannot be reached, and is not yet silent).
 */
import { Watch } from "@kubernetes/client-node";

/** The error a cut watch ends with: the informer's own doing, not the cluster's. */
export class WatchCut extends Error {}

export class CuttableWatch extends Watch {
  private cutOpen: ((why: WatchCut) => void) | undefined;

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    let ended = false;
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      this.cutOpen = undefined;
      done(err);
    };
    const request = await super.watch(path, queryParams, callback, end);
    if (!ended) {
      this.cutOpen = (why) => {
        end(why);
        request.abort();
      };
    }
    return request;
  }

  /** Ends the open watch with `why`; whether there was one. */
  cut(why: WatchCut): boolean {
    const cut = this.cutOpen;
    if (!cut) return false;
    cut(why);
    return true;
  }
}
