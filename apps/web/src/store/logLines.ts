/**
 * Where a session reads the log lines its rows do not keep (see LineFile in packages/trace): a
 * dropped klog file, read back at an offset, or the `loopscope replay` server, which reads them
 * back from its own file (`GET /api/lines`).
 */
import { LineFile, type ByteSource } from "@loopscope/trace";
import { API, TOKEN_HEADER } from "@loopscope/protocol";

export interface LogLines {
  /** The text of each line asked for (numbered from 1), by line number. */
  read(lines: Iterable<number>): Promise<Map<number, string>>;
}

/** A Blob's bytes at any offset. */
export function blobBytes(blob: Blob): ByteSource {
  return {
    size: blob.size,
    read: async (at, length) => new Uint8Array(await blob.slice(at, at + length).arrayBuffer()),
  };
}

/** The lines of a dropped file, found through the marks its reader took (`addMarks`). */
export function fileLines(blob: Blob): LineFile {
  return new LineFile(blobBytes(blob));
}

/** Lines asked of the server in one request at most (the excerpt asks for up to 400). */
const PER_REQUEST = 500;

/** The replay server's lines of the file it serves. */
export function serverLines(base: URL, token: string): LogLines {
  return {
    async read(lines) {
      const all = [...new Set(lines)];
      const out = new Map<number, string>();
      for (let i = 0; i < all.length; i += PER_REQUEST) {
        const url = new URL(API.lines, base);
        url.searchParams.set("n", all.slice(i, i + PER_REQUEST).join(","));
        const res = await fetch(url, { headers: { [TOKEN_HEADER]: token } });
        if (!res.ok) {
          // The server says why (a file rewritten since it was read); else its status.
          const why = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
          throw new Error(why?.message ?? `reading log lines: HTTP ${res.status}`);
        }
        const got = (await res.json()) as Record<string, string>;
        for (const [n, text] of Object.entries(got)) out.set(Number(n), text);
      }
      return out;
    },
  };
}
