/**
 * UTF-16 text, as Windows PowerShell 5 writes it (`kubectl logs … > controller.log`, `Out-File`:
 * UTF-16LE after a byte-order mark), re-encoded as UTF-8 as it streams, so that every reader reads
 * one encoding. Sniffed by its byte-order mark: UTF-16 without one is not told from binary data.
 *
 * Invariants:
 * - The output is the UTF-8 of the text after the mark, whatever the chunk boundaries: a code
 *   unit or a surrogate pair split across two chunks is carried to the next.
 * - A lone surrogate or an odd last byte becomes U+FFFD, as any undecodable byte does.
 * - The offsets of the output are not the file's: nothing may read its lines back from the file
 *   at them (the replays keep such a file's lines as text, as they do a gzip file's).
 */

export type Utf16 = "utf-16le" | "utf-16be";

/** The UTF-16 byte order that the first bytes of an input announce, if they are a mark. */
export function utf16Of(head: Uint8Array): Utf16 | undefined {
  if (head.length < 2) return undefined;
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * The chunks as UTF-8: as they are, unless the first bytes are a UTF-16 mark — then the text
 * after it, re-encoded. (Chunks may be reused buffers: each is read before the next is asked for.)
 */
export async function* asUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  /** Bytes held until there are two to tell a mark by; undefined once told. */
  let head: Uint8Array | undefined = new Uint8Array(0);
  const encoder = new TextEncoder();
  for await (let chunk of chunks) {
    if (head !== undefined) {
      if (head.length > 0) {
        const joined = new Uint8Array(head.length + chunk.length);
        joined.set(head);
        joined.set(chunk, head.length);
        chunk = joined;
      }
      if (chunk.length < 2) {
        // A copy: the chunk's buffer may be refilled while the next is read.
        head = chunk.slice();
        continue;
      }
      head = undefined;
      const encoding = utf16Of(chunk);
      if (encoding !== undefined) decoder = new TextDecoder(encoding);
    }
    if (decoder === undefined) {
      yield chunk;
      continue;
    }
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield encoder.encode(text);
  }
  if (head !== undefined && head.length > 0) yield head;
  const rest = decoder?.decode() ?? "";
  if (rest.length > 0) yield encoder.encode(rest);
}
