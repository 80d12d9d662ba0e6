/**
 * What a failed request to the cluster says, for one line on stderr or the dashboard. client-node
 * fetches with node-fetch, whose errors for a request that got no HTTP answer read "request to
 * https://…/version failed, reason: connect ECONNREFUSED …".
 */

const NO_ANSWER = /^request to \S+ failed, reason: (.+)$/;

function firstLine(err: unknown): string {
  const message = (err as { message?: unknown })?.message;
  return (typeof message === "string" ? message : String(err)).split("\n")[0] ?? "";
}

/** Drops the userinfo any URL in `text` carries: the text may go to every dashboard. */
function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/g, "//");
}

/** The reason a request got no HTTP answer ("connect ECONNREFUSED …"), or undefined. */
export function noAnswerReason(err: unknown): string | undefined {
  const m = NO_ANSWER.exec(firstLine(err));
  return m ? withoutCredentials(m[1]!) : undefined;
}

/** Any failure in a few words: a request's reason when it got no answer, else the first line. */
export function failureText(err: unknown): string {
  return noAnswerReason(err) ?? withoutCredentials(firstLine(err));
}
