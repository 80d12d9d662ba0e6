/**
 * The Go types of a Deployment's selector and pod template fields that manifests commonly set
 * (k8s.io/api core/v1 and meta/v1), for go-json-types.ts: a YAML `name: Y` that became `true`,
 * `args: "x"` or `containerPort: "80"` is a 400 as on a cluster, not an object stored that
 * kubectl then cannot decode. Fields not listed are not type-checked here.
 */
import {
  goAny,
  goBool,
  goInt32,
  goInt64,
  goMap,
  goSlice,
  goString,
  goStruct,
  type GoType,
} from "./go-json-types.ts";

const stringMap = goMap(goString());
const stringList = goSlice(goString());

const OWNER_REFERENCE = goStruct("OwnerReference", {
  apiVersion: goString(),
  kind: goString(),
  name: goString(),
  uid: goString("types.UID"),
  controller: goBool,
  blockOwnerDeletion: goBool,
});

const OBJECT_META = goStruct("ObjectMeta", {
  name: goString(),
  generateName: goString(),
  namespace: goString(),
  uid: goString("types.UID"),
  resourceVersion: goString(),
  generation: goInt64,
  labels: stringMap,
  annotations: stringMap,
  finalizers: stringList,
  ownerReferences: goSlice(OWNER_REFERENCE),
});

const CONTAINER = goStruct("Container", {
  name: goString(),
  image: goString(),
  command: stringList,
  args: stringList,
  workingDir: goString(),
  ports: goSlice(
    goStruct("ContainerPort", {
      name: goString(),
      hostPort: goInt32,
      containerPort: goInt32,
      protocol: goString("v1.Protocol"),
      hostIP: goString(),
    }),
  ),
  env: goSlice(
    goStruct("EnvVar", {
      name: goString(),
      value: goString(),
      valueFrom: goStruct("EnvVarSource"),
    }),
  ),
  resources: goStruct("ResourceRequirements", {
    // Quantities are their own decoder's business (a string or a number).
    limits: goMap(goAny, "v1.ResourceList"),
    requests: goMap(goAny, "v1.ResourceList"),
  }),
  volumeMounts: goSlice(
    goStruct("VolumeMount", {
      name: goString(),
      readOnly: goBool,
      mountPath: goString(),
      subPath: goString(),
    }),
  ),
  imagePullPolicy: goString("v1.PullPolicy"),
});

const POD_SPEC = goStruct("PodSpec", {
  volumes: goSlice(goStruct("Volume")),
  initContainers: goSlice(CONTAINER),
  containers: goSlice(CONTAINER),
  restartPolicy: goString("v1.RestartPolicy"),
  terminationGracePeriodSeconds: goInt64,
  nodeSelector: stringMap,
  serviceAccountName: goString(),
});

/** DeploymentSpec's struct fields (its int32 and strategy fields are checked in decode.ts). */
export const DEPLOYMENT_SPEC_FIELDS: GoType = goStruct("DeploymentSpec", {
  selector: goStruct("LabelSelector", {
    matchLabels: stringMap,
    matchExpressions: goSlice(
      goStruct("LabelSelectorRequirement", {
        key: goString(),
        operator: goString("v1.LabelSelectorOperator"),
        values: stringList,
      }),
    ),
  }),
  template: goStruct("PodTemplateSpec", { metadata: OBJECT_META, spec: POD_SPEC }),
});
