/**
 * JSON Patch (RFC 6902) with JSON Pointers (RFC 6901): add, remove, replace, move, copy, test.
 * Operations apply in order to a copy; the first failing one aborts the whole patch (422).
 * A pointer's tokens name own properties only: `/__proto__/x` is a missing path unless the
 * document has a key "__proto__", and then it is that key (see object.ts getOwn/setOwn).
 */
import { ApiError } from "../errors.ts";
import { clone, deepEqual, getOwn, hasOwn, isPlainObject, setOwn } from "../object.ts";

type Container = Record<string, unknown> | unknown[];

function fail(detail: string): never {
  throw new ApiError(
    422,
    "Invalid",
    `the server rejected our request due to an error in our request: ${detail}`,
  );
}

function parsePointer(pointer: unknown): string[] {
  if (typeof pointer !== "string") fail(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) fail(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function arrayIndex(arr: unknown[], token: string, forInsert: boolean): number {
  if (forInsert && token === "-") return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) fail(`invalid array index "${token}"`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) fail(`array index ${i} out of bounds`);
  return i;
}

/** The container holding the last token, and that token. */
function parentOf(doc: unknown, tokens: string[]): [Container, string] {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)];
    else if (isPlainObject(cur) && hasOwn(cur, t)) cur = getOwn(cur, t);
    else fail(`missing path "/${tokens.join("/")}"`);
  }
  if (!Array.isArray(cur) && !isPlainObject(cur)) fail(`missing path "/${tokens.join("/")}"`);
  return [cur, tokens[tokens.length - 1]];
}

function get(doc: unknown, tokens: string[]): unknown {
  if (tokens.length === 0) return doc;
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)];
  if (!hasOwn(parent, last)) fail(`missing path "/${tokens.join("/")}"`);
  return getOwn(parent, last);
}

function remove(doc: unknown, tokens: string[]): unknown {
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false), 1)[0];
  if (!hasOwn(parent, last)) fail(`unable to remove nonexistent key: ${last}`);
  const value = getOwn(parent, last);
  delete parent[last];
  return value;
}

function add(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else setOwn(parent, last, value);
  return doc;
}

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) fail("a JSON patch must be an array of operations");
  let doc = clone(target);
  for (const op of patch) {
    if (!isPlainObject(op)) fail("a JSON patch operation must be an object");
    const path = parsePointer(op.path);
    switch (op.op) {
      case "add":
        doc = add(doc, path, clone(op.value));
        break;
      case "remove":
        remove(doc, path);
        break;
      case "replace":
        if (path.length === 0) doc = clone(op.value);
        else {
          remove(doc, path);
          doc = add(doc, path, clone(op.value));
        }
        break;
      case "move": {
        const value = remove(doc, parsePointer(op.from));
        doc = add(doc, path, value);
        break;
      }
      case "copy":
        doc = add(doc, path, clone(get(doc, parsePointer(op.from))));
        break;
      case "test":
        if (!deepEqual(get(doc, path), op.value)) fail(`testing value /${path.join("/")} failed`);
        break;
      default:
        fail(`unexpected operation ${JSON.stringify(op.op)}`);
    }
  }
  return doc;
}
