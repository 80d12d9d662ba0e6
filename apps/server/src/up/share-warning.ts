/**
 * `--share` prints a read-only link for others to watch; on a loopback address (the default
 * without `--host`) nobody else can open it, which a presenter learns only when attendees say
 * the link does not load. Said at start, next to the link.
 */
import { isLoopbackHost } from "../http/security.ts";
import type { ServeFlags } from "./flags.ts";

export function shareWarning(flags: Pick<ServeFlags, "share" | "host">): string | undefined {
  if (!flags.share || !isLoopbackHost(flags.host)) return undefined;
  return (
    `warning: --share: the read-only link opens only on this machine (listening on ${flags.host}); ` +
    `for others to watch, add --host 0.0.0.0 or this machine's network address`
  );
}
