/**
 * Just enough Kubernetes protobuf to accept what kubectl's typed clients send that way:
 * `kubectl create namespace`, `kubectl create deployment`, `kubectl auth can-i` and `kubectl auth
 * whoami` POST typed objects as `application/vnd.kubernetes.protobuf` even to a JSON-only server.
 *
 * The envelope is the magic "k8s\0" + runtime.Unknown{typeMeta{apiVersion, kind}, raw}; `raw` is
 * the object. Messages are decoded with the field tables below (field numbers from k8s.io/api's
 * generated.proto). Go's protobuf encoder writes zero values of non-pointer fields, so a field
 * this decoder does not know is ignored when it holds a zero value (as JSON's omitempty would
 * drop it) and refused with 415 otherwise: nothing a client sent is silently lost.
 */
import { ApiError, badRequest, unsupportedMediaType } from "../errors.ts";
import type { KObject } from "../object.ts";

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** "int" drops a zero (an omitempty field); "int0" keeps it (a pointer such as replicas). */
type Kind =
  "string" | "int" | "int0" | "bool" | "map" | "skip" | Schema | { repeated: "string" | Schema };
interface Schema {
  [fieldNo: number]: [jsonName: string, kind: Kind];
}

const KEY_VALUE: Schema = { 1: ["key", "string"], 2: ["value", "string"] };
const OBJECT_META: Schema = {
  1: ["name", "string"],
  2: ["generateName", "string"],
  3: ["namespace", "string"],
  5: ["uid", "skip"],
  6: ["resourceVersion", "skip"],
  7: ["generation", "skip"],
  8: ["creationTimestamp", "skip"],
  11: ["labels", "map"],
  12: ["annotations", "map"],
  14: ["finalizers", { repeated: "string" }],
};
const LABEL_SELECTOR: Schema = { 1: ["matchLabels", "map"] };
const CONTAINER_PORT: Schema = {
  1: ["name", "string"],
  2: ["hostPort", "int"],
  3: ["containerPort", "int0"],
  4: ["protocol", "string"],
  5: ["hostIP", "string"],
};
const ENV_VAR: Schema = { 1: ["name", "string"], 2: ["value", "string"] };
const CONTAINER: Schema = {
  1: ["name", "string"],
  2: ["image", "string"],
  3: ["command", { repeated: "string" }],
  4: ["args", { repeated: "string" }],
  5: ["workingDir", "string"],
  6: ["ports", { repeated: CONTAINER_PORT }],
  7: ["env", { repeated: ENV_VAR }],
  8: ["resources", {}],
  13: ["terminationMessagePath", "string"],
  14: ["imagePullPolicy", "string"],
  20: ["terminationMessagePolicy", "string"],
};
const POD_SPEC: Schema = {
  2: ["containers", { repeated: CONTAINER }],
  3: ["restartPolicy", "string"],
  4: ["terminationGracePeriodSeconds", "int"],
  6: ["dnsPolicy", "string"],
  8: ["serviceAccountName", "string"],
  19: ["schedulerName", "string"],
};
const POD_TEMPLATE_SPEC: Schema = { 1: ["metadata", OBJECT_META], 2: ["spec", POD_SPEC] };
const DEPLOYMENT_STRATEGY: Schema = { 1: ["type", "string"] };
const DEPLOYMENT_SPEC: Schema = {
  1: ["replicas", "int0"],
  2: ["selector", LABEL_SELECTOR],
  3: ["template", POD_TEMPLATE_SPEC],
  4: ["strategy", DEPLOYMENT_STRATEGY],
  5: ["minReadySeconds", "int"],
  6: ["revisionHistoryLimit", "int"],
  7: ["paused", "bool"],
  9: ["progressDeadlineSeconds", "int"],
};
/** authorization/v1: what `kubectl auth can-i` (and `--list`) create. */
const RESOURCE_ATTRIBUTES: Schema = {
  1: ["namespace", "string"],
  2: ["verb", "string"],
  3: ["group", "string"],
  4: ["version", "string"],
  5: ["resource", "string"],
  6: ["subresource", "string"],
  7: ["name", "string"],
};
const NON_RESOURCE_ATTRIBUTES: Schema = { 1: ["path", "string"], 2: ["verb", "string"] };
const ACCESS_REVIEW_SPEC: Schema = {
  1: ["resourceAttributes", RESOURCE_ATTRIBUTES],
  2: ["nonResourceAttributes", NON_RESOURCE_ATTRIBUTES],
};
/** Top-level schemas by apiVersion/kind; status (field 3) is server-owned on create. */
const OBJECTS: Record<string, Schema> = {
  "v1/Namespace": { 1: ["metadata", OBJECT_META], 2: ["spec", "skip"], 3: ["status", "skip"] },
  "apps/v1/Deployment": {
    1: ["metadata", OBJECT_META],
    2: ["spec", DEPLOYMENT_SPEC],
    3: ["status", "skip"],
  },
  "authorization.k8s.io/v1/SelfSubjectAccessReview": {
    1: ["metadata", OBJECT_META],
    2: ["spec", ACCESS_REVIEW_SPEC],
    3: ["status", "skip"],
  },
  // `kubectl auth whoami`: no spec; status (field 2) is the server's answer.
  "authentication.k8s.io/v1/SelfSubjectReview": {
    1: ["metadata", OBJECT_META],
    2: ["status", "skip"],
  },
  "authorization.k8s.io/v1/SelfSubjectRulesReview": {
    1: ["metadata", OBJECT_META],
    2: ["spec", { 1: ["namespace", "string"] }],
    3: ["status", "skip"],
  },
};

