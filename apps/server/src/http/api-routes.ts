/**
 * The /api routes (paths from @loopscope/protocol's API table) over a DashboardBackend.
 */
import { createReadStream } from "node:fs";
import type { ServerResponse } from "node:http";
import { API, type ActionResponse, type ServerInfo } from "@loopscope/protocol";
import { encodeEvent } from "@loopscope/trace";
import type { DashboardBackend } from "../dashboard/backend.ts";
import { recordingHeader } from "../hub/codec.ts";
import { parseActionRequest } from "../actions/validate.ts";
import type { RequestContext, Route } from "./router.ts";
import { HttpError, readBody, sendJson } from "./respond.ts";
import { NO_OBJECTS } from "../objects/objects-view.ts";

/** Manifests are small; this bounds what one request can make the server hold. */
export const ACTION_BODY_LIMIT = 1024 * 1024;
const TRACE_CHUNK = 5000;
/** Lines one `GET /api/lines` may ask for. */
const MAX_LINES = 1000;

export function apiRoutes(backend: DashboardBackend): Route[] {
  return [
    {
      method: "GET",
      path: API.info,
      access: "read",
      handle: ({ res, access }) => sendJson(res, 200, infoFor(backend, access === "reader")),
    },
    {
      method: "GET",
      path: API.objects,
      access: "read",
      // None watched (a replay, the proxy): an empty snapshot as of no event, which says nothing.
      handle: ({ res }) => sendJson(res, 200, backend.objects?.snapshot() ?? NO_OBJECTS),
    },
    {
      method: "POST",
      path: API.action,
      access: "write",
      handle: async ({ req, res }) => {
        const request = parseActionRequest(await readBody(req, ACTION_BODY_LIMIT));
        if (!backend.act) throw new HttpError(409, `not possible in ${backend.mode} mode`);
        const message = await backend.act(request);
        sendJson(res, 200, { ok: true, message } satisfies ActionResponse);
      },
    },
    { method: "GET", path: API.trace, access: "read", handle: (ctx) => sendTrace(backend, ctx) },
    {
      method: "GET",
      path: API.lines,
      access: "read",
      handle: async ({ url, res }) => {
        if (!backend.lines)
          throw new HttpError(404, "this trace keeps its log lines in its events");
        const text = await backend.lines.read(lineNumbers(url.searchParams.get("n")));
        sendJson(res, 200, Object.fromEntries(text));
      },
    },
    {
      method: "GET",
      path: API.runs,
      access: "read",
      handle: async ({ res }) => sendJson(res, 200, await backend.runs.list()),
    },
    {
      method: "GET",
      path: `${API.runs}/`,
      prefix: true,
      access: "read",
      handle: async ({ res, rest }) => {
        let name: string;
        try {
          name = decodeURIComponent(rest);
        } catch {
          throw new HttpError(400, "bad run name");
        }
        const path = await backend.runs.resolve(name);
        if (!path) throw new HttpError(404, "no such run");
        res.writeHead(200, {
          "content-type": "application/x-ndjson; charset=utf-8",
          "content-disposition": `attachment; filename="${name}"`,
          "cache-control": "no-store",
        });
        createReadStream(path).pipe(res);
      },
    },
  ];
}

export function infoFor(backend: DashboardBackend, readOnly: boolean): ServerInfo {
  return {
    ...backend.info(),
    lastSeq: backend.hub.lastSeq,
    readOnly: readOnly || backend.mode === "replay",
  };
}

async function sendTrace(backend: DashboardBackend, { url, res }: RequestContext): Promise<void> {
  const hub = backend.hub;
  const from = seqParam(url.searchParams.get("from"), 1);
  const to = seqParam(url.searchParams.get("to"), hub.lastSeq);
  // Seqs start at 1: a 0 is the asker's mistake (it was a 410 "events before seq 1 are no longer
  // held", as if something had been dropped). Not read as 1: a client that counts from 0 would
  // be off by one everywhere else too.
  if (from === 0) throw new HttpError(400, "from is a seq: 1 or more");
  if (from < hub.oldestAvailable) {
    throw new HttpError(410, `events before seq ${hub.oldestAvailable} are no longer held`);
  }
  const last = Math.min(to, hub.lastSeq);
  // A replayed klog file's events leave their lines in the file: a download gets them back,
  // the dashboard (raw=0) reads only those it shows.
  const lines = url.searchParams.get("raw") === "0" ? undefined : backend.lines;
  const chunk = async (lo: number, hi: number): Promise<string> => {
    if (lines === undefined) return (await hub.rangeLines(lo, hi)).join("");
    const events = await hub.range(lo, hi);
    const text = await lines.read(events.flatMap((e) => (e.line === undefined ? [] : [e.line])));
    for (const e of events) if (e.line !== undefined) e.raw = text.get(e.line);
    return events.map(encodeEvent).join("");
  };
  // The first chunk is read before the status is sent, so that a file rewritten since replay
  // read it is a 409 with its reason, as for /api/lines — not a 200 with only the header line
  // and a dropped connection. (A rewrite during a download can still only cut it short.)
  const first = from <= last ? await chunk(from, Math.min(last, from + TRACE_CHUNK - 1)) : "";
  res.writeHead(200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="loopscope-${from}-${to}.jsonl"`,
    "cache-control": "no-store",
  });
  await write(res, recordingHeader(backend.traceMeta()));
  await write(res, first);
  for (let lo = from + TRACE_CHUNK; lo <= last; lo += TRACE_CHUNK) {
    if (res.destroyed) return;
    await write(res, await chunk(lo, Math.min(last, lo + TRACE_CHUNK - 1)));
  }
  res.end();
}

/** `n=3,17,…`: line numbers of the replayed file, at most MAX_LINES of them. */
function lineNumbers(v: string | null): number[] {
  const parts = v ? v.split(",") : [];
  if (parts.length > MAX_LINES) throw new HttpError(400, `at most ${MAX_LINES} lines at a time`);
  return parts.map((p) => {
    if (!/^[1-9]\d{0,14}$/.test(p)) throw new HttpError(400, "n must list line numbers (1, 2, …)");
    return Number(p);
  });
}

function seqParam(v: string | null, dflt: number): number {
  if (v === null || v === "") return dflt;
  if (!/^\d{1,15}$/.test(v)) throw new HttpError(400, "from/to must be non-negative integers");
  return Number(v);
}

/** Writes, then waits for the socket to drain (or close) — listeners removed either way. */
async function write(res: ServerResponse, text: string): Promise<void> {
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
