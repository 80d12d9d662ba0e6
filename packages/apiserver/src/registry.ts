/**
 * The generic REST storage: create / get / list / update / patch / delete with Kubernetes
 * semantics on top of the ObjectStore, parameterized by each type's ResourceDef strategy.
 *
 * Invariants:
 * - server-owned fields (creationTimestamp, generation, deletionTimestamp, name, namespace)
 *   keep their stored values whatever a client sends; a different uid is refused (409 as an
 *   update's precondition, 422 immutable in a patch);
 * - generation changes only when the strategy says so (spec for CRs);
 * - the main resource never changes status and /status changes only status (plus, for built-in
 *   types, metadata other than labels);
 * - an update that changes nothing writes nothing: same resourceVersion, no watch event;
 * - a PUT with a stale resourceVersion is a 409 Conflict; CRs require one (422 without).
 */
import {
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  type FieldError,
  invalid,
  notFound,
  qualified,
} from "./errors.ts";
import type { IdSource } from "./ids.ts";
import {
  clone,
  deepEqual,
  isPlainObject,
  normalizeTimes,
  rfc3339,
  type KObject,
} from "./object.ts";
import { applyPatch, type PatchType } from "./patch/apply-patch.ts";
import { allowedFieldSelectors } from "./resources/catalog.ts";
import { crdResource } from "./resources/crd.ts";
import { schemaOf } from "./resources/crd-serving.ts";
import { markedForDeletion } from "./resources/crd-termination.ts";
import {
  cannotHandle,
  decodeProblem,
  deeperThan,
  MAX_DEPTH,
  metadataProblem,
  requireKind,
  TOO_DEEP,
} from "./resources/decode.ts";
import { FOO_CRD } from "./resources/foo-crd.ts";
import { METADATA_ONLY, unknownFields } from "./resources/known-fields.ts";
import { INITIAL_NAMESPACES, namespaceResource } from "./resources/namespace.ts";
import { KUBERNETES_SERVICE, serviceResource } from "./resources/service.ts";
import { NODE_LEASE_NAMESPACE, leaseResource, nodeLease } from "./resources/lease.ts";
import { loopscopeNode, nodeResource } from "./resources/node.ts";
import { apiVersionOf, kindName, type ResourceDef } from "./resources/resource.ts";
import { decodeBySchema, readBySchema } from "./resources/schema-decoding.ts";
import { validateBySchema } from "./resources/schema-validation.ts";
import { validateLabelsAndAnnotations } from "./resources/meta-validation.ts";
import {
  matchesSelector,
  parseFieldSelector,
  parseLabelSelector,
  type Selector,
} from "./selectors.ts";
import type { ObjectStore } from "./store/object-store.ts";

/**
 * What a write does with fields its type does not declare (the `fieldValidation` parameter):
 * drop them (Ignore), drop them and say so in a warning (Warn, the server's default), or refuse
 * the request with a 400 (Strict, kubectl's default).
 */
export type FieldValidation = "Ignore" | "Warn" | "Strict";

export interface WriteOptions {
  dryRun?: boolean;
  /** Default Warn. */
  fieldValidation?: FieldValidation;
  /** Where Warn's warnings go (`unknown field "spec.replica"`), for the `Warning` header. */
  warnings?: string[];
}

export interface UpdateOptions extends WriteOptions {
  subresource?: "status";
}

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: "Background" | "Foreground" | "Orphan";
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object's last state. */
  object: KObject;
  /** false when finalizers keep it (deletionTimestamp set, still readable). */
  finished: boolean;
}

/**
 * An object being deleted (deletionTimestamp set) may lose finalizers but gain none, as
 * apimachinery's ValidateObjectMetaUpdate rules: otherwise a client could hold a deletion open
 * forever. The message is ValidateNoNewFinalizers' (the new ones sorted, in Go's `%#v`).
 */
function noNewFinalizers(old: KObject, next: KObject): FieldError[] {
  if (!old.metadata.deletionTimestamp) return [];
  const before = new Set(old.metadata.finalizers ?? []);
  const added = [...new Set(next.metadata.finalizers ?? [])].filter((f) => !before.has(f)).sort();
  if (added.length === 0) return [];
  return [
    {
      reason: "FieldValueForbidden",
      field: "metadata.finalizers",
      detail: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
    },
  ];
}

/**
 * apimachinery's ValidateObjectMetaUpdate keeps `metadata.uid` for life: a value other than the
 * stored one is a 422 `field is immutable` (the value in Go's %#v of a types.UID, quoted). An
 * empty one is not a change (BeforeUpdate fills it from the stored object first).
 */
