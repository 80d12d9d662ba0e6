/**
 * `--share`: the read-only URL reaches the page through /api/info (presenter mode shows it to
 * attendees); without --share there is none.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API, TOKEN_HEADER, type ServerInfo } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import { startDashboardServer, type DashboardServer } from "./dashboard-server.ts";
import { hubBackend } from "./testing.ts";

let dir: string;
const servers: DashboardServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-share-"));
  await mkdir(join(dir, "web"));
  await writeFile(join(dir, "web", "index.html"), "<!doctype html><title>t</title>");
  await mkdir(join(dir, "runs"));
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function info(
  share: boolean,
  as: "owner" | "share" = "owner",
): Promise<[ServerInfo, DashboardServer]> {
  const server = await startDashboardServer({
    backend: hubBackend(new TraceHub(), join(dir, "runs")),
    host: "127.0.0.1",
    port: 0,
    webRoot: join(dir, "web"),
    share,
  });
  servers.push(server);
  const token = as === "owner" ? server.tokens.owner : server.tokens.share!;
  const res = await fetch(`http://127.0.0.1:${server.port}${API.info}`, {
    headers: { [TOKEN_HEADER]: token },
  });
  expect(res.status).toBe(200);
  return [(await res.json()) as ServerInfo, server];
}

describe("share link in /api/info", () => {
  it("with --share: the owner and attendees see the read-only URL", async () => {
    const [owner, server] = await info(true);
    expect(owner.shareUrl).toBe(server.shareUrl);
    expect(owner.shareUrl).toContain(`?share=${server.tokens.share}`);
    const [reader] = await info(true, "share");
    expect(reader.readOnly).toBe(true);
    expect(reader.shareUrl).toMatch(/\?share=/);
  });

  it("without --share: none", async () => {
    const [owner] = await info(false);
    expect(owner.shareUrl).toBeUndefined();
  });
});
