/**
 * A Deployment's `spec.strategy` checked as apps validation's ValidateDeploymentStrategy and
 * ValidateRollingUpdateDeployment check it (after defaulting, so a RollingUpdate strategy always
 * has both values): Recreate takes no `rollingUpdate`; `maxUnavailable` and `maxSurge` are
 * non-negative ints or percent strings, not both 0, and `maxUnavailable` is at most 100 %
 * (`maxSurge` may be more). The rollout simulation (actors/rollout-strategy.ts) relies on it: a
 * 0/0 strategy could never make progress.
 *
 * Values are shown as the real 422 shows them: an int as itself, an IntOrString in Go's %#v
 * (`intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}`), since field.Error prints a value
 * that is no string, number or fmt.Stringer that way.
 */
import type { FieldError } from "../errors.ts";
import { isPlainObject } from "../object.ts";

const PERCENT = /^[0-9]+%$/;

/** apimachinery's IsValidPercent message (RegexError's two examples, double space and all). */
const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** An intstr.IntOrString as decoded from JSON: a number is Type 0 (Int), a string Type 1. */
function goIntOrString(v: number | string): string {
  return typeof v === "number"
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
}

/** Go's strconv.Atoi as IntOrString.IntValue uses it: what does not parse is 0. */
function atoi(s: string): number {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : 0;
}

/** getPercentValue: the number of a valid percent string, else undefined. */
function percentOf(v: number | string): number | undefined {
  return typeof v === "string" && PERCENT.test(v) ? Number(v.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue. */
function valueOf(v: number | string): number {
  return percentOf(v) ?? (typeof v === "number" ? v : atoi(v));
}

/** ValidatePositiveIntOrPercent. */
function positiveIntOrPercent(v: number | string, field: string): FieldError[] {
  if (typeof v === "string") {
    if (PERCENT.test(v)) return [];
    return [
      {
        reason: "FieldValueInvalid",
        field,
        detail: `Invalid value: ${goIntOrString(v)}: ${PERCENT_MESSAGE}`,
      },
    ];
  }
  if (v >= 0) return [];
  return [
    {
      reason: "FieldValueInvalid",
      field,
      detail: `Invalid value: ${v}: must be greater than or equal to 0`,
    },
  ];
}

/** A JSON value an IntOrString holds; anything else Go's decoder would have refused. */
function intOrString(v: unknown): number | string | undefined {
  return typeof v === "number" || typeof v === "string" ? v : undefined;
}

function rollingUpdateErrors(ru: Record<string, unknown>, base: string): FieldError[] {
  // The internal type's zero value (Int 0) stands in for a value not given, as the real
  // validation sees an unset one after conversion.
  const unavailable = intOrString(ru.maxUnavailable) ?? 0;
  const surge = intOrString(ru.maxSurge) ?? 0;
  const errs = [
    ...positiveIntOrPercent(unavailable, `${base}.maxUnavailable`),
    ...positiveIntOrPercent(surge, `${base}.maxSurge`),
  ];
  if (valueOf(unavailable) === 0 && valueOf(surge) === 0) {
    errs.push({
      reason: "FieldValueInvalid",
      field: `${base}.maxUnavailable`,
      detail: `Invalid value: ${goIntOrString(unavailable)}: may not be 0 when \`maxSurge\` is 0`,
    });
  }
  const percent = percentOf(unavailable);
  if (percent !== undefined && percent > 100) {
    errs.push({
      reason: "FieldValueInvalid",
      field: `${base}.maxUnavailable`,
      detail: `Invalid value: ${goIntOrString(unavailable)}: must not be greater than 100%`,
    });
  }
  return errs;
}

/** `strategy` as Go's %#v prints an apps.DeploymentStrategy (the NotSupported value). */
function goStrategy(type: unknown, rollingUpdate: unknown): string {
  // A pointer prints as its address, which differs per request on a cluster; a fixed one here.
  const ru = rollingUpdate === undefined ? "nil" : "0xc000000000";
  return `apps.DeploymentStrategy{Type:${JSON.stringify(String(type ?? ""))}, RollingUpdate:(*apps.RollingUpdateDeployment)(${ru})}`;
}

/** ValidateDeploymentStrategy for a defaulted Deployment's `spec.strategy`. */
export function validateDeploymentStrategy(strategy: unknown): FieldError[] {
  const s = isPlainObject(strategy) ? strategy : {};
  const ru = s.rollingUpdate;
  switch (s.type) {
    case "Recreate":
      if (ru === undefined) return [];
      return [
        {
          reason: "FieldValueForbidden",
          field: "spec.strategy.rollingUpdate",
          detail: "Forbidden: may not be specified when strategy `type` is 'Recreate'",
        },
      ];
    case "RollingUpdate":
      if (!isPlainObject(ru))
        return [
          {
            reason: "FieldValueRequired",
            field: "spec.strategy.rollingUpdate",
            detail: "Required value: this should be defaulted and never be nil",
          },
        ];
      return rollingUpdateErrors(ru, "spec.strategy.rollingUpdate");
    default:
      return [
        {
          reason: "FieldValueNotSupported",
          field: "spec.strategy",
          detail: `Unsupported value: ${goStrategy(s.type, ru)}: supported values: "Recreate", "RollingUpdate"`,
        },
      ];
  }
}
