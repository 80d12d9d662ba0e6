/** `loopscope replay`'s backend: a saved trace served over the same stream and API, read-only. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API, TOKEN_HEADER, type ServerInfo, type ServerMessage } from "@loopscope/protocol";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { StreamClient } from "../ws/stream-client.ts";
import { REPO_ROOT } from "../up/web-build.ts";
import { startDashboardServer, type DashboardServer } from "./dashboard-server.ts";
import { consecutive, loadTrace, replayBackend } from "./replay-backend.ts";

let dir: string;
let server: DashboardServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-replay-"));
});
afterEach(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(file: string) {
  const loaded = await loadTrace(file);
  server = await startDashboardServer({
    backend: replayBackend(file, loaded, new RunsFolder(dir)),
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
  });
  const hello: ServerMessage[] = [];
  const client = new StreamClient({
    baseUrl: server.url,
    token: server.tokens.owner,
    onMessage: (m) => hello.push(m),
  });
  await client.connect();
  return { loaded, client, info: () => (hello[0] as { info: ServerInfo }).info };
}

describe("replay", () => {
  it("serves a klog log's events over the stream, in the reader's order", async () => {
    const file = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
    const { loaded, client, info } = await serve(file);
    expect(loaded.format).toBe("klog");
    expect(loaded.events.length).toBeGreaterThan(10);
    await client.waitFor(loaded.events.length);
    expect(client.events).toEqual(loaded.events);
    expect(info()).toMatchObject({ mode: "replay", readOnly: true, trace: "create-foo.klog.log" });
    const res = await fetch(new URL(API.action, server!.url), {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: server!.tokens.owner },
      body: JSON.stringify({ action: "createFoo", name: "x" }),
    });
    expect(res.status).toBe(409);
    await client.close();
  });

  it("reports malformed lines with their line numbers and loads the rest", async () => {
    const good = (await readFile(join(REPO_ROOT, "public", "traces", "create-foo.jsonl"), "utf8"))
      .trimEnd()
      .split("\n");
    const lines = [...good.slice(0, 4), "{not json", ...good.slice(4)];
    const file = join(dir, "damaged.jsonl");
    await writeFile(file, lines.join("\n") + "\n");
    const { loaded, client, info } = await serve(file);
    await client.waitFor(loaded.events.length);
    expect(client.events.length).toBe(good.length - 1);
    expect(info().loadIssues).toEqual([expect.objectContaining({ line: 5 })]);
    expect(info().loadIssuesTotal).toBe(1);
    await client.close();
  });

  it("renumbers a file whose seqs have gaps, keeping causeSeq links", () => {
    const events = consecutive([
      { seq: 10, ts: 1, key: "k", stage: "watch", kind: "Foo", event: "add", name: "k" },
      { seq: 12, ts: 2, key: "k", stage: "enqueue", cause: "watch", causeSeq: 10 },
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
    expect(events[1]).toMatchObject({ causeSeq: 1, extra: { fileSeq: 12 } });
  });
});
