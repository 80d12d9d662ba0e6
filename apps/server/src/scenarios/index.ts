/** Every scenario `loopscope run --scenario <name>` knows, by name. */
import { createFoo } from "./create-foo.ts";
import type { Scenario } from "./scenario.ts";

export const scenarios: Record<string, Scenario> = {
  [createFoo.name]: createFoo,
};

export type { Scenario, ScenarioContext, SettleOptions } from "./scenario.ts";
