/**
 * The backend of `loopscope up`: a hub fed by the session's controller, objects from the
 * controller's informer caches, actions against the session's cluster.
 */
import type { RecordingFailure, ScenarioInfo, ServerInfo } from "@loopscope/protocol";
import type { Session } from "../session/session.ts";
import type { TraceHub } from "../hub/trace-hub.ts";
import type { Recording } from "../hub/recording.ts";
import type { RecordingMeta } from "../hub/codec.ts";
import type { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { clusterActions } from "../actions/cluster-actions.ts";
import { applyFault } from "../actions/faults.ts";
import { ObjectsView } from "../objects/objects-view.ts";
import { shownServer } from "../session/shown-server.ts";
import type { DashboardBackend } from "./backend.ts";
import { VERSION } from "./version.ts";

export interface ScenarioRunner {
  list(): ScenarioInfo[];
  run(name: string): Promise<string>;
  /** Ends the scenario under way; says so (its run then answers that it stopped). */
  stop(): string;
}

export interface LiveBackendOptions {
  hub: TraceHub;
  session: Session;
  runs: RunsFolder;
  meta: RecordingMeta;
  workers: number;
  resyncMs: number;
  scenarios?: ScenarioRunner;
  /** A kubeconfig's cluster: whether it answers (absent for the embedded one). */
  reachability?: DashboardBackend["reachability"];
  /** Whether the cluster serves the Foo API. */
  fooApi?: DashboardBackend["fooApi"];
  /** Whether the controller's informers list and watch. */
  informers?: DashboardBackend["informers"];
}

export function liveBackend(o: LiveBackendOptions): DashboardBackend {
  const { session, hub } = o;
  const objects = new ObjectsView(
    session.controller.foos,
    session.controller.deployments,
    () => hub.lastSeq,
  );
  const cluster = clusterInfo(session);
  const trace = o.hub.recording ? o.runs.nameOf(o.hub.recording.path) : undefined;
  const act = clusterActions({
    kubeConfig: session.kubeConfig,
    server: cluster.server ?? session.clusterName,
    reachability: o.reachability,
    fooApi: o.fooApi,
    setLesson: (name, on) => session.controller.setLesson(name, on),
    setFault: session.apiserver ? (f) => applyFault(session.apiserver!.faults, f) : undefined,
    runScenario: o.scenarios ? (name) => o.scenarios!.run(name) : undefined,
    stopScenario: o.scenarios ? () => o.scenarios!.stop() : undefined,
  });
  return {
    mode: "live",
    hub,
    runs: o.runs,
    info: () => ({
      mode: "live",
      version: VERSION,
      cluster,
      trace,
      workers: o.workers,
      resyncSeconds: o.resyncMs / 1000,
      scenarios: o.scenarios?.list() ?? [],
      lessons: session.controller.getLessons(),
      faults: session.apiserver?.faults.state(),
    }),
    objects: { snapshot: () => objects.snapshot(), onChanged: (l) => objects.onChanged(l) },
    reachability: o.reachability,
    fooApi: o.fooApi,
    informers: o.informers,
    recording: o.hub.recording && recordingState(o.hub.recording, trace ?? ""),
    act,
    traceMeta: () => o.meta,
  };
}

/** Where the controller runs, without credentials: the server URL stripped of any userinfo. */
function clusterInfo(session: Session): ServerInfo["cluster"] {
  const server = shownServer(
    session.apiserver?.url ?? session.kubeConfig.getCurrentCluster()?.server,
  );
  return session.apiserver
    ? { kind: "embedded", server }
    : { kind: "kubeconfig", server, context: session.clusterName };
}

/** The recording's failure in the wire's terms, and its one moment. */
function recordingState(
  recording: Recording,
  trace: string,
): NonNullable<DashboardBackend["recording"]> {
  const listeners = new Set<() => void>();
  recording.whenFailed(() => {
    for (const l of listeners) l();
  });
  return {
    failure(): RecordingFailure | undefined {
      const f = recording.failure;
      if (!f) return undefined;
      const error = f.error.message;
      return { trace, error, since: new Date(f.at).toISOString(), savedThrough: f.savedThrough };
    },
    onFailure(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
