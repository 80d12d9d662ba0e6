/**
 * authorization.k8s.io/v1 SelfSubjectAccessReviews and SelfSubjectRulesReviews: what
 * `kubectl auth can-i` (and `can-i --list`) create to ask what the caller may do. The embedded
 * server has no authentication or authorization, so the truthful answer is always "everything":
 * every access review is allowed, and the rules review lists one rule granting every verb on
 * every resource and URL. Reviews are answered, never stored (create is their only verb).
 */
import { isPlainObject, type KObject } from "../object.ts";
import { invalid } from "../errors.ts";
import { NAME_COLUMN } from "../table/table.ts";
import { kindName, type ResourceDef } from "./resource.ts";

/** Why every access review says yes: its status.reason, for whoever reads the response. */
const ALLOWED_REASON =
  "loopscope's embedded API server has no authorization: every request is allowed";

/**
 * The parts every review definition shares: cluster-scoped, built in, no status subresource;
 * authorization.k8s.io unless `group` says otherwise (authentication's SelfSubjectReview).
 */
export function reviewDef(
  kind: string,
  review: (obj: KObject) => KObject,
  group = "authorization.k8s.io",
): ResourceDef {
  return {
    group,
    version: "v1",
    kind,
    listKind: `${kind}List`,
    plural: `${kind.toLowerCase()}s`,
    singular: kind.toLowerCase(),
    namespaced: false,
    status: "none",
    scale: false,
    builtIn: true,
    unconditionalUpdate: true,
    review,
    table: { columns: [NAME_COLUMN], cells: (obj) => [obj.metadata.name] },
  };
}

/** The review as the real server returns it: the request's spec, a status, no stored metadata. */
function answered(obj: KObject, status: Record<string, unknown>): KObject {
  return {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: { creationTimestamp: null } as unknown as KObject["metadata"],
    spec: isPlainObject(obj.spec) ? obj.spec : {},
    status,
  };
}

export const selfSubjectAccessReviewResource: ResourceDef = reviewDef(
  "SelfSubjectAccessReview",
  (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    // authorization's ValidateSelfSubjectAccessReviewSpec: exactly one kind of attributes.
    const resource = spec.resourceAttributes != null;
    const nonResource = spec.nonResourceAttributes != null;
    if (resource === nonResource) {
      throw invalid(
        kindName(selfSubjectAccessReviewResource),
        "",
        "authorization.k8s.io",
        "SelfSubjectAccessReview",
        [
          resource
            ? {
                reason: "FieldValueInvalid",
                field: "spec.nonResourceAttributes",
                detail: `Invalid value: ${JSON.stringify(spec.nonResourceAttributes)}: cannot be specified in combination with resourceAttributes`,
              }
            : {
                reason: "FieldValueInvalid",
                field: "spec.resourceAttributes",
                detail:
                  'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
              },
        ],
      );
    }
    return answered(obj, { allowed: true, reason: ALLOWED_REASON });
  },
);

export const selfSubjectRulesReviewResource: ResourceDef = reviewDef(
  "SelfSubjectRulesReview",
  (obj) =>
    answered(obj, {
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    }),
);
