/**
 * apps/v1 Deployments: defaults of pkg/apis/apps/v1/defaults.go plus the core/v1 pod defaults
 * (a controller that deep-compares desired and stored specs must see them, as on a cluster),
 * generation bumps on spec or annotation changes (apps deployment strategy), /status and /scale.
 */
import type { FieldError } from "../errors.ts";
import { deepEqual, isPlainObject, type KObject } from "../object.ts";
import { formatLabelSelector } from "../selectors.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { POD_TEMPLATE_COLUMNS, podTemplateCells } from "./pod-template-columns.ts";
import { validateDeploymentStrategy } from "./deployment-strategy.ts";
import { ANY, OBJECT_META, type FieldTree } from "./known-fields.ts";
import type { ResourceDef } from "./resource.ts";

type Obj = Record<string, unknown>;

function obj(parent: Obj, key: string): Obj {
  if (!isPlainObject(parent[key])) parent[key] = {};
  return parent[key] as Obj;
}

function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** `Always` for `:latest` or untagged images, else `IfNotPresent` (core/v1 SetDefaults_Container). */
export function defaultPullPolicy(image: string): string {
  const lastSegment = image.split("/").pop() ?? image;
  if (image.includes("@")) return "IfNotPresent";
  const tag = lastSegment.includes(":") ? lastSegment.split(":").pop() : undefined;
  return !tag || tag === "latest" ? "Always" : "IfNotPresent";
}

function defaultContainers(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (!isPlainObject(c)) continue;
    setDefault(c, "terminationMessagePath", "/dev/termination-log");
    setDefault(c, "terminationMessagePolicy", "File");
    if (typeof c.image === "string") setDefault(c, "imagePullPolicy", defaultPullPolicy(c.image));
    setDefault(c, "resources", {});
    if (Array.isArray(c.ports)) {
      for (const p of c.ports) if (isPlainObject(p)) setDefault(p, "protocol", "TCP");
    }
  }
}

export function applyDeploymentDefaults(d: KObject): void {
  const spec = obj(d, "spec");
  setDefault(spec, "replicas", 1);
  const strategy = obj(spec, "strategy");
  // SetDefaults_Deployment tests `Type == ""`: an empty type is a missing one.
  if (strategy.type === "") delete strategy.type;
  setDefault(strategy, "type", "RollingUpdate");
  if (strategy.type === "RollingUpdate") {
    const ru = obj(strategy, "rollingUpdate");
    setDefault(ru, "maxUnavailable", "25%");
    setDefault(ru, "maxSurge", "25%");
  }
  setDefault(spec, "revisionHistoryLimit", 10);
  setDefault(spec, "progressDeadlineSeconds", 600);
  const podSpec = obj(obj(spec, "template"), "spec");
  setDefault(podSpec, "restartPolicy", "Always");
  setDefault(podSpec, "terminationGracePeriodSeconds", 30);
  setDefault(podSpec, "dnsPolicy", "ClusterFirst");
  setDefault(podSpec, "securityContext", {});
  setDefault(podSpec, "schedulerName", "default-scheduler");
  defaultContainers(podSpec.containers);
  defaultContainers(podSpec.initContainers);
}

function validateDeployment(d: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isPlainObject(d.spec) ? d.spec : {};
  const replicas = spec.replicas;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 0) {
    errs.push({
      reason: "FieldValueInvalid",
      field: "spec.replicas",
      detail: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
    });
  }
  const selector = isPlainObject(spec.selector) ? spec.selector : undefined;
  const matchLabels =
    selector && isPlainObject(selector.matchLabels)
      ? (selector.matchLabels as Record<string, string>)
      : {};
  if (!selector) {
    errs.push({ reason: "FieldValueRequired", field: "spec.selector", detail: "Required value" });
  } else if (
    Object.keys(matchLabels).length + ((selector.matchExpressions as unknown[]) ?? []).length ===
    0
  ) {
    // It would select every pod in the namespace.
    errs.push({
      reason: "FieldValueInvalid",
      field: "spec.selector",
      detail: `Invalid value: ${goLabelSelector(selector)}: empty selector is invalid for deployment`,
    });
  }
  const template = isPlainObject(spec.template) ? spec.template : {};
  const tmeta = isPlainObject(template.metadata) ? template.metadata : {};
  const labels = (isPlainObject(tmeta.labels) ? tmeta.labels : {}) as Record<string, string>;
  if (selector && Object.entries(matchLabels).some(([k, v]) => labels[k] !== v)) {
    errs.push({
      reason: "FieldValueInvalid",
      field: "spec.template.metadata.labels",
      detail: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``,
    });
  }
  const podSpec = isPlainObject(template.spec) ? template.spec : {};
  const containers = Array.isArray(podSpec.containers) ? podSpec.containers : [];
  if (containers.length === 0) {
    errs.push({
      reason: "FieldValueRequired",
      field: "spec.template.spec.containers",
      detail: "Required value",
    });
  }
  containers.forEach((c, i) => {
    const base = `spec.template.spec.containers[${i}]`;
    if (!isPlainObject(c) || typeof c.name !== "string" || c.name === "") {
      errs.push({ reason: "FieldValueRequired", field: `${base}.name`, detail: "Required value" });
    }
    if (!isPlainObject(c) || typeof c.image !== "string" || c.image === "") {
      errs.push({ reason: "FieldValueRequired", field: `${base}.image`, detail: "Required value" });
    }
  });
  // After the template, as ValidateDeploymentSpec orders them.
  errs.push(...validateDeploymentStrategy(spec.strategy));
  errs.push(...validateDeploymentTiming(spec));
  return errs;
}

