/**
 * An error or log message as a finding quotes it: on one line, each line break a " ⏎ " (klog's
 * multi-line values: an error of several lines broke `loopscope stats`' list of findings), whole up
 * to ERROR_IN_BRIEF_MAX characters, else its start and its end around " … ". A finding is read in
 * a list (`loopscope stats`, the Findings tab), where one 40 KB error made one 40 KB line; the
 * event keeps the whole text.
 */
export const ERROR_IN_BRIEF_MAX = 300;
/** How much of the end is kept: where a wrapped error says what finally failed. */
const TAIL = 80;

export function errorInBrief(message: string): string {
  const text = message.includes("\n") ? message.replace(/[ \t]*\r?\n\s*/g, " ⏎ ") : message;
  if (text.length <= ERROR_IN_BRIEF_MAX) return text;
  const head = wholeCharsBefore(text, ERROR_IN_BRIEF_MAX - TAIL - 3);
  const tail = wholeCharsBefore(text, text.length - TAIL);
  return `${text.slice(0, head)} … ${text.slice(tail)}`;
}

/** `at`, or one less where it would split a surrogate pair. */
function wholeCharsBefore(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff ? at - 1 : at;
}
