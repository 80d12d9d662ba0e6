/**
 * Just enough Kubernetes protobuf to accept what kubectl sends that way: `kubectl create
 * namespace` POSTs a core/v1 Namespace as `application/vnd.kubernetes.protobuf` even to a JSON
 * server. The envelope is the magic "k8s\0" + runtime.Unknown{typeMeta, raw}; `raw` is the
 * object, whose field 1 is ObjectMeta. Only ObjectMeta's name, generateName, namespace, labels
 * and annotations are decoded; a Namespace's spec/status are filled by the server anyway.
 */
import { badRequest, unsupportedMediaType } from "../errors.ts";
import type { KObject } from "../object.ts";

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Field = { no: number; wire: number; value: number | Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= buf.length) throw badRequest("truncated protobuf body");
      const b = buf[pos++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) yield { no, wire, value: varint() };
    else if (wire === 2) {
      const len = varint();
      yield { no, wire, value: buf.subarray(pos, pos + len) };
      pos += len;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw badRequest("unsupported protobuf wire type");
  }
}

function mapEntry(buf: Buffer): [string, string] {
  let key = "";
  let value = "";
  for (const f of fields(buf)) {
    if (f.no === 1 && Buffer.isBuffer(f.value)) key = f.value.toString("utf8");
    if (f.no === 2 && Buffer.isBuffer(f.value)) value = f.value.toString("utf8");
  }
  return [key, value];
}

function objectMeta(buf: Buffer): KObject["metadata"] {
  const meta: KObject["metadata"] = {};
  for (const f of fields(buf)) {
    if (!Buffer.isBuffer(f.value) || f.value.length === 0) continue;
    if (f.no === 1) meta.name = f.value.toString("utf8");
    if (f.no === 2) meta.generateName = f.value.toString("utf8");
    if (f.no === 3) meta.namespace = f.value.toString("utf8");
    if (f.no === 11)
      meta.labels = Object.assign(meta.labels ?? {}, Object.fromEntries([mapEntry(f.value)]));
    if (f.no === 12)
      meta.annotations = Object.assign(
        meta.annotations ?? {},
        Object.fromEntries([mapEntry(f.value)]),
      );
  }
  return meta;
}

/** Decodes a protobuf-encoded Namespace; any other kind is refused with 415 (send JSON). */
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
  if (apiVersion !== "v1" || kind !== "Namespace" || !raw) {
    throw unsupportedMediaType(["application/json"]);
  }
  let metadata: KObject["metadata"] = {};
  for (const f of fields(raw))
    if (f.no === 1 && Buffer.isBuffer(f.value)) metadata = objectMeta(f.value);
  return { apiVersion, kind, metadata };
}
