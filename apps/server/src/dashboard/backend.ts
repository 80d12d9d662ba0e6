/**
 * What the HTTP routes and the WebSocket stream need from a running session, live or replay.
 * `up` and `replay` each build one; the transport code never knows which.
 */
import type {
  ActionRequest,
  ClusterReachability,
  FooApiPresence,
  InformerHealth,
  ObjectsSnapshot,
  RecordingFailure,
  ServerInfo,
  ServerMode,
} from "@loopscope/protocol";
import type { LineFile } from "@loopscope/trace";
import type { TraceHub } from "../hub/trace-hub.ts";
import type { RecordingMeta } from "../hub/codec.ts";
import type { RunsFolder } from "../recorded-runs/runs-folder.ts";

export interface DashboardBackend {
  mode: ServerMode;
  hub: TraceHub;
  runs: RunsFolder;
  /** ServerInfo minus what the transport fills per request (lastSeq, readOnly). */
  info(): Omit<ServerInfo, "lastSeq" | "readOnly">;
  /**
   * The cluster's Foos and Deployments as an informer sees them, and a subscription to changes
   * (returns an unsubscribe). Absent where loopscope watches none — a replay, the proxy (the
   * controller is someone else's) — so the page never reads "not in the snapshot" as "deleted".
   */
  objects?: {
    snapshot(): ObjectsSnapshot;
    onChanged(listener: () => void): () => void;
  };
  /**
   * A kubeconfig's cluster: whether its API server answers now, and a subscription to changes
   * (returns an unsubscribe). Absent for the embedded cluster and in replay.
   */
  reachability?: {
    state(): ClusterReachability;
    onChange(listener: () => void): () => void;
  };
  /**
   * A live run: whether its cluster serves the Foo API (its CRD can be deleted under the
   * controller), and a subscription to changes (returns an unsubscribe). Absent in replay.
   */
  fooApi?: {
    state(): FooApiPresence;
    onChange(listener: () => void): () => void;
  };
  /**
   * A live run: whether the controller's informers list and watch (the cluster can refuse them
   * mid-run: 401, 403 …), and a subscription to changes (returns an unsubscribe). Absent in replay.
   */
  informers?: {
    state(): InformerHealth;
    onChange(listener: () => void): () => void;
  };
  /**
   * A live run's recording: why it stopped, if a write to its file failed, and a subscription to
   * that moment (it happens at most once; returns an unsubscribe). Absent in replay.
   */
  recording?: {
    failure(): RecordingFailure | undefined;
    onFailure(listener: () => void): () => void;
  };
  /**
   * Performs a mutation. Resolves with a human-readable result; rejects with an HttpError whose
   * status follows ActionResponse's table. Absent in replay (every action answers 409).
   */
  act?(request: ActionRequest): Promise<string>;
  /** Header meta for trace downloads. */
  traceMeta(): RecordingMeta;
  /**
   * The replayed file's lines, when its events leave them there (ServerInfo.linesInFile): served
   * by `GET /api/lines`, and put back into trace downloads.
   */
  lines?: LineFile;
}
