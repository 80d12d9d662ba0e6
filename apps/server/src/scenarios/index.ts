/** Every scenario `loopscope run --scenario <name>` and the dashboard know, in teaching order. */
import { burst, burst4 } from "./burst.ts";
import { conflict } from "./conflict.ts";
import { createFoo } from "./create-foo.ts";
import { deleteAndRecreate } from "./delete-and-recreate.ts";
import { deleteChild } from "./delete-child.ts";
import { fixHotLoop } from "./fix-hot-loop.ts";
import { hotLoop } from "./hot-loop.ts";
import { notOwned } from "./not-owned.ts";
import type { Scenario } from "./scenario.ts";
import { scale } from "./scale.ts";
import { slowApi } from "./slow-api.ts";
import { watchDrop } from "./watch-drop.ts";

export const scenarios: Record<string, Scenario> = Object.fromEntries(
  [
    createFoo,
    deleteAndRecreate,
    scale,
    hotLoop,
    fixHotLoop,
    conflict,
    deleteChild,
    notOwned,
    slowApi,
    watchDrop,
    burst,
    burst4,
  ].map((s) => [s.name, s]),
);

export type { Scenario, ScenarioContext, SettleOptions } from "./scenario.ts";
