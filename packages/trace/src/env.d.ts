/**
 * The platform APIs the trace package uses, present in browsers, workers and Node alike.
 * Declared here because the package compiles with neither DOM nor Node types, so that nothing
 * platform-specific can slip in.
 */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
