/**
 * The line klog prints for each Kubernetes Event the controller records (client-go's event
 * broadcaster, `event.go`; our Foo controller prints the same line), in the two forms it has had:
 *
 *   StartStructuredLogging (sample-controller today):
 *     "Event occurred" object="default/example-foo" fieldPath="" kind="Foo"
 *       apiVersion="samplecontroller.k8s.io/v1alpha1" type="Warning" reason="ErrResourceExists"
 *       message="Resource \"example-foo\" already exists and is not managed by Foo"
 *   StartLogging(klog.Infof) (older releases):
 *     Event(v1.ObjectReference{Kind:"Foo", Namespace:"default", Name:"example-foo", UID:"…",
 *       APIVersion:"…", ResourceVersion:"…", FieldPath:""}): type: 'Warning'
 *       reason: 'ErrResourceExists' Resource "example-foo" already exists and is not managed by Foo
 *
 * An Event about a Foo is the controller telling of that Foo (a refused Deployment, a sync): its
 * note takes the key the reader gives the Foo's own lines, `ns/name`, and its level from the
 * Event's type — klog prints every Event at `I`, a Warning one included. Events about other kinds
 * (a Deployment's, a Lease's) name no Foo: `readEventLine` leaves them alone. Of client-go's own
 * lines (event.go, noise otherwise) only Warning ones are read (`saysWarning`): a Normal Event
 * (Synced, after every pass) says no more than the pass's end line does.
 */
import { sameSpan } from "./byte-span.ts";
import { pick, scanFields } from "./fields.ts";
import { readGoQuoted } from "./go-quote.ts";
import { kindOf } from "./spellings.ts";

export interface EventAbout {
  /** The Foo's key: `ns/name`, or `name` for one without a namespace. */
  key: string;
  /** From the Event's type: `W` for Warning, `I` for Normal; undefined for another type. */
  level: "I" | "W" | undefined;
}

const STRUCTURED = '"Event occurred"';
const LEGACY = "Event(";
const STRUCTURED_BYTES = new TextEncoder().encode(STRUCTURED);
const LEGACY_BYTES = new TextEncoder().encode(LEGACY);

/** Whether the message bytes[at, end) begins as an Event line does: the cheap test every line takes. */
export function mayBeEvent(bytes: Uint8Array, at: number, end: number): boolean {
  if (bytes[at] === 34)
    return (
      end - at >= STRUCTURED.length && sameSpan(bytes, at, STRUCTURED_BYTES, 0, STRUCTURED.length)
    );
  return end - at >= LEGACY.length && sameSpan(bytes, at, LEGACY_BYTES, 0, LEGACY.length);
}

const WARNING_BYTES = new TextEncoder().encode("Warning");

/** Whether the message bytes[at, end) holds "Warning": the cheap test before an Event is read. */
export function saysWarning(bytes: Uint8Array, at: number, end: number): boolean {
  for (let i = at; i + WARNING_BYTES.length <= end; i++) {
    if (bytes[i] === 87 && sameSpan(bytes, i, WARNING_BYTES, 0, WARNING_BYTES.length)) return true;
  }
  return false;
}

/** The Foo the Event line whose message is text[from, end) is about; undefined for anything else. */
export function readEventLine(text: string, from: number, end: number): EventAbout | undefined {
  const body = text.slice(from, end);
  return body.startsWith(STRUCTURED) ? structured(body) : legacy(body);
}

function structured(body: string): EventAbout | undefined {
  const f = scanFields(body);
  const object = pick(f, ["object"]);
  const kind = pick(f, ["kind"]);
  if (!object || kind === undefined || kindOf(kind) !== "Foo") return undefined;
  return { key: object, level: levelOf(pick(f, ["type"])) };
}

/** `Event(<pkg>.ObjectReference{Field:"value", …}): type: '<type>' …`, as Go's %#v prints it. */
function legacy(body: string): EventAbout | undefined {
  const open = body.indexOf("ObjectReference{");
  if (open < 0) return undefined;
  const fields = new Map<string, string>();
  let i = open + "ObjectReference{".length;
  while (i < body.length && body[i] !== "}") {
    const colon = body.indexOf(":", i);
    if (colon < 0 || body[colon + 1] !== '"') return undefined;
    const value = readGoQuoted(body, colon + 1);
    if (!value) return undefined;
    fields.set(body.slice(i, colon).trim(), value.value);
    i = value.end;
    if (body.startsWith(", ", i)) i += 2;
  }
  const kind = fields.get("Kind");
  const name = fields.get("Name");
  if (!name || kind === undefined || kindOf(kind) !== "Foo") return undefined;
  const ns = fields.get("Namespace");
  const type = /^\}\): type: '([^']*)'/.exec(body.slice(i));
  return { key: ns ? `${ns}/${name}` : name, level: levelOf(type?.[1]) };
}

function levelOf(type: string | undefined): EventAbout["level"] {
  return type === "Warning" ? "W" : type === "Normal" ? "I" : undefined;
}
