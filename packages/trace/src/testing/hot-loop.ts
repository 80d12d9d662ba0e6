/**
 * A JSONL trace of one Foo, `default/hot`, in a hot loop: each pass's status write changes a
 * field and echoes back as the watch event that starts the next pass, a second apart; the last
 * pass's write echoes no more, so the Foo ends quiescent. The shape that grows a key past any
 * cap on events (the dashboard's excerpt reads its first 20,000) or on pixels (folded time).
 */
export const HOT_KEY = "default/hot";

export function hotLoopTrace(passes: number): string {
  const lines = [`{"loopscope":"trace","version":1,"created":"2026-12-07T00:00:00Z"}`];
  let seq = 0;
  const ev = (o: Record<string, unknown>, ts: number) =>
    lines.push(JSON.stringify({ ...o, key: HOT_KEY, ts, seq: ++seq }));
  const foo = { kind: "Foo", ns: "default", name: "hot" };
  const t0 = 1_796_000_000_000_000;
  ev({ stage: "watch", ...foo, event: "add", rv: "1" }, t0);
  for (let p = 0; p < passes; p++) {
    const t = t0 + p * 1_000_000 + 1_000;
    const rv = String(p + 2);
    ev({ stage: "enqueue", len: 1, merged: false, cause: "watch", causeSeq: seq }, t);
    ev({ stage: "dequeue", len: 0, worker: 1 }, t + 100);
    ev({ stage: "read", rv: String(p + 1), generation: 1, worker: 1 }, t + 200);
    const write = { verb: "updateStatus", target: "foos/default/hot/status", code: 200, rv };
    ev({ stage: "write", ...write, changed: true, fields: ["status.at"], worker: 1 }, t + 900);
    ev({ stage: "done", outcome: "synced", worker: 1 }, t + 1_000);
    if (p < passes - 1) ev({ stage: "watch", ...foo, event: "update", rv }, t + 1_200);
  }
  return lines.join("\n") + "\n";
}
