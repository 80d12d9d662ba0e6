/**
 * What `up` and `run` say before they ask a kubeconfig's cluster whether it can run the controller:
 * an answer can take up to 10 s (see cluster-check.ts), and a silent wait looks like a hang.
 */
export function checkingLine(server: string, context: string): string {
  return `checking the cluster at ${server} (context ${context})…`;
}
