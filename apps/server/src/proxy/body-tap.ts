/**
 * Copies of bodies the proxy forwards, for recording. The forwarded bytes are never held back or
 * changed: the proxy writes each chunk on before it hands the same chunk here.
 *
 * - `BodyCopy` keeps a whole (non-watch) body up to a limit and decodes it as JSON at the end —
 *   gunzipped first when the server compressed it; past the limit it gives up (nothing recorded).
 * - `LineTap` cuts a JSON watch stream into its events (one JSON object per line, as the API
 *   server writes them) as they pass; a line over the limit is skipped, the stream goes on.
 */
import { gunzipSync } from "node:zlib";

export class BodyCopy {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;
  private decoded: { value: unknown } | undefined;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.over = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }

  /**
   * The body as decoded JSON; undefined when it was too big, empty or not JSON. Decoded once:
   * call it when the body is complete.
   */
  json(gzipped = false): unknown {
    this.decoded ??= { value: this.decode(gzipped) };
    return this.decoded.value;
  }

  private decode(gzipped: boolean): unknown {
    if (this.over || this.size === 0) return undefined;
    try {
      let body = Buffer.concat(this.chunks, this.size);
      if (gzipped) body = gunzipSync(body, { maxOutputLength: this.limit * 8 });
      return JSON.parse(body.toString("utf8")) as unknown;
    } catch {
      return undefined;
    }
  }
}

export class LineTap {
  private partial: Buffer[] = [];
  private partialSize = 0;
  private skipping = false;

  constructor(
    private readonly onLine: (value: unknown) => void,
    private readonly limit: number,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl < 0) break;
      this.take(chunk.subarray(from, nl));
      this.finishLine();
      from = nl + 1;
    }
    if (from < chunk.length) this.take(chunk.subarray(from));
  }

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.partialSize += part.length;
    if (this.partialSize > this.limit) {
      this.skipping = true;
      this.partial = [];
      return;
    }
    this.partial.push(part);
  }

  private finishLine(): void {
    const parts = this.partial;
    const size = this.partialSize;
    const skipped = this.skipping;
    this.partial = [];
    this.partialSize = 0;
    this.skipping = false;
    if (skipped || size === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(parts, size).toString("utf8"));
    } catch {
      return;
    }
    this.onLine(value);
  }
}
