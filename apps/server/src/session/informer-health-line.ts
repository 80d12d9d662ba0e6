/**
 * What `loopscope up` says on stderr when the controller's informers start failing (the cluster
 * refuses their lists and watches: 401, 403, 500 …) and when they list again: one line per
 * change, however many retries and reasons lie between.
 */
import type { InformerHealth } from "@loopscope/protocol";
import { clockTime, duration } from "./reachability-line.ts";

export function informerHealthLine(
  now: InformerHealth,
  before: InformerHealth,
  at: Date = new Date(),
): string | undefined {
  if (now.failing === before.failing) return undefined;
  if (now.failing) {
    return (
      `the controller's informers are failing since ${clockTime(new Date(now.since))}: the cluster ` +
      `answers their lists and watches ${now.error}; they keep retrying, and no watch event comes ` +
      `until they list again`
    );
  }
  if (!before.failing) return undefined;
  const down = at.getTime() - Date.parse(before.since);
  return `the controller's informers list and watch again after ${duration(down)}`;
}
