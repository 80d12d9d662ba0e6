/**
 * A value as one word for a POSIX shell, for the lines loopscope prints to be pasted (an
 * `export KUBECONFIG=…`, a `kubectl delete …`): as is when plain, else single-quoted.
 */
export function shellWord(s: string): string {
  return /^[\w./:@+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
