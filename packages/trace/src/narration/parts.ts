/**
 * The parts of a client-go controller a narration points at, in the order work flows through
 * them: the reflector/informer delivers watch events to the registered event handler, which adds
 * the key to the workqueue; a worker takes it, reads the lister and writes through the API.
 * "scenario" and "log" are not machinery: what the user (a scenario) did, and other log lines.
 */
export const PARTS = ["informer", "handler", "workqueue", "worker", "lister", "api"] as const;
export type MachineryPart = (typeof PARTS)[number];
export type NarrationPart = MachineryPart | "scenario" | "log";

export const PART_LABELS: Record<NarrationPart, string> = {
  informer: "reflector / informer",
  handler: "event handler",
  workqueue: "workqueue",
  worker: "worker",
  lister: "lister (cache)",
  api: "API write",
  scenario: "scenario",
  log: "controller log",
};
