/**
 * A cluster's server URL as loopscope shows it (dashboard, stderr): any userinfo and query a
 * kubeconfig may carry stripped, so no credential leaves the process with it.
 */
export function shownServer(raw: string | undefined): string | undefined {
  try {
    const u = new URL(raw ?? "");
    u.username = "";
    u.password = "";
    u.search = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return undefined;
  }
}
