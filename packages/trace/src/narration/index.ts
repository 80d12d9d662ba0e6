export { narrate, type Narration, type NarrationContext } from "./narrate.ts";
export { MachineryReplay, machineryStates, type MachineryState } from "./machinery.ts";
export { PARTS, PART_LABELS, type MachineryPart, type NarrationPart } from "./parts.ts";
