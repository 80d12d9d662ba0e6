/**
 * The wire between apps/server and apps/web: WebSocket messages and HTTP shapes. Both sides import
 * these types; nothing here does I/O.
 *
 * Stream invariants (the server keeps them, the web relies on them):
 * - every event carries `seq`; a client that says `resume(since)` receives exactly the events with
 *   seq > since, in order, with no duplicates, before any newer batch;
 * - events travel in batches (`events`), never one message each, encoded as the trace file's
 *   records are;
 * - a client that falls too far behind receives `catchUp` instead of the batches it missed and
 *   fetches that range over HTTP (GET /api/trace?from=&to=), then resumes;
 * - after `catchUp` the server sends no further `events` until the client's next `resume`, so
 *   the socket never buffers more than one batch past its high-water mark;
 * - `hello` is the first message on every connection; `objects` may arrive at any time after it
 *   and always replaces the previous snapshot whole;
 * - on a kubeconfig's cluster, `reachability` follows `hello` on every connection and comes again
 *   each time the cluster's API server stops or starts answering, so a page that connects during
 *   an outage sees it; the embedded cluster (which lives in loopscope's process) never sends it;
 * - in a live run, `fooApi` follows `hello` on every connection and comes again each time the
 *   cluster stops or starts serving the Foo API (its CRD deleted, then created again);
 * - in a live run, `informers` follows `hello` on every connection and comes again each time the
 *   controller's informers start or stop failing (the cluster answers their lists and watches with
 *   an error: 401, 403, 500 …), and on each new failure while they do (its reason, its retry);
 * - once a live run's recording has failed (a full disk), `recording` follows `hello` on every
 *   connection, and goes to every client the moment it fails; a recording never recovers.
 *
 * Authentication (see TOKEN_META, TOKEN_HEADER): the served index.html carries the run's token
 * in `<meta name="loopscope-token" content="…">`. Every /api request sends it in the
 * `x-loopscope-token` header (GET downloads may use `?token=` instead, for plain links), and the
 * WebSocket URL carries `?token=`. A read-only share token is accepted for reads and the stream;
 * any mutation with it answers 403. Requests from a foreign Origin answer 403.
 */

// ---------- WebSocket: /ws?token=…  (token absent or wrong ⇒ 403; read-only share token allowed) --

export type ClientMessage =
  /** Sent first and after every reconnect: "I have every event up to and including `since`". */
  { type: "resume"; since: number } | { type: "ping"; t: number };

export type ServerMessage =
  | { type: "hello"; info: ServerInfo }
  /**
   * A batch of events, each the JSON record `encodeEvent` writes — the records of the trace's
   * JSONL, which GET /api/trace sends one a line. Read both with packages/trace's decoders
   * (decodeEventRecords, decodeEventLines), which check each record with decodeEvent.
   */
  | { type: "events"; events: unknown[] }
  /** The missed range is too large for the socket: fetch it over HTTP, then resume(to). */
  | { type: "catchUp"; from: number; to: number }
  /** Current state of the watched objects, so a new client can draw the present. */
  | { type: "objects"; objects: ObjectsSnapshot }
  /** Whether the cluster's API server answers; replaces the previous state whole. */
  | { type: "reachability"; cluster: ClusterReachability }
  /** Whether the cluster serves the Foo API; replaces the previous state whole. */
  | { type: "fooApi"; fooApi: FooApiPresence }
  /** Whether the controller's informers can list and watch; replaces the previous state whole. */
  | { type: "informers"; informers: InformerHealth }
  /** The run's recording stopped: its file lacks every event after `savedThrough`. */
  | { type: "recording"; failure: RecordingFailure }
  | { type: "pong"; t: number }
  | { type: "error"; message: string };

// ---------- HTTP ----------------------------------------------------------------------------------

export type ServerMode = "live" | "replay";

/** Name of the meta tag in the served index.html that carries the token for this page. */
export const TOKEN_META = "loopscope-token";

