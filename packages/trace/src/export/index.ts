export * from "./chrome-format.ts";
export * from "./chrome-writer.ts";
export * from "./chrome-reader.ts";
export * from "./otlp-format.ts";
export * from "./otlp-writer.ts";
export * from "./pass-stream.ts";
export * from "./export-pipeline.ts";