/**
 * ValidateDeploymentSpec's last checks: minReadySeconds, revisionHistoryLimit and
 * progressDeadlineSeconds are not negative, and the deadline (600 unless given) is longer than
 * minReadySeconds — a `minReadySeconds: 700` alone is refused on a cluster for it. Each is an
 * int32 here: the decoder refused anything else (a 400).
 */
function validateDeploymentTiming(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const nonNegative = (field: string, v: unknown) => {
    if (typeof v === "number" && v < 0)
      errs.push({
        reason: "FieldValueInvalid",
        field,
        detail: `Invalid value: ${v}: must be greater than or equal to 0`,
      });
  };
  const minReady = typeof spec.minReadySeconds === "number" ? spec.minReadySeconds : 0;
  nonNegative("spec.minReadySeconds", spec.minReadySeconds);
  nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit);
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === "number") {
    nonNegative("spec.progressDeadlineSeconds", deadline);
    if (deadline <= minReady)
      errs.push({
        reason: "FieldValueInvalid",
        field: "spec.progressDeadlineSeconds",
        detail: `Invalid value: ${deadline}: must be greater than minReadySeconds`,
      });
  }
  return errs;
}

/**
 * apps/v1 keeps a Deployment's selector for life: its ReplicaSets and pods were chosen by it
 * (ValidateDeploymentUpdate). The 422 shows the selector in Go's %#v, as a cluster prints it.
 */
function validateDeploymentUpdate(old: KObject, next: KObject): FieldError[] {
  const selectorOf = (d: KObject) => (isPlainObject(d.spec) ? d.spec.selector : undefined);
  if (deepEqual(selectorOf(old), selectorOf(next))) return [];
  return [
    {
      reason: "FieldValueInvalid",
      field: "spec.selector",
      detail: `Invalid value: ${goLabelSelector(selectorOf(next))}: field is immutable`,
    },
  ];
}

/** A metav1.LabelSelector as Go's %#v prints it (what a cluster's immutability 422 shows). */
function goLabelSelector(selector: unknown): string {
  if (!isPlainObject(selector)) return "(*v1.LabelSelector)(nil)";
  const labels = isPlainObject(selector.matchLabels) ? selector.matchLabels : undefined;
  const map = labels
    ? `map[string]string{${Object.keys(labels)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(labels[k]))}`)
        .join(", ")}}`
    : "map[string]string(nil)";
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : undefined;
  const list = exprs
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map((e) => {
          const r = isPlainObject(e) ? e : {};
          const values = Array.isArray(r.values)
            ? `[]string{${r.values.map((v) => JSON.stringify(String(v))).join(", ")}}`
            : "[]string(nil)";
          return `v1.LabelSelectorRequirement{Key:${JSON.stringify(String(r.key ?? ""))}, Operator:${JSON.stringify(String(r.operator ?? ""))}, Values:${values}}`;
        })
        .join(", ")}}`
    : "[]v1.LabelSelectorRequirement(nil)";
  return `v1.LabelSelector{MatchLabels:${map}, MatchExpressions:${list}}`;
}

/** metav1.LabelSelector. */
const LABEL_SELECTOR: FieldTree = {
  matchLabels: ANY,
  matchExpressions: { key: ANY, operator: ANY, values: ANY },
};

/**
 * apps/v1 Deployment's fields, checked down to DeploymentSpec and the Pod template's metadata;
 * the Pod spec and status are accepted as sent.
 */
const DEPLOYMENT_FIELDS: FieldTree = {
  apiVersion: ANY,
  kind: ANY,
  metadata: OBJECT_META,
  spec: {
    replicas: ANY,
    selector: LABEL_SELECTOR,
    template: { metadata: OBJECT_META, spec: ANY },
    strategy: { type: ANY, rollingUpdate: { maxUnavailable: ANY, maxSurge: ANY } },
    minReadySeconds: ANY,
    revisionHistoryLimit: ANY,
    paused: ANY,
    progressDeadlineSeconds: ANY,
  },
  status: ANY,
};

export function deploymentSelector(d: KObject): string {
  const spec = (d.spec ?? {}) as Obj;
  return formatLabelSelector(spec.selector);
}

export const deploymentResource: ResourceDef = {
  group: "apps",
  version: "v1",
  kind: "Deployment",
  listKind: "DeploymentList",
  plural: "deployments",
  singular: "deployment",
  namespaced: true,
  shortNames: ["deploy"],
  categories: ["all"],
  status: "builtin",
  scale: true,
  builtIn: true,
  unconditionalUpdate: true,
  generationChanged: (old, next) =>
    !deepEqual(old.spec, next.spec) ||
    !deepEqual(old.metadata.annotations ?? {}, next.metadata.annotations ?? {}),
  fields: DEPLOYMENT_FIELDS,
  applyDefaults: applyDeploymentDefaults,
  prepareForCreate(d) {
    d.status = {};
  },
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  table: {
    columns: [
      NAME_COLUMN,
      column("Ready", "string", "Number of the pod with ready state"),
      column(
        "Up-to-date",
        "integer",
        "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
      ),
      column(
        "Available",
        "integer",
        "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
      ),
      ageColumn(),
      ...POD_TEMPLATE_COLUMNS,
      column(
        "Selector",
        "string",
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
        1,
      ),
    ],
    cells(d, now) {
      const spec = (d.spec ?? {}) as Obj;
      const status = (d.status ?? {}) as Obj;
      const n = (v: unknown) => (typeof v === "number" ? v : 0);
      return [
        d.metadata.name,
        `${n(status.readyReplicas)}/${n(spec.replicas)}`,
        n(status.updatedReplicas),
        n(status.availableReplicas),
        age(d.metadata.creationTimestamp, now),
        ...podTemplateCells(d),
        deploymentSelector(d),
      ];
    },
  },
};
