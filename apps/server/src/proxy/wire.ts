/**
 * What the proxy saw on the wire, as plain values: the input of the WireTracer. The proxy server
 * builds these from the bodies it forwards (JSON only; see object-meta.ts), the tracer turns them
 * into trace events. Times are µs since the Unix epoch, taken when the bytes passed the proxy.
 */
import type { ApiRequest } from "./api-path.ts";

/** A controller owner reference (`controller: true`): who the object belongs to. */
export interface OwnerRef {
  /** API group of the owner ("" for core), from its apiVersion. */
  group: string;
  kind: string;
  name: string;
  uid?: string;
}

/** The parts of an object the tracer needs. */
export interface ObjectMeta {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  rv?: string;
  owner?: OwnerRef;
}

export type WireObservation =
  /**
   * A watch event passed to a client: ADDED, MODIFIED or DELETED (bookmarks are not kept).
   * `resource`: the watched resource, which tells what kind a write to it is about.
   */
  | {
      type: "watch";
      ts: number;
      event: "ADDED" | "MODIFIED" | "DELETED";
      object: ObjectMeta;
      resource?: ResourceRef;
    }
  /** A list response passed to a client: what an informer delivers as adds before it watches. */
  | { type: "list"; ts: number; items: ObjectMeta[]; resource?: ResourceRef }
  /**
   * A read or write of the controller reached the proxy whole (its body received): the moment
   * closest to its pass's start that the wire shows. `sent`: the request body's object, if JSON.
   */
  | { type: "begin"; ts: number; request: ApiRequest; sent?: unknown }
  /**
   * A write's response passed to a client. `object`: the object the response names (not a
   * Status); `sent`: the request body's object, if JSON (names what a failed create was about,
   * and a PUT's resourceVersion precondition); `reason`: a failure's Status reason or the
   * transport error.
   */
  | {
      type: "write";
      ts: number;
      request: ApiRequest;
      code: number;
      reason?: string;
      object?: ObjectMeta;
      sent?: unknown;
    }
  /** A GET of one object passed to a client. */
  | { type: "read"; ts: number; request: ApiRequest; code: number; object?: ObjectMeta };

export interface ResourceRef {
  group: string;
  resource: string;
}

/** "group/Kind", the spelling of `--for` ("Pod" alone for the core group). */
export function groupKind(group: string, kind: string): string {
  return group === "" ? kind : `${group}/${kind}`;
}
