/**
 * authentication.k8s.io/v1 SelfSubjectReview: what `kubectl auth whoami` creates to ask who the
 * server takes the caller for. The embedded server authenticates no one, so it answers the
 * identity its kubeconfig stands for: the admin user a kind cluster's kubeconfig holds (kubeadm's
 * admin.conf since 1.29: a client certificate for `kubernetes-admin` in the
 * `kubeadm:cluster-admins` group), plus `system:authenticated`, which the server adds to every
 * authenticated user. Answered, never stored; created now, as the real REST handler stamps it.
 */
import { rfc3339, type KObject } from "../object.ts";
import { reviewDef } from "./access-review.ts";
import type { ResourceDef } from "./resource.ts";

/** Who every request is: a kind admin kubeconfig's user. */
export const CALLER = {
  username: "kubernetes-admin",
  groups: ["kubeadm:cluster-admins", "system:authenticated"],
} as const;

export const selfSubjectReviewResource: ResourceDef = reviewDef(
  "SelfSubjectReview",
  (obj: KObject) => ({
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: { creationTimestamp: rfc3339(Date.now()) },
    // Go's UserInfo: uid and extra are empty for a certificate user, so omitted.
    status: { userInfo: { username: CALLER.username, groups: [...CALLER.groups] } },
  }),
  "authentication.k8s.io",
);