export interface ServerInfo {
  mode: ServerMode;
  version: string;
  /** Where the controller runs against. */
  cluster: { kind: "embedded" | "kubeconfig" | "none"; server?: string; context?: string };
  /** Path (relative to the runs folder) of the recording, or the replayed file's name. */
  trace?: string;
  /**
   * Replay only: problems the reader reported while loading the file (malformed lines are
   * skipped, the rest loads). Capped; `loadIssuesTotal` says how many there were in all.
   */
  loadIssues?: LoadIssue[];
  loadIssuesTotal?: number;
  /**
   * Replay of a plain klog file only: events carry no `raw` log line; `GET /api/lines` reads
   * them back from the file by the events' `line` numbers.
   */
  linesInFile?: boolean;
  lastSeq: number;
  /** true for a read-only share session: every mutation is refused. */
  readOnly: boolean;
  /**
   * With `loopscope up --share`: the read-only URL for attendees (presenter mode shows it).
   * It carries the share token, which can only watch.
   */
  shareUrl?: string;
  workers?: number;
  resyncSeconds?: number;
  scenarios: ScenarioInfo[];
  lessons: LessonSwitches;
  faults?: FaultState;
}

/**
 * Whether a kubeconfig's cluster answers loopscope (GET /version within a few seconds). While it
 * does not, nothing can reach the controller: no watch event, no pass.
 */
export type ClusterReachability =
  | { reachable: true }
  | {
      reachable: false;
      /** The API server's URL, credentials stripped (as ServerInfo.cluster.server). */
      server: string;
      /** Why: "connect ECONNREFUSED 127.0.0.1:6443", "no answer within 3 s", "HTTP 503". */
      error: string;
      /** ISO time of the first request that got no answer. */
      since: string;
    };

/**
 * Whether the cluster serves the Foo API (foos.samplecontroller.k8s.io): not since the Foo
 * informer's list or watch was answered 404 (the CRD was deleted), until it lists or watches again.
 * While it does not, the controller sees no Foo.
 */
export type FooApiPresence =
  | { served: true }
  | {
      served: false;
      /** ISO time of the first 404. */
      since: string;
    };

/**
 * Whether the controller's informers list and watch: not while the cluster answers them with an
 * error again and again (credentials rejected mid-run: 401; RBAC revoked: 403; a failing server:
 * 500 …), until each lists or watches again. While they fail, no watch event reaches the
 * controller. A cluster that does not answer at all is ClusterReachability's; the Foo informer's
 * 404 is FooApiPresence's.
 */
export type InformerHealth =
  | { failing: false }
  | {
      failing: true;
      /** The failing informers' kinds: ["Foo", "Deployment"]. */
      kinds: string[];
      /** The latest failure's reason: "401 Unauthorized", "403 Forbidden: … cannot watch …". */
      error: string;
      /** When the informer that failed latest lists (or watches) again, in ms after `at`. */
      retryInMs: number;
      /** ISO time of the latest failure. */
      at: string;
      /** ISO time of the first failure of this outage. */
      since: string;
    };

/**
 * Why an action or scenario that needs the Foo API is refused while the cluster does not serve it:
 * the server's answer to one, and the page's reason on its buttons.
 */
export const FOO_API_GONE =
  "the Foo API is gone from the cluster (its CRD was deleted): kubectl apply -f public/manifests/crd.yaml brings it back";

/**
 * A live run's recording that could not be written (ENOSPC: the disk is full; EIO …). The run goes
 * on, and the page holds every event; the file lacks those after `savedThrough`, which is
 * `lastSeq - savedThrough` events and growing.
 */
export interface RecordingFailure {
  /** The recording's file name (as ServerInfo.trace). */
  trace: string;
  /** The write's error: "ENOSPC: no space left on device, write". */
  error: string;
  /** ISO time of the failed write. */
  since: string;
  /** The last seq whose line is whole in the file (0: none). */
  savedThrough: number;
}

export interface LoadIssue {
  /** 1-based line number in the replayed file, when known. */
  line?: number;
  message: string;
  /** As packages/trace's Diagnostic.level: absent = "error" (the line was not read). */
  level?: "info" | "warn" | "error";
}

export interface ScenarioInfo {
  name: string;
  title: string;
  teaches: string;
}

