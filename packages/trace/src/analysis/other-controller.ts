/**
 * The note a controller leaves in its trace when another controller records Events about the
 * same Foos (packages/controller's other-controllers.ts): that controller's writes reach this one
 * as anyone else's, so its passes show as external and the self/external picture is wrong. The
 * note's text is written here and read here (the Analyzer's `other-controller` finding), in a
 * JSONL trace and in a klog log alike.
 */

const LEAD = "another controller is also reconciling Foos on this cluster: ";

export interface OtherController {
  /** Its instance (an Event's source.host or reportingInstance), else its component. */
  name: string;
  /** The Event's reason ("Synced"). */
  reason: string;
  /** The Foo the Event is about, namespace/name. */
  key: string;
  /** When the Event says it happened, by the other's clock, to the second; "" if it does not say. */
  at: string;
}

export function otherControllerNote(o: OtherController): string {
  const at = o.at ? ` at ${o.at}` : "";
  return `${LEAD}${o.name} (Event ${o.reason} on ${o.key}${at}). Passes it causes show as external; stop it for a true picture.`;
}

/** The other controller's name if `text` is such a note (a klog line's pairs may follow it). */
export function otherControllerIn(text: string): string | undefined {
  if (!text.startsWith(LEAD)) return undefined;
  const end = text.indexOf(" (Event ", LEAD.length);
  return end < 0 ? undefined : text.slice(LEAD.length, end);
}
