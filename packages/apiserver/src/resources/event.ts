/**
 * core/v1 Events: what a controller's event recorder writes (Synced, ErrResourceExists). Stored
 * as given; no status, no generation.
 */
import { NAME_COLUMN, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import type { KObject } from "../object.ts";
import type { SelectableField } from "../selectors.ts";
import type { ResourceDef } from "./resource.ts";

interface EventFields {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  firstTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string };
  source?: { component?: string };
}

function lastSeen(e: KObject & EventFields): string | undefined {
  return e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;
}

export const eventResource: ResourceDef = {
  group: "",
  version: "v1",
  kind: "Event",
  listKind: "EventList",
  plural: "events",
  singular: "event",
  namespaced: true,
  shortNames: ["ev"],
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  table: {
    columns: [
      column("Last Seen", "string", "Time when last this event was observed."),
      column(
        "Type",
        "string",
        "Type of this event (Normal, Warning), new types could be added in the future.",
      ),
      column(
        "Reason",
        "string",
        "This should be a short, machine understandable string that gives the reason for this event being generated.",
      ),
      column("Object", "string", "The object this Event is about."),
      column("Message", "string", "A human-readable description of the status of this operation."),
      column("First Seen", "string", "The time at which the event was first recorded.", 1),
      column("Count", "integer", "The number of times this event has occurred.", 1),
      { ...NAME_COLUMN, priority: 1 },
    ],
    cells(obj, now) {
      const e = obj as KObject & EventFields;
      const io = e.involvedObject ?? {};
      return [
        age(lastSeen(e), now),
        e.type ?? "",
        e.reason ?? "",
        `${(io.kind ?? "").toLowerCase()}/${io.name ?? ""}`,
        e.message ?? "",
        age(e.firstTimestamp ?? lastSeen(e), now),
        e.count ?? 1,
        e.metadata.name,
      ];
    },
  },
};

/** Fields `kubectl describe` and event sinks select events by, besides metadata.name/namespace. */
export const EVENT_FIELD_SELECTORS: readonly SelectableField[] = [
  "involvedObject.kind",
  "involvedObject.namespace",
  "involvedObject.name",
  "involvedObject.uid",
  "involvedObject.apiVersion",
  "involvedObject.resourceVersion",
  "involvedObject.fieldPath",
  "reason",
  "reportingComponent",
  // The core/v1 source's component, else the reporting controller (the events.k8s.io writer's).
  { label: "source", firstOf: ["source.component", "reportingComponent"] },
  "type",
];
