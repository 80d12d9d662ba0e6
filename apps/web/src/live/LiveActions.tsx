/**
 * Buttons that drive the cluster: create/scale/delete example-foo, run a scenario. A scenario
 * runs for seconds (up to a minute on a slow cluster, so it can be stopped): the bar says so while
 * it runs and what it found when it is done (at the end of the actions' row, over nothing of the
 * page: actions.css), and the view lets go of an old selection to follow the new events. While loopscope or a kubeconfig's cluster does not
 * answer, the buttons are off and say why (nothing can reach the cluster); so while the cluster
 * does not serve the Foo API (its CRD deleted), which each of them needs (every scenario makes a
 * Foo); so are scale and delete while there is no example-foo to act on.
 */
import { useRef, useState } from "react";
import {
  FOO_API_GONE,
  type ActionRequest,
  type ClusterReachability,
  type FooApiPresence,
  type ServerInfo,
} from "@loopscope/protocol";
import type { ClusterFoos } from "../panels/ObjectsPanel.tsx";
import type { ViewStore } from "../store/viewState.ts";
import { OffButton } from "../ui/OffButton.tsx";
import { useAction } from "./api.ts";
import "./actions.css";

export function LiveActions({
  token,
  info,
  view,
  cluster,
  fooApi,
  connected,
  foos,
  fooDeleted = false,
  onScenarioStart,
}: {
  token: string;
  info: ServerInfo;
  view: ViewStore;
  /** Whether a kubeconfig's cluster answers (absent: the embedded one, or not heard yet). */
  cluster?: ClusterReachability;
  /** Whether the cluster serves the Foo API (absent: not heard yet). */
  fooApi?: FooApiPresence;
  /** Whether the page's socket to loopscope is up: no action reaches it otherwise. */
  connected: boolean;
  /** The cluster's Foos, as last heard (absent: not heard yet, or none watched: the proxy). */
  foos?: ClusterFoos;
  /**
   * Without `foos`: whether the trace saw example-foo deleted, and not created since (the proxy
   * records the controller's watch events, its delete among them).
   */
  fooDeleted?: boolean;
  /** A scenario is about to run: the page shows the Foo it acts on once its events come. */
  onScenarioStart?: () => void;
}) {
  const action = useAction(token);
  // Its own mutation: the run's is pending while the scenario runs, and the run answers the stop.
  const stop = useAction(token);
  const [scenario, setScenario] = useState("");
  /** Whether what an action said is shown whole (it is cut to two lines in a narrow bar). */
  const [open, setOpen] = useState(false);
  /** The button an action was started from: the focus goes back to it from a note that goes. */
  const startedFrom = useRef<HTMLElement | null>(null);
  const act = (req: ActionRequest) => {
    setOpen(false);
    startedFrom.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    action.mutate(req);
  };
  // A stop or ✕ pressed leaves with its note: the focus would fall to <body>, and a keyboard user
  // start again from the top of the page.
  const refocus = () => {
    if (startedFrom.current?.isConnected) startedFrom.current.focus();
  };
  const name = "example-foo";
  const down = !connected
    ? "loopscope's server is not connected: no action can reach it"
    : cluster && !cluster.reachable
      ? `${cluster.server} is not answering (${cluster.error}): no action can reach it`
      : fooApi && !fooApi.served
        ? FOO_API_GONE
        : undefined;
  const disabled = action.isPending || down !== undefined;
  // Known absent: scale and delete would be refused, so they are off and say why.
  const exists = foos ? foos.present.has(`default/${name}`) : fooDeleted ? false : undefined;
  const absent =
    exists === false
      ? foos || !fooDeleted
        ? `there is no ${name} yet: create it first`
        : `${name} was deleted: create it first`
      : undefined;
  const ran = action.variables?.action === "runScenario" ? action.variables.scenario : undefined;
  const titleOf = (n: string) => info.scenarios.find((x) => x.name === n)?.title ?? n;
  return (
    <div className="actions" role="toolbar" aria-label="Cluster actions">
      <span className="actions-label">cluster:</span>
      <OffButton
        data-testid="action-create"
        title={down}
        off={disabled}
        onClick={() => act({ action: "createFoo", name, replicas: 1 })}
      >
        create {name}
      </OffButton>
      <OffButton
        data-testid="action-scale"
        title={down ?? absent}
        off={disabled || absent !== undefined}
        onClick={() => act({ action: "scaleFoo", name, replicas: 3 })}
      >
        scale to 3
      </OffButton>
      <OffButton
        data-testid="action-delete"
        title={down ?? absent}
        off={disabled || absent !== undefined}
        onClick={() => act({ action: "deleteFoo", name })}
      >
        delete
      </OffButton>
      {info.scenarios.length > 0 && (
        <>
          <select
            data-testid="scenario"
            value={scenario}
            onChange={(e) => setScenario(e.target.value)}
            aria-label="Scenario"
          >
            <option value="">scenario…</option>
            {info.scenarios.map((s) => (
              <option key={s.name} value={s.name} title={s.teaches}>
                {s.title}
              </option>
            ))}
          </select>
          <OffButton
            data-testid="action-scenario"
            title={down}
            off={disabled || !scenario}
            onClick={() => {
              view.set({
                selectedSeq: undefined,
                selectedPass: undefined,
                window: undefined,
                playhead: undefined,
                playing: false,
                follow: true,
              });
              onScenarioStart?.();
              act({ action: "runScenario", scenario });
            }}
          >
            run
          </OffButton>
        </>
      )}
      {ran !== undefined && action.isPending && (
        <div className="action-note" role="status" data-testid="action-running">
          <span>running {titleOf(ran)} …</span>
          <button
            className="link"
            data-testid="action-stop"
            title="end the scenario here (what it made stays on the cluster)"
            disabled={stop.isPending}
            onClick={() => {
              refocus();
              stop.mutate({ action: "stopScenario" });
            }}
          >
            stop
          </button>
        </div>
      )}
      {ran !== undefined && action.isSuccess && action.data.message && (
        <div className={`action-note ${open ? "open" : ""}`} role="status">
          <span
            className="said"
            data-testid="action-result"
            title={action.data.message}
            onClick={() => setOpen(!open)}
          >
            {action.data.message}
          </span>
          <button
            className="link dismiss"
            aria-label="Dismiss the result"
            onClick={() => {
              refocus();
              action.reset();
            }}
          >
            ✕
          </button>
        </div>
      )}
      {action.isError && (
        // Two lines at most, whatever its length: the bar must not grow and push the lanes down.
        <div className={`action-error ${open ? "open" : ""}`} role="alert">
          <span
            className="error said"
            data-testid="action-error"
            title={action.error.message}
            onClick={() => setOpen(!open)}
          >
            {action.error.message}
          </span>
          <button
            className="link dismiss"
            aria-label="Dismiss the error"
            onClick={() => {
              refocus();
              action.reset();
            }}
          >
            ✕
          </button>
        </div>
      )}
    </div>
  );
}
