// The WebSocket client of bench/live.ts, in its own thread (its own event loop), like a browser
// tab is its own process: it resumes, follows `events` batches, answers `catchUp` over HTTP, and
// reports emit → receipt delays. Messages from the bench: {type:"wait", seq} → {type:"reached",
// lastSeq, delays:number[]} once it holds every event up to seq (delays since the last report).
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const { WebSocket } = createRequire(new URL("../../apps/server/package.json", import.meta.url))(
  "ws",
);
const { url, token } = workerData;
const now = () => (performance.timeOrigin + performance.now()) * 1000;
let lastSeq = 0;
let delays = [];
let waiting;
let violations = 0;

function take(events) {
  const t = now();
  for (const e of events) {
    if (e.seq !== lastSeq + 1) violations++;
    lastSeq = e.seq;
    delays.push((t - e.ts) / 1000);
  }
  check();
}

function check() {
  if (waiting !== undefined && lastSeq >= waiting) {
    waiting = undefined;
    parentPort.postMessage({ type: "reached", lastSeq, delays, violations });
    delays = [];
  }
}

const ws = new WebSocket(`${url.replace(/^http/, "ws")}ws?token=${token}`);
ws.on("open", () => ws.send(JSON.stringify({ type: "resume", since: 0 })));
ws.on("message", async (data) => {
  const msg = JSON.parse(data.toString());
  if (msg.type === "events") take(msg.events);
  else if (msg.type === "catchUp") {
    const res = await fetch(`${url}api/trace?from=${msg.from}&to=${msg.to}`, {
      headers: { "x-loopscope-token": token },
    });
    const lines = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith('{"') && !l.includes('"loopscope"'));
    take(lines.map((l) => JSON.parse(l)));
    ws.send(JSON.stringify({ type: "resume", since: lastSeq }));
  } else if (msg.type === "hello") parentPort.postMessage({ type: "open" });
});
parentPort.on("message", (m) => {
  if (m.type === "wait") {
    waiting = m.seq;
    check();
  } else if (m.type === "close") {
    ws.close();
    parentPort.close();
  }
});
