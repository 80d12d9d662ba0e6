/**
 * Watches break. First every watch is closed cleanly: each reflector re-watches from the last
 * resourceVersion it saw and nothing is missed. Then, with watch requests slowed down, the Foo is
 * scaled to 2 while no watch is open, every watch is closed again and the next one is answered
 * 410 Gone (expired): that reflector re-lists, the informer delivers the difference as an update,
 * and the controller converges all the same.
 */
import type { Scenario } from "./scenario.ts";
import { createAndSettle, fooKey, fooObject, needFaults, settledAt, startClean } from "./steps.ts";

const NAME = "example-foo";

export const watchDrop: Scenario = {
  name: "watch-drop",
  title: "Watch drop: closed watches and 410 Gone",
  teaches:
    "When a watch closes the reflector re-watches from its last resourceVersion; when it is told 410 Gone it re-lists. Either way the informer delivers every change and the controller converges.",
  injectsFaults: true,
  async run(ctx) {
    const faults = needFaults(ctx, "watch-drop");
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME, 1);

    ctx.mark("scenario: the API server closes every watch (reflectors re-watch)", key);
    faults.closeAllWatches();
    await new Promise((r) => setTimeout(r, 200));

    ctx.mark(
      "scenario: watches slowed to 300 ms and closed; the next watch gets 410 Gone (re-list) — meanwhile the Foo is scaled to 2",
      key,
    );
    faults.setLatency("watch", 300);
    faults.expireNextWatch();
    faults.closeAllWatches();
    try {
      ctx.doing(`applying ${key} (replicas 2)`);
      await ctx.kube.applyFoo(fooObject(NAME, 2));
      await settledAt(ctx, NAME, 2);
    } finally {
      faults.setLatency("watch", 0);
    }
  },
};
