/**
 * meta.k8s.io/v1 Table responses, what `kubectl get` asks for (Accept: …;as=Table). The server
 * renders the cells, so AGE arrives already humanized.
 */
import type { KObject } from "../object.ts";

export interface TableColumn {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: "Table";
  apiVersion: "meta.k8s.io/v1";
  metadata: { resourceVersion?: string };
  columnDefinitions: TableColumn[];
  rows: TableRow[];
}

/** `includeObject` query parameter: what each row carries besides its cells. */
export type IncludeObject = "None" | "Metadata" | "Object";

export interface TableRenderer {
  columns: TableColumn[];
  cells(obj: KObject, nowMs: number): unknown[];
}

export function column(
  name: string,
  type: TableColumn["type"],
  description: string,
  priority = 0,
  format = "",
): TableColumn {
  return { name, type, format, description, priority };
}

export const NAME_COLUMN = column(
  "Name",
  "string",
  "Name must be unique within a namespace.",
  0,
  "name",
);

const CREATED =
  "CreationTimestamp is a timestamp representing the server time when this object was created.";

/** Built-in kinds' Age column; a CRD's printer columns type it "date" (`ageColumn("date")`). */
export function ageColumn(type: TableColumn["type"] = "string"): TableColumn {
  return column("Age", type, CREATED);
}

export function rowObject(obj: KObject, include: IncludeObject): unknown {
  if (include === "None") return undefined;
  if (include === "Object") return obj;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: obj.metadata };
}

export function toTable(
  renderer: TableRenderer,
  objects: readonly KObject[],
  resourceVersion: string | undefined,
  include: IncludeObject,
  nowMs: number,
): Table {
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: resourceVersion ? { resourceVersion } : {},
    columnDefinitions: renderer.columns,
    rows: objects.map((o) => {
      const object = rowObject(o, include);
      return object === undefined
        ? { cells: renderer.cells(o, nowMs) }
        : { cells: renderer.cells(o, nowMs), object };
    }),
  };
}
