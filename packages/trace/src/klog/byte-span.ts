/**
 * Spans of a line's bytes, compared and searched byte by byte: the klog reader decides on bytes
 * compared with ASCII, never on a decoded string it would have to cut first.
 */

/** Whether x[a, a + len) and y[b, b + len) hold the same bytes (both spans inside their arrays). */
export function sameSpan(x: Uint8Array, a: number, y: Uint8Array, b: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (x[a + i] !== y[b + i]) return false;
  return true;
}

/** Where the first byte `a` or `b` lies in bytes[from, end), or `end`. */
export function indexOfEither(
  bytes: Uint8Array,
  from: number,
  end: number,
  a: number,
  b: number,
): number {
  let i = from;
  while (i < end && bytes[i] !== a && bytes[i] !== b) i++;
  return i;
}

/**
 * Bytes for a line that came as text (a line that is not ASCII, or a string chunk): one byte per
 * character, at the same offsets — the character itself when ASCII, else 0x80, which fails every
 * comparison with ASCII as the character's own bytes would. So a text line is read on the same
 * path as a line of bytes, its values cut from the text. Fills `into` when it is long enough.
 */
export function shadowBytes(text: string, into: Uint8Array): Uint8Array {
  const n = text.length;
  const out = into.length >= n ? into : new Uint8Array(Math.max(n, 2 * into.length));
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 0x80 ? c : 0x80;
  }
  return out;
}

/** A new flat string of the ASCII bytes[a, b) (short: its char codes are one argument list). */
export function copyAscii(bytes: Uint8Array, a: number, b: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(a, b) as unknown as number[]);
}
