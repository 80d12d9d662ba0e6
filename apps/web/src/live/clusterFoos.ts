/** The live cluster's Foos from the server's objects snapshot, keyed as the trace keys them. */
import type { ObjectsSnapshot } from "@loopscope/protocol";
import type { ClusterFoos } from "../panels/ObjectsPanel.tsx";

export function clusterFoos(snapshot: ObjectsSnapshot): ClusterFoos {
  const present = new Set<string>();
  const deleting = new Set<string>();
  for (const o of snapshot.objects) {
    if (o.kind !== "Foo") continue;
    const key = `${o.namespace}/${o.name}`;
    present.add(key);
    if (o.deletionTimestamp) deleting.add(key);
  }
  return { atSeq: snapshot.atSeq, present, deleting };
}
