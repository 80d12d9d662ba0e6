/**
 * Short byte spans compared four bytes at a time. A DataView reads an unaligned int32 in one
 * load where a byte loop pays a load, a bounds check and a branch per byte: over a 17-byte
 * source location ("controller.go:133") the words are ~2.5× faster, and the klog reader compares
 * one or two such spans per line.
 */

/** A DataView over exactly the bytes of `bytes`. */
export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether x[a, a + len) and y[b, b + len) hold the same bytes; both spans lie inside their views. */
export function sameSpan(x: DataView, a: number, y: DataView, b: number, len: number): boolean {
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    if (x.getInt32(a + i, true) !== y.getInt32(b + i, true)) return false;
  }
  for (; i < len; i++) if (x.getUint8(a + i) !== y.getUint8(b + i)) return false;
  return true;
}

/** The bit 0x80 of each byte of `w` that is zero is set, and only that of the first one is exact. */
function zeroBytes(w: number): number {
  return (w - 0x01010101) & ~w & 0x80808080;
}

/**
 * Where the first byte `a` or `b` lies in bytes[from, end) (`view` over the same bytes), or `end`:
 * four bytes at a time, then one by one. Reads nothing at or past `end`.
 */
export function indexOfEither(
  view: DataView,
  bytes: Uint8Array,
  from: number,
  end: number,
  a: number,
  b: number,
): number {
  let i = from;
  const a4 = a * 0x01010101;
  const b4 = b * 0x01010101;
  while (i + 4 <= end) {
    const w = view.getInt32(i, true);
    // The lowest bit set belongs to the first matching byte: the false positives of zeroBytes
    // (a borrow from a zero byte) only ever lie above a true one.
    const t = zeroBytes(w ^ a4) | zeroBytes(w ^ b4);
    if (t !== 0) return i + ((31 - Math.clz32(t & -t)) >> 3);
    i += 4;
  }
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
