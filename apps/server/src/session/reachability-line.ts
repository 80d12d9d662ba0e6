/**
 * What `loopscope up` and `proxy` say on stderr when a kubeconfig's cluster stops or starts
 * answering: one line per change, so an outage is heard once however long it lasts.
 */
import type { ClusterReachability } from "@loopscope/protocol";

export function reachabilityLine(
  now: ClusterReachability,
  before: ClusterReachability,
  at: Date = new Date(),
): string {
  if (!now.reachable) {
    return `cluster ${now.server} unreachable since ${clockTime(new Date(now.since))}: ${now.error}; watching for it to come back`;
  }
  if (before.reachable) return "cluster reachable";
  const down = at.getTime() - Date.parse(before.since);
  return `cluster ${before.server} reachable again after ${duration(down)}`;
}

/** Local wall-clock time, as the user's own clock shows it: 15:02:11. */
export function clockTime(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
}

/** 42 s, 3 min 12 s, 2 h 5 min: whole units, as a person would read an outage. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
