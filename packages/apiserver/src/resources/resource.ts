/**
 * A served resource type and its strategy: the per-type rules (defaults, validation, what bumps
 * generation, which subresources exist) that the generic registry applies. Mirrors the role of a
 * kube-apiserver REST strategy.
 */
import type { FieldError } from "../errors.ts";
import { deepEqual, type KObject } from "../object.ts";
import type { TableColumn } from "../table/table.ts";
import type { FieldTree } from "./known-fields.ts";

export type StatusSplit =
  /** The main resource ignores status; /status changes only status (CRs with the subresource). */
  | "custom-resource"
  /** Like custom-resource, but /status may also change metadata other than labels (apps/v1 Deployment). */
  | "builtin"
  /** No status subresource. */
  | "none";

export interface ResourceDef {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  status: StatusSplit;
  scale: boolean;
  /** Built-in (compiled-in) types accept strategic merge patch and omit apiVersion/kind on list items. */
  builtIn: boolean;
  /** PUT without metadata.resourceVersion is allowed (false for CRs: 422). */
  unconditionalUpdate: boolean;
  /**
   * Clients may only get, list and watch: the objects are the server's own simulation (pods of
   * the simulated Deployments, the `kubernetes` Service). Writes answer 405.
   */
  readOnly?: boolean;
  /**
   * A review (authorization.k8s.io's access reviews): POST is the only verb, answered 201 with
   * what this returns for the decoded body; nothing is stored, so get/list/watch have nothing to
   * show. Throws ApiError for a body it refuses.
   */
  review?(obj: KObject): KObject;
  /** Whether an update from old to next bumps metadata.generation; absent: no generation field. */
  generationChanged?(old: KObject, next: KObject): boolean;
  /** Fills defaults in place (create and update). */
  applyDefaults?(obj: KObject): void;
  /** Resets what a create may not set (status for most types). */
  prepareForCreate?(obj: KObject): void;
  /**
   * The fields a built-in type declares, checked as its Go struct decodes them (known-fields.ts);
   * absent: metadata only.
   */
  fields?: FieldTree;
  /** Validates a pruned object. Returns field errors for a 422; throws ApiError for anything else. */
  validate?(obj: KObject): FieldError[];
  /** What an update may not change (apps/v1's spec.selector): field errors for a 422. */
  validateUpdate?(old: KObject, next: KObject): FieldError[];
  /**
   * Why `name` cannot name one (the text after `Invalid value: "name": `); absent: names are
   * DNS-1123 subdomains, as for most types.
   */
  nameProblem?(name: string): string | undefined;
  table: {
    columns: TableColumn[];
    cells(obj: KObject, nowMs: number): unknown[];
  };
}

export function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** The "Kind.group" form 422 messages start with ("Foo.samplecontroller.k8s.io", "Namespace"). */
export function kindName(def: ResourceDef): string {
  return def.group ? `${def.kind}.${def.group}` : def.kind;
}

export function specChanged(old: KObject, next: KObject): boolean {
  return !deepEqual(old.spec, next.spec);
}
