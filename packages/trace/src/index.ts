export * from "./event.ts";
export * from "./analysis/model.ts";