function uidImmutable(old: KObject, sent: unknown): FieldError[] {
  if (sent === undefined || sent === "" || sent === old.metadata.uid) return [];
  return [
    {
      reason: "FieldValueInvalid",
      field: "metadata.uid",
      detail: `Invalid value: ${JSON.stringify(sent)}: field is immutable`,
    },
  ];
}

/** ObjectMeta's maps and lists, `omitempty` in Go: an empty one is not stored (nor shown). */
const OMIT_EMPTY = ["labels", "annotations", "ownerReferences", "finalizers", "managedFields"];

/** Removing the last label leaves no `labels: {}` behind, as on a cluster. */
function dropEmpty(meta: KObject["metadata"]): void {
  for (const f of OMIT_EMPTY) {
    const v = meta[f];
    if ((Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0))
      delete meta[f];
  }
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Most types' names: a DNS-1123 subdomain (what the 422 says after the name). */
function subdomainProblem(name: string): string | undefined {
  if (name.length > 253) return "must be no more than 253 characters";
  if (!DNS_SUBDOMAIN.test(name))
    return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

export class Registry {
  readonly store: ObjectStore;
  readonly #ids: IdSource;
  readonly #now: () => number;

  constructor(store: ObjectStore, ids: IdSource, now: () => number = Date.now) {
    this.store = store;
    this.#ids = ids;
    this.#now = now;
  }

  /**
   * Creates the Foo CRD (once, at startup), as on a cluster with it installed: Foos are served
   * while it exists (resources/crd-serving.ts), and `kubectl get crd` says why. It carries a last-applied annotation, as if
   * `kubectl apply`-ed, so applying crd.yaml over it configures it without kubectl's warning
   * about a missing annotation.
   */
  seedFooCrd(): void {
    const crd = clone(FOO_CRD) as KObject;
    crd.metadata.annotations = {
      ...crd.metadata.annotations,
      "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify(FOO_CRD),
    };
    this.create(crdResource, undefined, crd);
  }

  /** Creates the `kubernetes` Service in `default` (once, at startup), as every cluster has. */
  seedKubernetesService(): void {
    this.create(serviceResource, "default", clone(KUBERNETES_SERVICE));
  }

  /** Creates the simulated cluster's one node and its heartbeat lease (once, at startup). */
  seedNode(): void {
    const now = rfc3339(this.#now());
    this.create(nodeResource, undefined, loopscopeNode(now));
    this.create(leaseResource, NODE_LEASE_NAMESPACE, nodeLease(now));
  }

  /** Creates default and the kube-* namespaces (once, at startup). */
  seedNamespaces(): void {
    for (const name of INITIAL_NAMESPACES) {
      this.create(namespaceResource, undefined, { metadata: { name } });
    }
  }

  selector(
    def: ResourceDef,
    labelSelector?: string | null,
    fieldSelector?: string | null,
  ): Selector {
    return {
      labels: parseLabelSelector(labelSelector),
      fields: parseFieldSelector(fieldSelector, allowedFieldSelectors(def)),
    };
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KObject {
    return this.#read(def, this.#stored(def, namespace, name));
  }

  #stored(def: ResourceDef, namespace: string | undefined, name: string): KObject {
    const obj = this.store.get(def, namespace, name);
    if (!obj) throw notFound(def, name);
    return obj;
  }

  /**
   * A stored object as reads return it: a custom resource pruned and defaulted by its CRD's
   * schema as it is now (resources/schema-decoding.ts), as a cluster decodes it from etcd.
   */
  #read(def: ResourceDef, stored: KObject): KObject {
    const schema = schemaOf(def, this.store);
    return schema ? readBySchema(stored, schema) : stored;
  }

  list(
    def: ResourceDef,
    namespace: string | undefined,
    selector: Selector,
  ): { items: KObject[]; resourceVersion: string } {
    const items = this.store
      .list(def, namespace)
      .map((o) => this.#read(def, o))
      .filter((o) => matchesSelector(selector, o));
    return { items, resourceVersion: String(this.store.currentRv) };
  }

  create(
    def: ResourceDef,
    namespace: string | undefined,
    body: unknown,
    opts: WriteOptions = {},
  ): KObject {
    const unknown: string[] = [];
    const obj = this.#asObject(def, body, opts, unknown);
    const meta = obj.metadata;
    if (def.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) {
        throw badRequest(
          "the namespace of the provided object does not match the namespace sent on the request",
        );
      }
      meta.namespace = namespace ?? meta.namespace ?? "default";
      this.#requireActiveNamespace(def, meta.namespace, meta.name || meta.generateName);
    } else {
      delete meta.namespace;
    }
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${this.#ids.suffix()}`;
    if (!meta.name) {
      throw invalid(kindName(def), "", def.group, def.kind, [
        {
          reason: "FieldValueRequired",
          field: "metadata.name",
          detail: "Required value: name or generateName is required",
        },
      ]);
    }
    const nameProblem = (def.nameProblem ?? subdomainProblem)(meta.name);
    if (nameProblem !== undefined) {
      throw invalid(kindName(def), meta.name, def.group, def.kind, [
        {
          reason: "FieldValueInvalid",
          field: "metadata.name",
          detail: `Invalid value: ${JSON.stringify(meta.name)}: ${nameProblem}`,
        },
      ]);
    }
    if (this.store.get(def, meta.namespace, meta.name)) throw alreadyExists(def, meta.name);
    meta.uid = this.#ids.uid();
    meta.creationTimestamp = rfc3339(this.#now());
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (def.generationChanged) meta.generation = 1;
    else delete meta.generation;
    def.prepareForCreate?.(obj);
    this.#finish(def, obj, opts, unknown);
    if (opts.dryRun) return obj;
    return this.store.write(def, obj);
  }

  update(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts: UpdateOptions = {},
  ): KObject {
    const stored = this.#stored(def, namespace, name);
    const old = this.#read(def, stored);
    const unknown: string[] = [];
    const incoming = this.#asObject(def, body, opts, unknown);
    if (incoming.metadata.name && incoming.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    if (
      def.namespaced &&
      incoming.metadata.namespace &&
      incoming.metadata.namespace !== old.metadata.namespace
    ) {
      throw badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    // A uid in the body is a precondition, as a real server's update takes it: a stale PUT must
    // not overwrite an object deleted and created again under the same name.
    const uid = incoming.metadata.uid;
    if (uid && uid !== old.metadata.uid) {
      throw conflict(
        def,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid}`,
      );
    }
    const rv = incoming.metadata.resourceVersion;
    if (!rv && !def.unconditionalUpdate) {
      throw invalid(qualified(def), name, def.group, def.plural, [
        {
          reason: "FieldValueInvalid",
          field: "metadata.resourceVersion",
          detail: "Invalid value: 0x0: must be specified for an update",
        },
      ]);
    }
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(def, name);
    return this.#replace(def, stored, old, incoming, opts, unknown);
  }

  patch(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts: UpdateOptions = {},
  ): KObject {
    const stored = this.#stored(def, namespace, name);
    const old = this.#read(def, stored);
    const patched = applyPatch(type, clone(old), patch);
    const unknown: string[] = [];
    const incoming = this.#asObject(def, patched, opts, unknown);
    // A patch is unconditional unless it names a resourceVersion itself.
    if (incoming.metadata.resourceVersion !== old.metadata.resourceVersion) {
      if (incoming.metadata.resourceVersion) throw conflict(def, name);
    }
    if (incoming.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${String(incoming.metadata.name)}) does not match the name on the URL (${name})`,
      );
    }
    // The patch handler's checkName: a patch does not move an object to another namespace (one
    // that drops it is filled from the request, as an update's is).
    const ns = incoming.metadata.namespace;
    if (def.namespaced && namespace && ns && ns !== namespace) {
      throw badRequest(
        `the namespace of the object (${ns}) does not match the namespace on the request (${namespace})`,
      );
    }
    return this.#replace(def, stored, old, incoming, opts, unknown);
  }

  delete(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): DeleteResult {
    const old = this.get(def, namespace, name);
    const pre = opts.preconditions ?? {};
    if (pre.uid && pre.uid !== old.metadata.uid) {
      throw conflict(
        def,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`,
      );
    }
    if (pre.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(
        def,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
      );
    }
    if (def === namespaceResource) return this.#deleteNamespace(old, opts);
    if (def === crdResource) return this.#deleteCrd(old, opts);
    const finalizers = [...(old.metadata.finalizers ?? [])];
    const policy = opts.propagationPolicy ?? "Background";
    if (policy === "Foreground" && !finalizers.includes("foregroundDeletion"))
      finalizers.push("foregroundDeletion");
    if (policy === "Orphan" && !finalizers.includes("orphan")) finalizers.push("orphan");
    if (finalizers.length === 0) {
      if (opts.dryRun) return { object: old, finished: true };
      const last = this.store.delete(def, old.metadata.namespace, name);
      return { object: last ? this.#read(def, last) : old, finished: true };
    }
    const next = clone(old);
    next.metadata.finalizers = finalizers;
    // Marked as deleting, its generation goes up, as a real server's markAsDeleting does: a
    // controller that reacts to generation changes sees the deletion.
    const generation = old.metadata.generation ?? 0;
    if (!old.metadata.deletionTimestamp && generation > 0)
      next.metadata.generation = generation + 1;
    next.metadata.deletionTimestamp ??= rfc3339(this.#now());
    next.metadata.deletionGracePeriodSeconds ??= 0;
    if (opts.dryRun || deepEqual(next, old)) return { object: old, finished: false };
    return { object: this.store.write(def, next), finished: false };
  }

  /**
   * Applies update semantics to a body whose preconditions already passed. `old` is the object
   * as read (`stored` decoded by the schema as it is now): the update starts from it, and
   * generation compares with it; whether anything changed is judged against `stored`, as etcd's
   * store compares the bytes it would write with the bytes it holds — the first write after a CRD
   * gained a default stores it.
   */
  #replace(
    def: ResourceDef,
    stored: KObject,
    old: KObject,
    incoming: KObject,
    opts: UpdateOptions,
    unknown: string[],
  ): KObject {
    let next: KObject;
    if (opts.subresource === "status") {
      if (def.status === "none") throw notFound(def, old.metadata.name ?? "");
      if (def.status === "custom-resource") {
        next = clone(old);
      } else {
        next = incoming;
        next.spec = clone(old.spec);
        next.metadata.labels = clone(old.metadata.labels);
      }
      if (incoming.status === undefined) delete next.status;
      else next.status = incoming.status;
    } else {
      next = incoming;
      if (def.status !== "none") {
        if (old.status === undefined) delete next.status;
        else next.status = clone(old.status);
      }
    }
    const meta = next.metadata;
    meta.name = old.metadata.name;
    if (def.namespaced) meta.namespace = old.metadata.namespace;
    // A uid the object does not have is refused, not quietly reset: a patch (no precondition,
    // unlike an update's body) reaches BeforeUpdate's ObjectMeta check as on a cluster. None
    // given keeps the stored one.
    const uidChanged = uidImmutable(old, meta.uid);
    meta.uid = old.metadata.uid;
    meta.creationTimestamp = old.metadata.creationTimestamp;
    meta.resourceVersion = old.metadata.resourceVersion;
    if (old.metadata.deletionTimestamp) {
      meta.deletionTimestamp = old.metadata.deletionTimestamp;
      meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    } else {
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
    }
    delete meta.selfLink;
    this.#finish(def, next, opts, unknown, [
      ...uidChanged,
      ...noNewFinalizers(old, next),
      ...(def.validateUpdate?.(old, next) ?? []),
    ]);
    if (def.generationChanged) {
      const bumped = opts.subresource !== "status" && def.generationChanged(old, next);
      meta.generation = (old.metadata.generation ?? 1) + (bumped ? 1 : 0);
    } else delete meta.generation;
    if (deepEqual(next, stored)) return old;
    if (opts.dryRun) return next;
    if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0) {
      // The last finalizer is gone: the pending deletion completes now.
      return this.store.delete(def, meta.namespace, meta.name ?? "") ?? old;
    }
    return this.store.write(def, next);
  }

  /**
   * Defaults and validation shared by create and update. `unknown` holds the undeclared fields
   * decoding found (#asObject), to which a CR's pruning by its CRD's schema adds its own: under
   * Strict they are a 400 before any validation, as the real server's strict decoding error;
   * under Warn each is a warning. `errors` are the update's own.
   */
  #finish(
    def: ResourceDef,
    obj: KObject,
    opts: WriteOptions,
    unknown: string[],
    errors: FieldError[] = [],
  ): void {
    const strict = opts.fieldValidation === "Strict";
    // A custom resource's schema is its CRD's as it is now (crd-serving.ts): pruned, nulls it
    // refuses dropped, defaulted (resources/schema-decoding.ts); validated below.
    const schema = schemaOf(def, this.store);
    if (schema) unknown.push(...decodeBySchema(obj, schema));
    if (unknown.length > 0) {
      const each = unknown.map((u) => `unknown field ${JSON.stringify(u)}`);
      if (strict) throw cannotHandle(def, `strict decoding error: ${each.join(", ")}`);
      if ((opts.fieldValidation ?? "Warn") === "Warn") opts.warnings?.push(...each);
    }
    obj.apiVersion = apiVersionOf(def);
    obj.kind = def.kind;
    dropEmpty(obj.metadata);
    normalizeTimes(obj);
    def.applyDefaults?.(obj);
    if (schema) errors.push(...validateBySchema(obj, schema));
    errors.push(...(def.validate?.(obj) ?? []));
    errors.push(...validateLabelsAndAnnotations(obj.metadata));
    for (const [i, ref] of (obj.metadata.ownerReferences ?? []).entries()) {
      if (!ref || !ref.uid) {
        errors.push({
          reason: "FieldValueInvalid",
          field: `metadata.ownerReferences.uid`,
          detail: `Invalid value: "": uid must not be empty`,
        });
      }
      if (!ref?.name || !ref?.kind || !ref?.apiVersion) {
        errors.push({
          reason: "FieldValueRequired",
          field: `metadata.ownerReferences[${i}]`,
          detail: "Required value: apiVersion, kind, name and uid must be set",
        });
      }
    }
    if (errors.length > 0)
      throw invalid(kindName(def), obj.metadata.name ?? "", def.group, def.kind, errors);
  }

  /**
   * The body as `def`'s object, decoded as the real server decodes it (resources/decode.ts):
   * 400 for a wrong JSON type anywhere in metadata, a custom resource without its kind or
   * apiVersion, or nesting past MAX_DEPTH — checked before anything recurses into the body.
   * Fields the type does not declare go to `unknown`, and are dropped unless Strict.
   */
  #asObject(def: ResourceDef, body: unknown, opts: WriteOptions, unknown: string[]): KObject {
    if (!isPlainObject(body))
      throw badRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: expected a JSON object`,
      );
    if (deeperThan(body, MAX_DEPTH)) throw cannotHandle(def, TOO_DEEP);
    requireKind(def, body);
    const obj = clone(body) as KObject;
    if (obj.kind !== undefined && obj.kind !== def.kind) {
      throw badRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: the kind "${String(obj.kind)}" does not match`,
      );
    }
    // A built-in type takes a missing apiVersion from the URL; a custom resource must say it.
    if ((obj.apiVersion !== undefined || !def.builtIn) && obj.apiVersion !== apiVersionOf(def)) {
      throw badRequest(
        `the API version in the data (${String(obj.apiVersion ?? "")}) does not match the expected API version (${apiVersionOf(def)})`,
      );
    }
    const metaWhy = metadataProblem(def, obj.metadata);
    if (metaWhy) throw cannotHandle(def, metaWhy);
    if (!isPlainObject(obj.metadata)) obj.metadata = {};
    const why = decodeProblem(def, obj);
    if (why) throw cannotHandle(def, why);
    unknownFields(obj, def.fields ?? METADATA_ONLY, opts.fieldValidation === "Strict", unknown);
    return obj;
  }

  /**
   * NamespaceLifecycle admission: a create in a namespace being terminated is refused with
   * admission.NewForbidden, which names the object (its generateName before one is generated,
   * "Unknown" without either) and its resource, plus the NamespaceTerminating cause that
   * controllers (client-go's HasStatusCause) look for to stop retrying.
   */
  #requireActiveNamespace(def: ResourceDef, name: string, objectName = ""): void {
    const ns = this.store.get(namespaceResource, undefined, name);
    if (!ns) throw notFound(namespaceResource, name);
    if (ns.metadata.deletionTimestamp) {
      const err = forbidden(
        def,
        objectName || "Unknown",
        `unable to create new content in namespace ${name} because it is being terminated`,
      );
      err.status.details!.causes = [
        {
          reason: "NamespaceTerminating",
          message: `namespace ${name} is being terminated`,
          field: "metadata.namespace",
        },
      ];
      throw err;
    }
  }

  /**
   * A CRD is only marked (resources/crd-termination.ts): the CRD finalizer deletes its custom
   * resources, then the CRD itself goes.
   */
  #deleteCrd(old: KObject, opts: DeleteOptions): DeleteResult {
    const next = markedForDeletion(old, rfc3339(this.#now()));
    if (opts.dryRun || deepEqual(next, old)) return { object: old, finished: false };
    return { object: this.store.write(crdResource, next), finished: false };
  }

  /** Namespaces go Terminating; the garbage collector empties and then removes them. */
  #deleteNamespace(old: KObject, opts: DeleteOptions): DeleteResult {
    const name = old.metadata.name ?? "";
    if (INITIAL_NAMESPACES.includes(name))
      throw forbidden(namespaceResource, name, "this namespace may not be deleted");
    if (old.metadata.deletionTimestamp || opts.dryRun) return { object: old, finished: false };
    const next = clone(old);
    next.metadata.deletionTimestamp = rfc3339(this.#now());
    next.status = { phase: "Terminating" };
    return { object: this.store.write(namespaceResource, next), finished: false };
  }
}
