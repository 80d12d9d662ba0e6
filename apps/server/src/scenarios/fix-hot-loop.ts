/**
 * The fix for the hot loop: status computed from the world only (no timestamp) and written only
 * when it differs (the controller's `idempotentStatus` lesson). Passes triggered by the
 * controller's own writes now find nothing to do and write nothing: the loop stops.
 */
import type { Scenario } from "./scenario.ts";
import { createAndSettle, startClean } from "./steps.ts";

const NAME = "example-foo";

export const fixHotLoop: Scenario = {
  name: "fix-hot-loop",
  title: "Fix the hot loop: idempotent status",
  teaches:
    "Status computed from the world and written only when it differs: the pass triggered by our own write finds nothing to change, writes nothing, and the key goes quiet.",
  lessons: { hotLoopBug: false, idempotentStatus: true },
  async run(ctx) {
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME);
  },
};
