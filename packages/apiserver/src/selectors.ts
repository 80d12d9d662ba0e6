/**
 * Label selectors (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`) and field
 * selectors (`path=v`, `path==v`, `path!=v`), parsed once per request and matched per object.
 * A selector that does not parse is a 400, never "match everything".
 */
import { badRequest } from "./errors.ts";
import { getOwn, isPlainObject, type KObject } from "./object.ts";

export type Requirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists" };

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

const SET_TERM = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/;
const EQ_TERM = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=()]*)$/;
const KEY = /^[^\s!=(),]+$/;

export function parseLabelSelector(s: string | null | undefined): Requirement[] {
  if (!s) return [];
  return splitTerms(s).map((term) => {
    let m = SET_TERM.exec(term);
    if (m) {
      const values = m[3]
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== "");
      return { key: m[1], op: m[2] as "in" | "notin", values };
    }
    m = EQ_TERM.exec(term);
    if (m) return { key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
    if (term.startsWith("!") && KEY.test(term.slice(1)))
      return { key: term.slice(1), op: "!exists" };
    if (KEY.test(term)) return { key: term, op: "exists" };
    throw badRequest(
      `unable to parse requirement: found '${term}', expected: '=', '!=', '==', 'in', notin'`,
    );
  });
}

export function parseFieldSelector(
  s: string | null | undefined,
  allowed: readonly string[],
): Requirement[] {
  if (!s) return [];
  return splitTerms(s).map((term) => {
    const m = EQ_TERM.exec(term);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    if (!allowed.includes(m[1])) throw badRequest(`field label not supported: ${m[1]}`);
    return { key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
  });
}

function matches(reqs: Requirement[], lookup: (key: string) => string | undefined): boolean {
  return reqs.every((r) => {
    const v = lookup(r.key);
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
    }
  });
}

export function matchesLabels(reqs: Requirement[], obj: KObject): boolean {
  const labels = isPlainObject(obj.metadata.labels) ? obj.metadata.labels : {};
  // Own keys only: `labelSelector=constructor` must not match every object.
  return matches(reqs, (k) => {
    const v = getOwn(labels, k);
    return typeof v === "string" ? v : undefined;
  });
}

/** Field values are looked up by dotted path; a missing field reads as "" (as on a cluster). */
export function matchesFields(reqs: Requirement[], obj: KObject): boolean {
  return matches(reqs, (path) => {
    let cur: unknown = obj;
    for (const part of path.split(".")) cur = isPlainObject(cur) ? getOwn(cur, part) : undefined;
    return cur === undefined || cur === null ? "" : String(cur);
  });
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
