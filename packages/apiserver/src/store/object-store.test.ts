/**
 * The store's owner index: what the garbage collector asks of every delete.
 */
import { describe, expect, it } from "vitest";
import type { KObject } from "../object.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { replicaSetResource } from "../resources/replica-set.ts";
import { ObjectStore } from "./object-store.ts";

const obj = (name: string, uid: string, owners: string[] = []): KObject => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  metadata: {
    name,
    namespace: "default",
    uid,
    ...(owners.length
      ? {
          ownerReferences: owners.map((o) => ({
            apiVersion: "apps/v1",
            kind: "Deployment",
            name: o,
            uid: o,
          })),
        }
      : {}),
  },
});

describe("ObjectStore.dependentsOf", () => {
  it("follows ownerReferences as objects are written, changed and deleted", () => {
    const store = new ObjectStore(1000);
    store.write(deploymentResource, { ...obj("d1", "d1"), kind: "Deployment" });
    store.write(replicaSetResource, obj("rs-a", "a", ["d1"]));
    store.write(replicaSetResource, obj("rs-b", "b", ["d1", "d2"]));
    const names = (uid: string) => store.dependentsOf(uid).map((d) => d.object.metadata.name);
    expect(names("d1")).toEqual(["rs-a", "rs-b"]);
    expect(names("d2")).toEqual(["rs-b"]);
    // rs-b drops its reference to d1 (the collector does, when d1 is gone but d2 remains).
    store.write(replicaSetResource, obj("rs-b", "b", ["d2"]));
    expect(names("d1")).toEqual(["rs-a"]);
    store.delete(replicaSetResource, "default", "rs-a");
    expect(names("d1")).toEqual([]);
    expect(names("d2")).toEqual(["rs-b"]);
    expect(store.dependentsOf("nobody")).toEqual([]);
  });
});
