/**
 * What the top bar's connection badge says: whether events can reach the page. That takes two
 * links — the page to loopscope (the WebSocket) and loopscope to its cluster — so while the
 * socket is up but the cluster does not answer, the badge says so in the error colour: a
 * "connected" badge over a silent timeline would tell a user all is well. So too while the cluster
 * answers but no longer serves the Foo API (its CRD deleted): no Foo event can come either; and
 * while it answers the controller's informers with an error, again and again (credentials
 * rejected mid-run: 401), which the badge names: no watch event comes then. A
 * lost socket says whether the server is gone or was started again (see LiveConnection's probe).
 */
import type { ConnectionState, ConnectionStatus } from "../live/connection.ts";

export interface ConnectionBadge {
  text: string;
  /** Its look (a CSS class): the socket's status, or the cluster's outage. */
  look: ConnectionStatus | "cluster-unreachable" | "foo-api-gone" | "informers-failing";
  /** Hover text, when there is more to say than the text. */
  title?: string;
}

/**
 * `online`: the browser's own network (navigator.onLine). While it is down nothing answers
 * either, and "server not answering" would blame a server that may be fine.
 */
export function connectionBadge(
  conn: Pick<
    ConnectionState,
    "status" | "reconnects" | "cluster" | "fooApi" | "informers" | "serverAnswers"
  >,
  online = true,
): ConnectionBadge {
  const cluster = conn.cluster;
  if (conn.status === "open" && cluster && !cluster.reachable) {
    return {
      text: "cluster unreachable",
      look: "cluster-unreachable",
      title:
        `${cluster.server} has not answered since ${clockTime(new Date(cluster.since))}: ` +
        `${cluster.error}. No event can come until it does; loopscope keeps asking and ` +
        `this badge turns back when it answers.`,
    };
  }
  const fooApi = conn.fooApi;
  if (conn.status === "open" && fooApi && !fooApi.served) {
    return {
      text: "Foo API gone",
      look: "foo-api-gone",
      title:
        `The cluster has not served foos.samplecontroller.k8s.io since ` +
        `${clockTime(new Date(fooApi.since))}: was the CRD deleted? The controller sees no Foo ` +
        `until it is back. loopscope keeps retrying; kubectl apply -f ` +
        `public/manifests/crd.yaml brings it back, and this badge turns back then.`,
    };
  }
  const informers = conn.informers;
  if (conn.status === "open" && informers?.failing) {
    // "403 Forbidden: deployments.apps is forbidden: User …": the code and its name fit the bar.
    const [short] = informers.error.split(":");
    const next = new Date(Date.parse(informers.at) + informers.retryInMs);
    return {
      text: `informers failing: ${short}`,
      look: "informers-failing",
      title:
        `The cluster has answered the controller's informers (${informers.kinds.join(", ")}) ` +
        `with ${informers.error} since ${clockTime(new Date(informers.since))}: they cannot list ` +
        `or watch, so no watch event comes. They list again in ${seconds(informers.retryInMs)} ` +
        `(${clockTime(next)}) and keep retrying; this badge turns back when they list again.`,
    };
  }
  if (conn.status === "replaced") {
    return {
      text: "server restarted",
      look: "closed",
      title:
        "loopscope was started again at this address: a new run, which does not know this " +
        "page (each start makes a new key). This page still shows the run before.",
    };
  }
  if (conn.status === "reconnecting" && !online) {
    return {
      text: "offline · retrying",
      look: "closed",
      title:
        "This browser is offline: its network is down, so loopscope cannot be reached. The " +
        "page tries again every few seconds and resumes with no gap once it is back.",
    };
  }
  if (conn.status === "reconnecting" && conn.serverAnswers === false) {
    return {
      text: "server not answering · retrying",
      look: "closed",
      title:
        "Nothing answers at loopscope's address: it was stopped, its machine is asleep, or the " +
        "network between is down. The page tries again every few seconds and resumes with no " +
        "gap once it is back.",
    };
  }
  const resumed = conn.reconnects > 0 ? ` · resumed ×${conn.reconnects}` : "";
  return {
    text: (conn.status === "open" ? "connected" : conn.status) + resumed,
    look: conn.status,
  };
}

/** A retry's delay as read: "200 ms", "30 s". */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/** The user's own clock: 15:02:11 (the server's stderr line says it the same way). */
function clockTime(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
}
