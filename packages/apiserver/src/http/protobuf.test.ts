/** The protobuf subset kubectl's generators send: decoded when known, refused (415) when not. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { decodeProtobufObject } from "./protobuf.ts";

function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}
const bytes = (no: number, payload: number[] | string) => {
  const p = typeof payload === "string" ? [...Buffer.from(payload)] : payload;
  return [...varint(no * 8 + 2), ...varint(p.length), ...p];
};
const int = (no: number, v: number) => [...varint(no * 8), ...varint(v)];
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  Buffer.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]),
    ...bytes(2, raw),
  ]);

describe("protobuf bodies", () => {
  it("decode a Namespace's metadata, dropping zero values", () => {
    const meta = [
      ...bytes(1, "demo"),
      ...bytes(2, ""),
      ...bytes(11, [...bytes(1, "team"), ...bytes(2, "a")]),
    ];
    const obj = decodeProtobufObject(
      envelope("v1", "Namespace", [...bytes(1, meta), ...bytes(2, []), ...bytes(3, [])]),
    );
    expect(obj).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "demo", labels: { team: "a" } },
    });
  });

  it("keep replicas 0 on a Deployment", () => {
    const obj = decodeProtobufObject(
      envelope("apps/v1", "Deployment", [...bytes(1, bytes(1, "d")), ...bytes(2, int(1, 0))]),
    );
    expect(obj.spec).toEqual({ replicas: 0 });
  });

  it("read a negative number as Go wrote it, not as 2^64 (kubectl create deployment --replicas=-1)", () => {
    // Go's varint of int32 -1: ten bytes of its 64-bit two's complement.
    const minusOne = [...varint(1 * 8), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    const obj = decodeProtobufObject(
      envelope("apps/v1", "Deployment", [...bytes(1, bytes(1, "d")), ...bytes(2, minusOne)]),
    );
    expect(obj.spec).toEqual({ replicas: -1 });
  });

  it("refuse a field it cannot decode rather than lose it", () => {
    const spec = [...int(1, 1), ...int(42, 7)];
    const decode = () =>
      decodeProtobufObject(
        envelope("apps/v1", "Deployment", [...bytes(1, bytes(1, "d")), ...bytes(2, spec)]),
      );
    expect(decode).toThrow(ApiError);
    expect(decode).toThrow(/spec\.field #42/);
    expect(() => decodeProtobufObject(envelope("v1", "Pod", []))).toThrow(
      /not decoded by this server/,
    );
  });
});