export interface LessonSwitches {
  /** Status gets a fresh timestamp every pass: a hot loop. */
  hotLoopBug: boolean;
  /** Skip UpdateStatus when the status would not change. */
  idempotentStatus: boolean;
}

export interface FaultState {
  latencyMs: Partial<
    Record<"get" | "list" | "watch" | "create" | "update" | "patch" | "delete", number>
  >;
  failNext: number;
  competingWriter: boolean;
}

export interface ObjectSummary {
  kind: "Foo" | "Deployment";
  namespace: string;
  name: string;
  resourceVersion: string;
  generation?: number;
  /** Foo: spec.replicas; Deployment: spec.replicas. */
  replicas?: number;
  /** Foo: status.availableReplicas; Deployment: status.availableReplicas. */
  availableReplicas?: number;
  /** Deployment: namespace/name of the controlling Foo, if any. */
  owner?: string;
  deletionTimestamp?: string;
}

export interface ObjectsSnapshot {
  /** seq of the last event when the snapshot was taken. */
  atSeq: number;
  objects: ObjectSummary[];
}

export interface RunInfo {
  /** File name inside the runs folder; the only form a client may name a run by. */
  name: string;
  bytes: number;
  modified: string;
}

/** Mutations (POST, JSON body, header `x-loopscope-token`, same Origin). */
export type ActionRequest =
  | { action: "createFoo"; namespace?: string; name: string; replicas?: number }
  | { action: "deleteFoo"; namespace?: string; name: string }
  | { action: "scaleFoo"; namespace?: string; name: string; replicas: number }
  | { action: "applyManifest"; yaml: string }
  | { action: "runScenario"; scenario: string }
  /** Ends the scenario under way (409 when none is); its runScenario answers that it stopped. */
  | { action: "stopScenario" }
  | { action: "setLesson"; lesson: keyof LessonSwitches; enabled: boolean }
  /**
   * Embedded API server only (409 otherwise). Every field is optional; only those present
   * change: `latencyMs` per verb (0 removes), `failNext` (the next N resource requests fail
   * with 500), `competingWriter` on/off — turning it on needs `competingWriterTarget` (the
   * object whose annotation it bumps, default interval 500 ms), `closeWatches` ends every watch
   * now, `expireNextWatch` makes the next watch get 410 Expired.
   */
  | {
      action: "setFault";
      fault: Partial<FaultState> & {
        closeWatches?: boolean;
        expireNextWatch?: boolean;
        competingWriterTarget?: {
          kind?: "Foo" | "Deployment";
          namespace?: string;
          name: string;
          intervalMs?: number;
        };
      };
    };

/**
 * Answer to POST /api/action. HTTP status: 200 ok; 400 malformed request; 403 bad token, share
 * token or foreign Origin; 409 not possible in this mode (replay) or a Kubernetes conflict;
 * 413 body too large; 502 the cluster refused or failed the call (message says why).
 */
export interface ActionResponse {
  ok: boolean;
  message?: string;
}

export const API = {
  info: "/api/info",
  objects: "/api/objects",
  action: "/api/action",
  /**
   * ?from=&to= (seq, inclusive; both optional: whole trace) → JSONL with header, content type
   * application/x-ndjson. `from` older than the server still holds → 410.
   */
  trace: "/api/trace",
  /**
   * ?n=3,17,… (line numbers of the replayed file, at most 1000) → `{ "3": "text", … }`: the
   * file's lines, for a replay whose events leave them there (ServerInfo.linesInFile); a line
   * the file does not have is left out. 404 otherwise.
   */
  lines: "/api/lines",
  /** GET → RunInfo[] (newest first). */
  runs: "/api/runs",
  /** GET /api/runs/<name> → that recording's bytes (JSONL). `name` must be a RunInfo.name. */
  run: (name: string) => `/api/runs/${encodeURIComponent(name)}`,
  ws: "/ws",
} as const;

/** What a run name must look like: a plain file name, no folders, no leading dot. */
export const RUN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.(jsonl|log|txt)$/;

export const TOKEN_HEADER = "x-loopscope-token";
