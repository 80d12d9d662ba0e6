/**
 * Watch streams: newline-delimited JSON `{"type":…,"object":…}` with headers flushed at once.
 *
 * - no resourceVersion (or "0"): synthetic ADDED for every matching object, then live events;
 * - a resourceVersion: the changes after it from history, or one ERROR 410 Expired event and
 *   close when it is older than the history window; one ahead of the store gets the changes
 *   after it (none before), and with sendInitialEvents waits for it or ends with a 504 ERROR;
 * - BOOKMARK events every bookmarkIntervalMs when allowWatchBookmarks=true;
 * - the stream ends after timeoutSeconds, on server-side close, or when the client goes away
 *   (detected with res 'close'; the watcher is always unregistered) — unless silenced (a fault:
 *   then it stays open and nothing more is written).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, badRequest, expired } from "../errors.ts";
import type { KObject } from "../object.ts";
import { apiVersionOf } from "../resources/resource.ts";
import type { Selector } from "../selectors.ts";
import { waitUntilFresh } from "../store/fresh-enough.ts";
import type { WatchEvent, Watcher } from "../store/watch-hub.ts";
import { toTable, type IncludeObject } from "../table/table.ts";
import type { ServerContext } from "./context.ts";
import { objectJson } from "./json-cache.ts";
import type { ResourceRequest } from "./route.ts";

/** Output a watcher may leave unread before its stream is closed. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export interface WatchParams {
  resourceVersion?: string;
  selector: Selector;
  allowBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds?: number;
  table?: IncludeObject;
}

export async function serveWatch(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  rr: ResourceRequest,
  p: WatchParams,
): Promise<void> {
  const { def, namespace } = rr;
  const encode = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;
  // Initial events from a resourceVersion this server has yet to reach wait for it, as the
  // watch cache does; given up, the stream is one ERROR event (the 504's Status), as its
  // errWatcher sends it. A watch without initial events from such a version is no error: it
  // gets the changes after it (the hub skips the ones before).
  const initialFrom = p.sendInitialEvents ? Number(p.resourceVersion ?? "") : 0;
  if (Number.isSafeInteger(initialFrom) && initialFrom > 0) {
    try {
      await waitUntilFresh(ctx.registry.store, initialFrom, ctx.resourceVersionWaitMs);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Cache-Control": "no-cache, private",
      });
      res.end(encode("ERROR", e.status));
      return;
    }
  }
  let fromRv: number | undefined;
  const initial =
    p.resourceVersion === undefined ||
    p.resourceVersion === "" ||
    p.resourceVersion === "0" ||
    p.sendInitialEvents;
  if (!initial) {
    fromRv = Number(p.resourceVersion);
    if (!Number.isSafeInteger(fromRv) || fromRv < 0)
      throw badRequest(`invalid resource version: ${p.resourceVersion}`);
  }
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Cache-Control": "no-cache, private",
    "Transfer-Encoding": "chunked",
  });
  res.flushHeaders();

  const encodeEvent = (e: WatchEvent) => {
    if (!p.table) return `{"type":"${e.type}","object":${objectJson(e.object)}}\n`;
    return encode(
      e.type,
      toTable(def.table, [e.object], e.object.metadata.resourceVersion, p.table, ctx.now()),
    );
  };
  const bookmark = (annotations?: Record<string, string>): string => {
    const metadata = {
      resourceVersion: String(ctx.registry.store.currentRv),
      ...(annotations ? { annotations } : {}),
    };
    if (p.table)
      return encode("BOOKMARK", {
        kind: "Table",
        apiVersion: "meta.k8s.io/v1",
        metadata,
        columnDefinitions: null,
        rows: null,
      });
    return encode("BOOKMARK", { kind: def.kind, apiVersion: apiVersionOf(def), metadata });
  };

  const compactedRv = ctx.hub.compactedRv(def);
  if (ctx.faults.takeExpiredWatch() || (fromRv !== undefined && fromRv < compactedRv)) {
    const requested = fromRv ?? ctx.registry.store.currentRv;
    res.end(encode("ERROR", expired(requested, Math.max(compactedRv + 1, requested + 1)).status));
    return;
  }

  const timers: ReturnType<typeof setTimeout>[] = [];
  let cancel = () => {};
  let open = true;
  /** Ends the stream once: unregisters first, so nothing is written after end(). */
  const finish = () => {
    if (!open) return;
    open = false;
    cancel();
    for (const t of timers) clearTimeout(t);
    res.end();
  };
  // A client that vanished mid-write must not crash the server.
  res.on("error", finish);
  const watcher: Watcher = {
    spec: { resource: def, namespace, selector: p.selector },
    send: (e) => {
      if (!open) return;
      res.write(encodeEvent(e));
      // A client that stops reading is cut off (as the real server drops slow watchers) rather
      // than buffered without bound; it re-watches from its last resourceVersion.
      if (res.writableLength > MAX_BUFFERED_BYTES) finish();
    },
    close: finish,
    silence: () => {
      open = false;
      for (const t of timers) clearTimeout(t);
    },
  };
  if (initial) {
    const objects: KObject[] = ctx.registry.list(def, namespace, p.selector).items;
    for (const object of objects) res.write(encodeEvent({ type: "ADDED", object }));
  }
  const started = ctx.hub.start(watcher, fromRv);
  if (!started.ok) {
    res.end(encode("ERROR", expired(fromRv ?? 0, started.oldest).status));
    return;
  }
  cancel = started.cancel;
  if (p.sendInitialEvents && p.allowBookmarks)
    res.write(bookmark({ "k8s.io/initial-events-end": "true" }));
  if (p.allowBookmarks) {
    timers.push(setInterval(() => open && res.write(bookmark()), ctx.bookmarkIntervalMs));
  }
  if (p.timeoutSeconds !== undefined && p.timeoutSeconds > 0) {
    timers.push(setTimeout(finish, p.timeoutSeconds * 1000));
  }
  res.on("close", finish);
}
