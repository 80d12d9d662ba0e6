/**
 * What the objects panel says when it has no row: no match for the filter; on the server's live
 * cluster, how to make a Foo (for the page's owner, while the cluster answers; else why not; while
 * it does not serve the Foo API, that its CRD comes first, as no Foo can be made before); for
 * a trace (a file, a sample, `loopscope replay`), what the trace holds and what loopscope reads —
 * never the live advice, which a trace cannot follow.
 */
import { useMemo } from "react";
import type { ClusterReachability, FooApiPresence, ServerInfo } from "@loopscope/protocol";
import type { TraceSession } from "../store/session.ts";
import { noFooTrace, sourceList } from "./noFooTrace.ts";

export function NoObjects({
  session,
  search,
  serverMode,
  readOnly,
  reachability,
  fooApi,
}: {
  session: TraceSession;
  search: string;
  /** What the page's server serves, once it has said (undefined: no server, or not yet). */
  serverMode?: ServerInfo["mode"];
  /** A share link's page: it watches, it has no actions. */
  readOnly?: boolean;
  /** Whether a kubeconfig's cluster answers (absent: the embedded one, or not heard yet). */
  reachability?: ClusterReachability;
  /** Whether the cluster serves the Foo API (absent: not heard yet, or a replay). */
  fooApi?: FooApiPresence;
}) {
  const q = search.trim();
  if (q && session.store.keyList().length > 0)
    return <p className="muted" data-testid="objects-empty">{`No objects match “${q}”.`}</p>;
  const kind = session.source.kind;
  if (kind === "live" && serverMode === "live" && reachability && !reachability.reachable)
    return (
      <p className="muted" data-testid="objects-empty">
        No Foos yet, and {reachability.server} is not answering ({reachability.error}): its Foos
        show here once it is back.
      </p>
    );
  if (kind === "live" && serverMode === "live" && fooApi && !fooApi.served)
    return (
      <p className="muted" data-testid="objects-empty">
        No Foos: the Foo API is gone from the cluster (its CRD was deleted).{" "}
        {readOnly ? (
          "Its Foos show here once it is back."
        ) : (
          <>
            Bring it back first, in a shell with the <code>KUBECONFIG</code> that{" "}
            <code>loopscope up</code> printed:{" "}
            <code>kubectl apply -f public/manifests/crd.yaml</code>; then create a Foo with{" "}
            <b>create example-foo</b> above, or{" "}
            <code>kubectl apply -f public/manifests/example-foo.yaml</code>
          </>
        )}
      </p>
    );
  if (kind === "live" && serverMode === "live" && readOnly)
    return (
      <p className="muted" data-testid="objects-empty">
        No Foos yet. This page watches someone’s cluster: its Foos show here as they are made.
      </p>
    );
  if (kind === "live" && serverMode === "live")
    return (
      <p className="muted" data-testid="objects-empty">
        No Foos yet. Create one with <b>create example-foo</b> above, or in a shell with the{" "}
        <code>KUBECONFIG</code> that <code>loopscope up</code> printed:{" "}
        <code>kubectl apply -f public/manifests/example-foo.yaml</code>
      </p>
    );
  const trace = kind === "replay" || serverMode === "replay";
  if (!trace || !session.progress.done)
    return (
      <p className="muted" data-testid="objects-empty">
        No objects yet.
      </p>
    );
  return <NoFooInTrace session={session} />;
}

function NoFooInTrace({ session }: { session: TraceSession }) {
  const length = session.store.length;
  // Rescanned when events arrive, not on every refresh.
  const found = useMemo(() => noFooTrace(session.store), [session, length]);
  const { events, notes, sources, sampled } = found;
  return (
    <div className="no-foo" data-testid="objects-empty" data-reason="no-foo">
      <p>
        <strong>No Foo in this trace.</strong>{" "}
        {events === 0 ? (
          "Nothing in it is a line loopscope reads."
        ) : (
          <>
            It holds {events.toLocaleString("en-US")} event{events === 1 ? "" : "s"}
            {notes === events && !sampled ? (events === 1 ? ", a note" : ", all notes") : ""}
            {sources.length > 0 && (
              <>
                {" "}
                — lines from <span data-testid="no-foo-sources">{sourceList(sources)}</span>
              </>
            )}{" "}
            — and no line of sample-controller’s: no <code>STAGE/</code> line, no “Successfully
            synced” or “Error syncing” line.
          </>
        )}
      </p>
      <p className="muted">
        loopscope reads the log of a sample-controller — with the STAGE lines of
        docs/go-controller.md, or without them (its passes then come from those two lines) — and its
        own JSONL traces. Another controller’s log (kube-controller-manager’s, say) has no Foo to
        draw.
      </p>
    </div>
  );
}
