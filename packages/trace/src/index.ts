export * from "./event.ts";
