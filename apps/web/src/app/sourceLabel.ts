/**
 * What the top bar says the page shows: a live run (on which cluster), a replay server's trace,
 * a file opened in the page, or nothing yet.
 */
import type { ServerInfo } from "@loopscope/protocol";
import type { SessionSource } from "../store/session.ts";

export function sourceLabel(source: SessionSource, info: ServerInfo | undefined): string {
  if (source.kind === "live") {
    if (info?.mode === "replay") return `replaying ${info.trace ?? ""}`;
    // A real cluster by its kubeconfig context: which cluster is being changed matters.
    return `live · ${info?.cluster.context ?? info?.cluster.kind ?? "…"}`;
  }
  if (source.kind === "replay") return `replay · ${source.name ?? ""}`;
  return "no trace open";
}
