/** `loopscope replay`'s backend: a saved trace served over the same stream and API, read-only. */
import { execFileSync, spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API, TOKEN_HEADER, type ServerInfo, type ServerMessage } from "@loopscope/protocol";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { StreamClient } from "../ws/stream-client.ts";
import { REPO_ROOT } from "../up/web-build.ts";
import { startDashboardServer, type DashboardServer } from "./dashboard-server.ts";
import { loadTrace, renumberer, replayBackend } from "./replay-backend.ts";

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
    const { events: direct } = readTraceText(await readFile(file, "utf8"));
    expect(direct.length).toBeGreaterThan(10);
    await client.waitFor(direct.length);
    // The log lines stay in the file: the events leave them out, /api/lines reads them back.
    expect(client.events).toEqual(direct.map(({ raw: _raw, ...e }) => e));
    expect(info()).toMatchObject({
      mode: "replay",
      readOnly: true,
      trace: "create-foo.klog.log",
      linesInFile: true,
    });
    const get = (path: string) =>
      fetch(new URL(path, server!.url), { headers: { [TOKEN_HEADER]: server!.tokens.owner } });
    const wanted = [...direct.slice(-3), direct[0]].map((e) => e.line!);
    const lines = (await (await get(`${API.lines}?n=${wanted.join(",")},999999`)).json()) as Record<
      string,
      string
    >;
    expect(lines).toEqual(
      Object.fromEntries(wanted.map((n) => [String(n), direct.find((e) => e.line === n)!.raw])),
    );
    for (const bad of ["0", "x", "1,,2", Array(1001).fill(1).join(",")]) {
      expect((await get(`${API.lines}?n=${bad}`)).status, bad).toBe(400);
    }
    // A download gets the lines back; the dashboard's catch-up (raw=0) does not.
    const download = readTraceText(await (await get(API.trace)).text()).events;
    expect(download).toEqual(direct);
    const bare = readTraceText(await (await get(`${API.trace}?raw=0`)).text()).events;
    expect(bare).toEqual(client.events);
    const res = await fetch(new URL(API.action, server!.url), {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: server!.tokens.owner },
      body: JSON.stringify({ action: "createFoo", name: "x" }),
    });
    expect(res.status).toBe(409);
    await client.close();
  });

  it("reads lines back from a file appended to, and refuses them, saying why, once it is rewritten", async () => {
    const file = join(dir, "run.log");
    const text = await readFile(join(REPO_ROOT, "public", "traces", "create-foo.klog.log"), "utf8");
    await writeFile(file, text);
    const { loaded } = await serve(file);
    const last = readTraceText(text).events.at(-1)!;
    const read = () =>
      fetch(new URL(`${API.lines}?n=${last.line}`, server!.url), {
        headers: { [TOKEN_HEADER]: server!.tokens.owner },
      });
    expect(loaded.lines).toBeDefined();
    await appendFile(file, text);
    expect(await (await read()).json()).toEqual({ [String(last.line)]: last.raw });
    // `controller > run.log` again: the same offsets hold other lines.
    await writeFile(file, text.replace(/^I/gm, "W"));
    const refused = await read();
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "run.log was rewritten since loopscope replay read it: its lines are no longer this trace's (restart replay to read it again)",
    );
    // The download (GET /api/trace, its lines read back) says the same before its body: it was a
    // 200 with the header line, then a dropped connection.
    const download = await fetch(new URL(API.trace, server!.url), {
      headers: { [TOKEN_HEADER]: server!.tokens.owner },
    });
    expect(download.status).toBe(409);
    expect(((await download.json()) as { message: string }).message).toMatch(
      /^run\.log was rewritten since loopscope replay read it: /,
    );
  });

  it("reports malformed lines with their line numbers and loads the rest", async () => {
    const good = (await readFile(join(REPO_ROOT, "public", "traces", "create-foo.jsonl"), "utf8"))
      .trimEnd()
      .split("\n");
    const lines = [...good.slice(0, 4), "{not json", ...good.slice(4)];
    const file = join(dir, "damaged.jsonl");
    await writeFile(file, lines.join("\n") + "\n");
    const { loaded, client, info } = await serve(file);
    await client.waitFor(loaded.hub.lastSeq);
    expect(client.events.length).toBe(good.length - 1);
    expect(info().loadIssues).toEqual([expect.objectContaining({ line: 5 })]);
    expect(info().loadIssuesTotal).toBe(1);
    await client.close();
  });

  it("reads a gzip-compressed trace like the plain one", async () => {
    const plain = join(REPO_ROOT, "public", "traces", "create-foo.jsonl");
    const gz = join(dir, "create-foo.jsonl.gz");
    await writeFile(gz, gzipSync(await readFile(plain)));
    const [a, b] = [await loadTrace(plain), await loadTrace(gz)];
    expect(b.format).toBe("jsonl");
    expect(b.hub.lastSeq).toBe(a.hub.lastSeq);
    expect(b.hub.lastSeq).toBeGreaterThan(10);
    // Its trailer's CRC32 off: all of it is read, as `loopscope stats` reads it, with a warning.
    const flipped = join(dir, "create-foo-flipped.jsonl.gz");
    const bytes = gzipSync(await readFile(plain));
    bytes[bytes.length - 8] ^= 0x01;
    await writeFile(flipped, bytes);
    const c = await loadTrace(flipped);
    expect(c.hub.lastSeq).toBe(a.hub.lastSeq);
    expect(c.diagnostics.at(-1)).toMatchObject({
      level: "warn",
      message: expect.stringMatching(/^the gzip data failed its check \(incorrect data check\)/),
    });
  });

  it("keeps the lines of a gzip or UTF-16 klog file or a JSONL trace in its events (no offsets to read at)", async () => {
    const klog = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
    const gz = join(dir, "create-foo.klog.log.gz");
    await writeFile(gz, gzipSync(await readFile(klog)));
    // Windows PowerShell's `>`: UTF-16LE after a byte-order mark, its offsets not the text's.
    const utf16 = join(dir, "create-foo-utf16.klog.log");
    const text = await readFile(klog, "utf8");
    await writeFile(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    );
    const jsonl = join(REPO_ROOT, "public", "traces", "create-foo.jsonl");
    for (const file of [gz, utf16, jsonl]) {
      const loaded = await loadTrace(file);
      expect(loaded.lines, file).toBeUndefined();
      const { info } = await serve(file);
      expect(info().linesInFile).toBeUndefined();
      const res = await fetch(new URL(`${API.lines}?n=1`, server!.url), {
        headers: { [TOKEN_HEADER]: server!.tokens.owner },
      });
      expect(res.status).toBe(404);
      await server!.close();
      server = undefined;
    }
    const events = await (await loadTrace(gz)).hub.range(1, 1000);
    expect(events.filter((e) => e.raw !== undefined).length).toBeGreaterThan(10);
    const lines = text.split("\n");
    const fromUtf16 = await (await loadTrace(utf16)).hub.range(1, 1000);
    expect(fromUtf16.length).toBe(events.length);
    for (const e of fromUtf16) if (e.line !== undefined) expect(e.raw).toBe(lines[e.line - 1]);
  });

  it("replays a klog log from a FIFO, its lines kept in its events (a pipe cannot be read twice)", async () => {
    const klog = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
    const fifo = join(dir, "trace.fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", klog, fifo]);
    const written = new Promise((resolve) => writer.once("exit", resolve));
    const loaded = await loadTrace(fifo);
    expect(await written).toBe(0);
    const fromFile = await loadTrace(klog);
    expect(loaded.format).toBe("klog");
    expect(loaded.lines).toBeUndefined();
    expect(loaded.hub.lastSeq).toBe(fromFile.hub.lastSeq);
    const events = await loaded.hub.range(1, loaded.hub.lastSeq);
    expect(events.every((e) => typeof e.raw === "string")).toBe(true);
  });

  it("refuses a missing file, binary data or a text with no trace in it, with a one-line reason", async () => {
    await expect(loadTrace(join(dir, "nope.jsonl"))).rejects.toThrow(/no such file/);
    const text = join(dir, "notes.txt");
    await writeFile(text, "hello\nthis is not a trace\n");
    await expect(loadTrace(text)).rejects.toThrow(
      /notes\.txt has no STAGE events \(not a loopscope JSONL trace or a klog log of the controller\)$/,
    );
    const bin = join(dir, "blob.bin");
    await writeFile(bin, Uint8Array.from([1, 2, 0, 3, 10, 0, 0]));
    await expect(loadTrace(bin)).rejects.toThrow(/blob\.bin is not a text file \(binary data\)$/);
  });

  it("refuses an empty file and loopscope's own exports, saying what they are", async () => {
    const empty = join(dir, "empty.log");
    await writeFile(empty, "");
    await expect(loadTrace(empty)).rejects.toThrow(/empty\.log is empty$/);
    const blank = join(dir, "blank.jsonl");
    await writeFile(blank, "\n  \n\n");
    await expect(loadTrace(blank)).rejects.toThrow(/blank\.jsonl is empty$/);
    for (const [file, why] of [
      [
        "create-foo.chrome.json",
        "a Chrome trace export that loopscope convert made from create-foo.jsonl: open that file, or make a trace of this one with loopscope convert FILE --to jsonl",
      ],
      [
        "create-foo.otlp.json",
        "an OTLP/JSON export that loopscope convert made from create-foo.jsonl: open that file",
      ],
    ]) {
      await expect(loadTrace(join(REPO_ROOT, "public", "traces", file))).rejects.toThrow(
        `${file} is ${why}`,
      );
    }
    // Someone else's Chrome trace, pretty-printed: named, without claiming loopscope wrote it.
    const other = join(dir, "other.json");
    await writeFile(other, JSON.stringify({ traceEvents: [{ ph: "X", ts: 1 }] }, null, 2));
    await expect(loadTrace(other)).rejects.toThrow(
      /other\.json is a Chrome trace export, not a loopscope JSONL trace or a klog log of the controller$/,
    );
  });

  it("gives a download the replayed file's own header: its created, scenario and cluster", async () => {
    const file = join(REPO_ROOT, "public", "traces", "create-foo.jsonl");
    const { client } = await serve(file);
    const res = await fetch(new URL(API.trace, server!.url), {
      headers: { [TOKEN_HEADER]: server!.tokens.owner },
    });
    const [header] = (await res.text()).split("\n", 1);
    const [own] = (await readFile(file, "utf8")).split("\n", 1);
    expect(JSON.parse(header!)).toEqual(JSON.parse(own!));
    await client.close();
  });

  it("gives a klog log's download the log's start as its created, not the replay's time", async () => {
    const file = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
    const { client } = await serve(file);
    const res = await fetch(new URL(API.trace, server!.url), {
      headers: { [TOKEN_HEADER]: server!.tokens.owner },
    });
    const [header, first] = (await res.text()).split("\n", 2);
    const created = Date.parse((JSON.parse(header!) as { created: string }).created);
    expect(created).toBe(Math.floor((JSON.parse(first!) as { ts: number }).ts / 1000));
    await client.close();
  });

  it("loads a recording that has its header and no events yet", async () => {
    const file = join(dir, "fresh.jsonl");
    await writeFile(file, '{"loopscope":"trace","version":1,"source":"live"}\n');
    expect((await loadTrace(file)).hub.lastSeq).toBe(0);
  });

  it("reads klog times in the year it is given", async () => {
    const file = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
    const [first] = await (await loadTrace(file, 2019)).hub.range(1, 1);
    expect(new Date(first.ts / 1000).getUTCFullYear()).toBe(2019);
  });

  it("renumbers a file whose seqs have gaps, keeping causeSeq links", () => {
    const renumber = renumberer();
    const events = [
      { seq: 1, ts: 1, key: "k", stage: "watch", kind: "Foo", event: "add", name: "k" },
      { seq: 2, ts: 1, key: "k", stage: "watch", kind: "Foo", event: "add", name: "k" },
      { seq: 10, ts: 1, key: "k", stage: "watch", kind: "Foo", event: "add", name: "k" },
      { seq: 12, ts: 2, key: "k", stage: "enqueue", cause: "watch", causeSeq: 10 },
      { seq: 13, ts: 2, key: "k", stage: "enqueue", cause: "watch", causeSeq: 2 },
      { seq: 14, ts: 2, key: "k", stage: "enqueue", cause: "watch", causeSeq: 11 },
    ].map((e) => renumber(e as TraceEvent));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events[1]).not.toHaveProperty("extra");
    expect(events[3]).toMatchObject({ causeSeq: 3, extra: { fileSeq: 12 } });
    expect(events[4]).toMatchObject({ causeSeq: 2 });
    expect(events[5]).not.toHaveProperty("causeSeq");
  });
});
