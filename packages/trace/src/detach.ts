/**
 * A copy of `s` that shares no memory with the text it may be a slice of: a string read from a log
 * is a slice of a whole decoded chunk, which V8 keeps alive as long as the slice. What is kept for
 * good (a key's state, a remembered detail) is kept as a copy. (V8 copies slices shorter than 13
 * characters already.)
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
