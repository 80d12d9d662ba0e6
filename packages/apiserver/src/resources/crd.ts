/**
 * apiextensions.k8s.io/v1 CustomResourceDefinitions, stored so `kubectl apply -f crd.yaml`
 * succeeds. The Foo type is built in (its table; its schema is the CRD's) and served while its
 * CRD object exists and serves v1alpha1 (crd-serving.ts); deleting it deletes the Foos and takes
 * the Foo API away (crd-termination.ts). Other CRDs are accepted and reported Established but
 * not served.
 */
import { isPlainObject } from "../object.ts";
import { NAME_COLUMN, column } from "../table/table.ts";
import { specChanged, type ResourceDef } from "./resource.ts";

/**
 * spec.names as apiextensions' SetDefaults_CustomResourceDefinitionSpec completes them (singular:
 * the lowercased kind; listKind: kind + "List"); the naming controller accepts these, so
 * status.acceptedNames carries them too.
 */
function withDefaults(names: Record<string, unknown>): Record<string, unknown> {
  const kind = typeof names.kind === "string" ? names.kind : "";
  return {
    ...names,
    ...(!names.singular ? { singular: kind.toLowerCase() } : {}),
    ...(!names.listKind && kind ? { listKind: `${kind}List` } : {}),
  };
}

export const crdResource: ResourceDef = {
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  listKind: "CustomResourceDefinitionList",
  plural: "customresourcedefinitions",
  singular: "customresourcedefinition",
  namespaced: false,
  shortNames: ["crd", "crds"],
  categories: ["api-extensions"],
  status: "custom-resource",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  generationChanged: specChanged,
  applyDefaults(crd) {
    if (isPlainObject(crd.spec) && isPlainObject(crd.spec.names))
      crd.spec.names = withDefaults(crd.spec.names);
  },
  prepareForCreate(crd) {
    const spec = isPlainObject(crd.spec) ? crd.spec : {};
    const versions = Array.isArray(spec.versions) ? spec.versions : [];
    const storage = versions.find((v) => isPlainObject(v) && v.storage === true) as
      { name?: string } | undefined;
    const now = crd.metadata.creationTimestamp;
    crd.status = {
      acceptedNames: isPlainObject(spec.names) ? withDefaults(spec.names) : {},
      conditions: [
        {
          type: "NamesAccepted",
          status: "True",
          lastTransitionTime: now,
          reason: "NoConflicts",
          message: "no conflicts found",
        },
        {
          type: "Established",
          status: "True",
          lastTransitionTime: now,
          reason: "InitialNamesAccepted",
          message: "the initial names have been accepted",
        },
      ],
      storedVersions: storage?.name ? [storage.name] : [],
    };
  },
  table: {
    columns: [
      NAME_COLUMN,
      column(
        "Created At",
        "date",
        "CreationTimestamp is a timestamp representing the server time when this object was created.",
      ),
    ],
    cells: (crd) => [crd.metadata.name, crd.metadata.creationTimestamp],
  },
};
