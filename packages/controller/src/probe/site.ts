/**
 * Source locations for probe events, cheap enough for a million events.
 *
 * Each probe call site owns a `Site` cell declared once at module scope. The first event emitted
 * through a cell captures one stack trace and stores the caller's `file.ts:line`; every later
 * event reuses the string. So the cost is one stack walk per call site per process, and the line
 * is the real line of the probe call (tsx and vitest map stacks back to the .ts source).
 *
 * Invariant: a cell must be used from exactly one call site — sharing a cell would label the
 * second site with the first one's line.
 */
export interface Site {
  src: string | undefined;
}

export function site(): Site {
  return { src: undefined };
}

/**
 * Fills `cell` from the current stack. `depth` is how many frames sit between this function and
 * the call site (1 = our caller's caller).
 */
export function resolveSite(cell: Site, depth: number): string {
  if (cell.src !== undefined) return cell.src;
  const stack = new Error().stack ?? "";
  const frames = stack.split("\n").slice(1);
  cell.src = parseFrame(frames[depth + 1] ?? "") ?? "unknown:0";
  return cell.src;
}

/** "    at fn (/a/b/foo-controller.ts:131:7)" → "foo-controller.ts:131". */
export function parseFrame(frame: string): string | undefined {
  const m = /\(?((?:file:\/\/)?[^()\s]+):(\d+):\d+\)?\s*$/.exec(frame);
  if (!m) return undefined;
  const path = m[1] as string;
  const base = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  return `${base.split("?")[0]}:${m[2]}`;
}