type Field = { no: number; value: number | Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let pos = 0;
  const varint = (): number => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw badRequest("truncated protobuf body");
      const b = buf[pos++];
      result |= BigInt(b & 0x7f) << shift;
      // Go writes a negative int32 or int64 as the ten-byte varint of its 64-bit two's
      // complement: -1 read as an unsigned number was 2^64 replicas.
      if ((b & 0x80) === 0) return Number(BigInt.asIntN(64, result));
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) yield { no, value: varint() };
    else if (wire === 2) {
      const len = varint();
      if (pos + len > buf.length) throw badRequest("truncated protobuf body");
      yield { no, value: buf.subarray(pos, pos + len) };
      pos += len;
    } else throw badRequest(`unsupported protobuf wire type ${wire}`);
  }
}

/** Zero values are what Go writes for unset non-pointer fields. */
function isZero(f: Field): boolean {
  return typeof f.value === "number" ? f.value === 0 : f.value.length === 0;
}

function unsupported(why: string): ApiError {
  const accepted = unsupportedMediaType(["application/json"]).message;
  return new ApiError(
    415,
    "UnsupportedMediaType",
    `${why}; send JSON instead (kubectl apply -f / create -f): ${accepted}`,
  );
}

function refuse(path: string): never {
  throw unsupported(`the protobuf body sets ${path}, which this server cannot decode`);
}

function decodeMessage(buf: Buffer, schema: Schema, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields(buf)) {
    const spec = schema[f.no];
    if (!spec) {
      if (!isZero(f)) refuse(`${path}field #${f.no}`);
      continue;
    }
    const [name, kind] = spec;
    if (kind === "skip") continue;
    const value = decodeValue(f, kind, `${path}${name}.`);
    if (value === undefined) continue;
    if (kind === "map") out[name] = { ...(out[name] as object | undefined), ...(value as object) };
    else if (typeof kind === "object" && "repeated" in kind)
      out[name] = [...((out[name] as unknown[] | undefined) ?? []), value];
    else out[name] = value;
  }
  return out;
}

function decodeValue(f: Field, kind: Kind, path: string): unknown {
  const bytes = (): Buffer => {
    if (!Buffer.isBuffer(f.value))
      throw badRequest(`protobuf field ${path} has the wrong wire type`);
    return f.value;
  };
  if (kind === "int" || kind === "int0") {
    if (typeof f.value !== "number") badRequestOf(path);
    return f.value === 0 && kind === "int" ? undefined : f.value;
  }
  if (kind === "bool") return f.value === 1 ? true : undefined;
  if (kind === "string") {
    const s = bytes().toString("utf8");
    return s === "" ? undefined : s;
  }
  if (kind === "map") {
    const entry = decodeMessage(bytes(), KEY_VALUE, path);
    return { [String(entry.key ?? "")]: String(entry.value ?? "") };
  }
  if (typeof kind === "object" && "repeated" in kind) {
    const item = kind.repeated;
    return item === "string" ? bytes().toString("utf8") : decodeMessage(bytes(), item, path);
  }
  return decodeMessage(bytes(), kind as Schema, path);
}

function badRequestOf(path: string): never {
  throw badRequest(`protobuf field ${path} has the wrong wire type`);
}

/** Decodes a protobuf-encoded object of a kind in OBJECTS; anything else is refused with 415. */
export function decodeProtobufObject(body: Buffer): KObject {
  if (!body.subarray(0, 4).equals(MAGIC))
    throw badRequest("protobuf body without the k8s envelope");
  let apiVersion = "";
  let kind = "";
  let raw: Buffer | undefined;
  for (const f of fields(body.subarray(4))) {
    if (f.no === 1 && Buffer.isBuffer(f.value)) {
      for (const t of fields(f.value)) {
        if (t.no === 1 && Buffer.isBuffer(t.value)) apiVersion = t.value.toString("utf8");
        if (t.no === 2 && Buffer.isBuffer(t.value)) kind = t.value.toString("utf8");
      }
    }
    if (f.no === 2 && Buffer.isBuffer(f.value)) raw = f.value;
  }
  const schema = OBJECTS[`${apiVersion}/${kind}`];
  if (!schema || !raw)
    throw unsupported(`protobuf ${apiVersion}/${kind} is not decoded by this server`);
  const obj = decodeMessage(raw, schema, "");
  return { apiVersion, kind, ...obj, metadata: (obj.metadata as KObject["metadata"]) ?? {} };
}
