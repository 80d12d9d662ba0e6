/**
 * Deep links: the URL's query holds the trace, the selected Foo(s), the time window, the
 * selected event or pass, the paused playhead (a step-through's: the lanes show what was narrated) and
 * how time and passes are drawn, so a link — or a reload — reopens the same moment as it was
 * seen. Times are integers in µs since the epoch; the defaults (folded time, lanes) are left out.
 *
 *   ?trace=traces/hot-loop.jsonl&foo=default/example-foo&t0=…&t1=…&ev=42&pass=default/example-foo:3
 *   &at=…&time=linear&view=passes
 */
import type { TimeMode, ViewState } from "./viewState.ts";

export interface DeepLink {
  /** A path relative to the app (a sample under traces/) or a run name served by the server. */
  trace?: string;
  foos: string[];
  window?: [number, number];
  seq?: number;
  /** The selected pass: its Foo and index (`pass=ns/name:index`; a name holds no colon). */
  pass?: { key: string; index: number };
  /** Where a paused playhead stands (µs): events after it are not shown yet. */
  playhead?: number;
  timeMode?: TimeMode;
  timelineView?: ViewState["timelineView"];
}

export function decodeDeepLink(search: string): DeepLink {
  const q = new URLSearchParams(search);
  const t0 = Number(q.get("t0"));
  const t1 = Number(q.get("t1"));
  const ev = Number(q.get("ev"));
  const at = Number(q.get("at"));
  const trace = q.get("trace") ?? undefined;
  const foos = q.getAll("foo").filter((f) => f.length > 0);
  // A pass of a Foo the link does not show would be described beside other Foos' lanes: it
  // brings its Foo when the link names none, and is dropped when the link names others.
  const passed = /^(.+):(\d+)$/.exec(q.get("pass") ?? "");
  if (passed && foos.length === 0) foos.push(passed[1]!);
  const pass = passed && foos.includes(passed[1]!) ? passed : undefined;
  return {
    trace: trace && isSafeTracePath(trace) ? trace : undefined,
    foos,
    window: q.has("t0") && q.has("t1") && t1 > t0 ? [t0, t1] : undefined,
    seq: q.has("ev") && Number.isInteger(ev) && ev > 0 ? ev : undefined,
    ...(pass && { pass: { key: pass[1]!, index: Number(pass[2]) } }),
    playhead: q.has("at") && Number.isFinite(at) && at > 0 ? at : undefined,
    timeMode: q.get("time") === "linear" ? "linear" : undefined,
    timelineView: q.get("view") === "passes" ? "passes" : undefined,
  };
}

export function encodeDeepLink(link: DeepLink): string {
  const q = new URLSearchParams();
  if (link.trace) q.set("trace", link.trace);
  for (const f of link.foos) q.append("foo", f);
  if (link.window) {
    q.set("t0", String(Math.round(link.window[0])));
    q.set("t1", String(Math.round(link.window[1])));
  }
  if (link.seq !== undefined) q.set("ev", String(link.seq));
  if (link.pass) q.set("pass", `${link.pass.key}:${link.pass.index}`);
  if (link.playhead !== undefined) q.set("at", String(Math.round(link.playhead)));
  if (link.timeMode === "linear") q.set("time", "linear");
  if (link.timelineView === "passes") q.set("view", "passes");
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The query that opens a new run of the server (after it restarted): how time and passes are
 * drawn stay, as a reader's preferences; the Foos, window, event and playhead were the old run's,
 * and would open the new one on a Foo it may not have, over a time it never saw.
 */
export function newRunSearch(search: string): string {
  const { timeMode, timelineView } = decodeDeepLink(search);
  return encodeDeepLink({ foos: [], timeMode, timelineView });
}

/**
 * A trace named by a link is fetched relative to the app; refuse anything that could leave it
 * (absolute URLs, protocol-relative, parent segments), so a crafted link cannot make the page fetch
 * from elsewhere.
 */
export function isSafeTracePath(p: string): boolean {
  return /^[A-Za-z0-9._\-/]+$/.test(p) && !p.startsWith("/") && !p.split("/").includes("..");
}
