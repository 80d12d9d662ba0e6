/**
 * Label selectors (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>3`,
 * `k<3`) and field selectors (`path=v`, `path==v`, `path!=v`), parsed once per request and
 * matched per object. A selector that does not parse is a 400, never "match everything"; so is a
 * label key or value no label could have (`app:web`): on a cluster it is refused, where an empty
 * answer would read as "nothing has that label", and a `delete -l` would quietly delete nothing.
 */
import { badRequest } from "./errors.ts";
import { getOwn, isPlainObject, type KObject } from "./object.ts";
import { labelValueProblems, qualifiedNameProblems } from "./resources/meta-validation.ts";

export type Requirement =
  /** `paths`: a field selector's label read from the first of these that is set (else `key`). */
  | { key: string; op: "=" | "!="; value: string; paths?: readonly string[] }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists" }
  /** The label's value read as an integer, compared with `than`; a value that is none fails. */
  | { key: string; op: "gt" | "lt"; than: number };

/** Splits on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      terms.push(cur);
      cur = "";
    } else cur += ch;
  }
  terms.push(cur);
  return terms.map((t) => t.trim()).filter((t) => t !== "");
}

const SET_TERM = /^([^\s!=()<>]+)\s+(in|notin)\s+\(([^)]*)\)$/;
const EQ_TERM = /^([^\s!=()<>]+)\s*(==|=|!=)\s*([^\s!=()<>]*)$/;
const ORDER_TERM = /^([^\s!=()<>]+)\s*([<>])\s*([^\s!=()<>]*)$/;
const KEY = /^[^\s!=(),<>]+$/;
/** An int64 in decimal, as strconv.ParseInt reads the value of a Gt/Lt requirement. */
const INTEGER = /^[-+]?\d{1,19}$/;

export function parseLabelSelector(s: string | null | undefined): Requirement[] {
  if (!s) return [];
  return splitTerms(s).map((term) => {
    const req = parseRequirement(term);
    const problem = keyProblem(req.key) ?? valuesProblem(req);
    if (problem) throw badRequest(`unable to parse requirement: <nil>: ${problem}`);
    return req;
  });
}

function parseRequirement(term: string): Requirement {
  let m = SET_TERM.exec(term);
  if (m) {
    // apimachinery's parseValues reads an empty item as "": `in ()` is the set {""}, not an
    // error, and `in (web,)` is {web, ""}.
    const values = m[3].split(",").map((v) => v.trim());
    return { key: m[1], op: m[2] as "in" | "notin", values };
  }
  m = EQ_TERM.exec(term);
  if (m) return { key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
  m = ORDER_TERM.exec(term);
  if (m) {
    if (!INTEGER.test(m[3]))
      throw badRequest(
        `unable to parse requirement: <nil>: Invalid value: ${JSON.stringify([m[3]])}: for 'Gt', 'Lt' operators, the value must be an integer`,
      );
    return { key: m[1], op: m[2] === ">" ? "gt" : "lt", than: Number(m[3]) };
  }
  if (term.startsWith("!") && KEY.test(term.slice(1))) return { key: term.slice(1), op: "!exists" };
  if (KEY.test(term)) return { key: term, op: "exists" };
  throw badRequest(
    `unable to parse requirement: found '${term}', expected: '=', '!=', '==', 'in', notin'`,
  );
}

function keyProblem(key: string): string | undefined {
  const msg = qualifiedNameProblems(key)[0];
  return msg === undefined ? undefined : `Invalid value: ${JSON.stringify(key)}: ${msg}`;
}

function valuesProblem(req: Requirement): string | undefined {
  const values = "value" in req ? [req.value] : "values" in req ? req.values : [];
  for (const v of values) {
    const msg = labelValueProblems(v)[0];
    if (msg !== undefined) return `Invalid value: ${JSON.stringify(v)}: ${msg}`;
  }
  return undefined;
}

/**
 * A field a type can be selected by: its dotted path, or a label read from the first of several
 * paths that is set (an Event's `source` is source.component, else reportingComponent).
 */
export type SelectableField = string | { label: string; firstOf: readonly string[] };

export function parseFieldSelector(
  s: string | null | undefined,
  allowed: readonly SelectableField[],
): Requirement[] {
  if (!s) return [];
  return splitTerms(s).map((term) => {
    const m = EQ_TERM.exec(term);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const field = allowed.find((f) => (typeof f === "string" ? f : f.label) === m[1]);
    if (field === undefined) throw badRequest(`field label not supported: ${m[1]}`);
    const op = m[2] === "!=" ? "!=" : "=";
    return typeof field === "string"
      ? { key: m[1], op, value: m[3] }
      : { key: m[1], op, value: m[3], paths: field.firstOf };
  });
}

function matches(reqs: Requirement[], lookup: (r: Requirement) => string | undefined): boolean {
  return reqs.every((r) => {
    const v = lookup(r);
    switch (r.op) {
      case "=":
        return v === r.value;
      case "!=":
        return v !== r.value;
      case "in":
        return v !== undefined && r.values.includes(v);
      case "notin":
        return v === undefined || !r.values.includes(v);
      case "exists":
        return v !== undefined;
      case "!exists":
        return v === undefined;
      case "gt":
      case "lt": {
        if (v === undefined || !INTEGER.test(v)) return false;
        return r.op === "gt" ? Number(v) > r.than : Number(v) < r.than;
      }
    }
  });
}

export function matchesLabels(reqs: Requirement[], obj: KObject): boolean {
  const labels = isPlainObject(obj.metadata.labels) ? obj.metadata.labels : {};
  // Own keys only: `labelSelector=constructor` must not match every object.
  return matches(reqs, (r) => {
    const v = getOwn(labels, r.key);
    return typeof v === "string" ? v : undefined;
  });
}

/** Field values are looked up by dotted path; a missing field reads as "" (as on a cluster). */
export function matchesFields(reqs: Requirement[], obj: KObject): boolean {
  return matches(reqs, (r) => {
    for (const path of ("paths" in r && r.paths) || [r.key]) {
      const v = fieldAt(obj, path);
      if (v !== "") return v;
    }
    return "";
  });
}

function fieldAt(obj: KObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split(".")) cur = isPlainObject(cur) ? getOwn(cur, part) : undefined;
  return cur === undefined || cur === null ? "" : String(cur);
}

export interface Selector {
  labels: Requirement[];
  fields: Requirement[];
}

export function matchesSelector(sel: Selector, obj: KObject): boolean {
  return matchesLabels(sel.labels, obj) && matchesFields(sel.fields, obj);
}

/** metav1.LabelSelector → the string form ("app=web,tier in (a,b)"), as kubectl and Scale show it. */
export function formatLabelSelector(selector: unknown): string {
  if (!isPlainObject(selector)) return "";
  const parts: string[] = [];
  const ml = isPlainObject(selector.matchLabels) ? selector.matchLabels : {};
  for (const k of Object.keys(ml).sort()) parts.push(`${k}=${String(ml[k])}`);
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const e of exprs) {
    if (!isPlainObject(e)) continue;
    const values = Array.isArray(e.values) ? [...(e.values as string[])].sort().join(",") : "";
    if (e.operator === "In") parts.push(`${String(e.key)} in (${values})`);
    else if (e.operator === "NotIn") parts.push(`${String(e.key)} notin (${values})`);
    else if (e.operator === "Exists") parts.push(String(e.key));
    else if (e.operator === "DoesNotExist") parts.push(`!${String(e.key)}`);
  }
  return parts.join(",");
}
