/**
 * ObjectMeta's labels and annotations, checked as apimachinery's ValidateLabels and
 * ValidateAnnotations do, in their words: a label key and an annotation key are qualified names
 * (an optional DNS subdomain prefix and '/', then a name of at most 63 characters), a label value
 * is empty or such a name. A manifest with `bad key!` is refused on a cluster; stored here, it
 * taught that it was fine.
 */
import type { FieldError } from "../errors.ts";
import type { KObject } from "../object.ts";

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** apimachinery's RegexError: the message, its examples and the regex. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const eg = examples.map((e) => `'${e}', `).join(" or ");
  return `${msg} (e.g. ${eg}regex used for validation is '${fmt}')`;
}

const maxLen = (n: number) => `must be no more than ${n} characters`;

/** IsQualifiedName's messages for `value` (none: it is one). */
export function qualifiedNameProblems(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else {
      if (prefix.length > 253) errs.push(`prefix part ${maxLen(253)}`);
      if (!DNS1123_SUBDOMAIN.test(prefix))
        errs.push(
          `prefix part ${regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com")}`,
        );
    }
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!QUALIFIED_NAME.test(name))
    errs.push(
      `name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")}`,
    );
  return errs;
}

/** IsValidLabelValue's messages for `value` (none: it is one). */
export function labelValueProblems(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (value !== "" && !QUALIFIED_NAME.test(value))
    errs.push(
      regexError(LABEL_VALUE_MSG, `(${QUALIFIED_NAME_FMT})?`, "MyValue", "my_value", "12345"),
    );
  return errs;
}

const invalidValue = (field: string, value: string, msg: string): FieldError => ({
  reason: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${JSON.stringify(value)}: ${msg}`,
});

export function validateLabelsAndAnnotations(meta: KObject["metadata"]): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(meta.labels ?? {})) {
    for (const msg of qualifiedNameProblems(k)) errs.push(invalidValue("metadata.labels", k, msg));
    for (const msg of labelValueProblems(String(v)))
      errs.push(invalidValue("metadata.labels", String(v), msg));
  }
  for (const k of Object.keys(meta.annotations ?? {})) {
    for (const msg of qualifiedNameProblems(k.toLowerCase()))
      errs.push(invalidValue("metadata.annotations", k, msg));
  }
  return errs;
}
