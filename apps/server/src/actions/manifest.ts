/**
 * Reads a user's YAML manifest (one or more documents) into the objects `applyManifest`
 * creates. Only Foo and Deployment are accepted — the two kinds this controller is about —
 * and every document is checked before anything is sent, so a bad third document does not
 * leave the first two applied.
 */
import { parseAllDocuments } from "yaml";
import { HttpError } from "../http/respond.ts";

export interface ManifestObject {
  kind: "Foo" | "Deployment";
  namespace: string;
  name: string;
  body: Record<string, unknown>;
}

/** kind → apiVersion. A Map: `kind: constructor` must not find Object.prototype's member. */
const ACCEPTED = new Map<string, string>([
  ["Foo", "samplecontroller.k8s.io/v1alpha1"],
  ["Deployment", "apps/v1"],
]);
const DNS_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function parseManifest(text: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new HttpError(400, "not a YAML stream");
  docs.forEach((doc, i) => {
    const where = `document ${i + 1}`;
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0].line;
      throw new HttpError(
        400,
        `${where}${line ? `, line ${line}` : ""}: ${error.message.split("\n")[0]}`,
      );
    }
    let body: unknown;
    try {
      body = doc.toJS();
    } catch (err) {
      // The yaml library refuses to expand too many aliases ("Excessive alias count indicates a
      // resource exhaustion attack"): a billion-laughs bomb is bad input, said as such.
      throw new HttpError(400, `${where}: ${(err as Error).message}`);
    }
    if (body === null || body === undefined) return;
    if (typeof body !== "object" || Array.isArray(body)) {
      throw new HttpError(400, `${where}: not a Kubernetes object`);
    }
    const o = body as Record<string, unknown> & {
      metadata?: { name?: unknown; namespace?: unknown };
    };
    const kind = String(o.kind);
    const apiVersion = ACCEPTED.get(kind);
    if (apiVersion === undefined) {
      throw new HttpError(400, `${where}: kind ${kind} not supported (Foo and Deployment only)`);
    }
    if (o.apiVersion !== apiVersion) {
      throw new HttpError(400, `${where}: ${kind} needs apiVersion ${apiVersion}`);
    }
    const name = o.metadata?.name;
    const namespace = o.metadata?.namespace ?? "default";
    if (typeof name !== "string" || !DNS_NAME.test(name)) {
      throw new HttpError(400, `${where}: metadata.name missing or not a DNS name`);
    }
    if (typeof namespace !== "string" || !DNS_NAME.test(namespace)) {
      throw new HttpError(400, `${where}: metadata.namespace is not a DNS name`);
    }
    out.push({ kind: kind as ManifestObject["kind"], namespace, name, body: o });
  });
  if (out.length === 0) throw new HttpError(400, "the manifest holds no objects");
  return out;
}
