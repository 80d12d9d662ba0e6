/**
 * What `loopscope run` says after a scenario on a kubeconfig's cluster: the objects it made there
 * and did not delete, and the kubectl command that removes them. Run against someone's cluster,
 * a scenario leaves its Foos behind to be looked at; the user should know they are there.
 */
import { delimiter } from "node:path";
import type { MadeObject } from "./kube-client.ts";
import { shellWord } from "../cli/shell-word.ts";

export function leftOnClusterLine(
  left: readonly MadeObject[],
  kubectl: { kubeconfig: string; context: string },
): string | undefined {
  if (left.length === 0) return undefined;
  // One kubectl delete per namespace and kind: its names in the order they were made.
  const groups = new Map<string, MadeObject[]>();
  for (const o of left) {
    const k = `${o.namespace}\u0000${o.kind}`;
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  // kubectl's --kubeconfig takes one file: a list of them ($KUBECONFIG=a:b, merged by the run)
  // reaches kubectl only as $KUBECONFIG.
  const list = kubectl.kubeconfig.includes(delimiter);
  const kubeconfig = shellWord(kubectl.kubeconfig);
  const invocation = [
    ...(list ? [`KUBECONFIG=${kubeconfig} kubectl`] : [`kubectl --kubeconfig ${kubeconfig}`]),
    // No current context: kubectl fails as the run did not, so none is named.
    ...(kubectl.context ? [`--context ${shellWord(kubectl.context)}`] : []),
  ].join(" ");
  const commands = [...groups.values()].map(
    (g) =>
      `${invocation} delete -n ${g[0]!.namespace} ${g[0]!.kind} ${g.map((o) => o.name).join(" ")}`,
  );
  const what = left.map((o) => `${o.kind} ${o.namespace}/${o.name}`).join(", ");
  const owned = left.some((o) => o.kind === "foo") ? " (a Foo's Deployment goes with it)" : "";
  return `left on the cluster: ${what}; to remove${owned}: ${commands.join(" && ")}`;
}
