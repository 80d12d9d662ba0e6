/**
 * Child process for recording-crash.test.ts: records events to argv[2] forever (until killed),
 * printing the last seq pushed each time a flush completes.
 */
import { Recording } from "./recording.ts";
import { TraceHub } from "./trace-hub.ts";

const rec = await Recording.create(
  process.argv[2],
  { source: "live", created: "crash" },
  { flushMs: 20 },
);
const hub = new TraceHub({ recording: rec });
let i = 0;
for (;;) {
  for (let k = 0; k < 200; k++) {
    hub.push({ stage: "note", ts: Date.now() * 1000, key: "default/x", text: `n${i++}` });
  }
  const pushed = hub.lastSeq;
  await rec.flush();
  process.stdout.write(`${pushed}\n`);
  await new Promise((r) => setTimeout(r, 1));
}
