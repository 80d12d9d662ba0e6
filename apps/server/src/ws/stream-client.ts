/**
 * A Node client of the dashboard stream, following the protocol the web app follows: resume
 * from the last seq it holds, append `events` batches, and on `catchUp` fetch the range over
 * HTTP then resume. Used by tests and benchmarks (the browser has its own).
 */
import WebSocket from "ws";
import { API, TOKEN_HEADER, type ServerMessage } from "@loopscope/protocol";
import { decodeEventLines, decodeEventRecords, type TraceEvent } from "@loopscope/trace";

export interface StreamClientOptions {
  /** http://host:port/ of the dashboard server. */
  baseUrl: string;
  token: string;
  /** Called for every event in seq order, once each. */
  onEvent?: (e: TraceEvent, receivedAt: number) => void;
  onMessage?: (m: ServerMessage) => void;
  /** Keep every event in `events` (default true). */
  keep?: boolean;
}

export class StreamClient {
  readonly events: TraceEvent[] = [];
  lastSeq = 0;
  catchUps = 0;
  /** Breaches of the stream invariants seen (duplicates, gaps); empty when the server is right. */
  readonly violations: string[] = [];
  private ws: WebSocket | undefined;
  private fetching = false;

  constructor(private readonly opts: StreamClientOptions) {}

  /** Connects (or reconnects) and resumes from `lastSeq`; resolves once open. */
  connect(): Promise<void> {
    const wsUrl = new URL(API.ws, this.opts.baseUrl.replace(/^http/, "ws"));
    wsUrl.searchParams.set("token", this.opts.token);
    const ws = new WebSocket(wsUrl);
    this.ws = ws;
    ws.on("message", (data) => void this.onMessage(JSON.parse(data.toString()) as ServerMessage));
    return new Promise((resolve, reject) => {
      ws.once("open", () => {
        ws.send(JSON.stringify({ type: "resume", since: this.lastSeq }));
        resolve();
      });
      ws.once("error", reject);
    });
  }

  /** Drops the connection abruptly (as a network cut would). */
  cut(): void {
    this.ws?.terminate();
    this.ws = undefined;
  }

  async close(): Promise<void> {
    const ws = this.ws;
    this.ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once("close", () => resolve());
      ws.close();
    });
  }

  /** Resolves once the client holds every event up to `seq`. */
  async waitFor(seq: number, pollMs = 5): Promise<void> {
    while (this.lastSeq < seq || this.fetching) await new Promise((r) => setTimeout(r, pollMs));
  }

  private async onMessage(msg: ServerMessage): Promise<void> {
    this.opts.onMessage?.(msg);
    if (msg.type === "events") this.take(decodeEventRecords(msg.events));
    else if (msg.type === "catchUp") {
      this.catchUps++;
      this.fetching = true;
      const ws = this.ws;
      try {
        this.take(await this.fetchRange(msg.from, msg.to));
        if (ws && ws === this.ws && ws.readyState === WebSocket.OPEN) {
          ws.send(JSON.stringify({ type: "resume", since: this.lastSeq }));
        }
      } finally {
        this.fetching = false;
      }
    }
  }

  async fetchRange(from: number, to: number): Promise<TraceEvent[]> {
    const url = new URL(API.trace, this.opts.baseUrl);
    url.searchParams.set("from", String(from));
    url.searchParams.set("to", String(to));
    const res = await fetch(url, { headers: { [TOKEN_HEADER]: this.opts.token } });
    if (!res.ok) throw new Error(`GET ${url.pathname}: ${res.status}`);
    return decodeEventLines(await res.text());
  }

  private take(events: TraceEvent[]): void {
    const now = performance.now();
    for (const e of events) {
      // The server promises exactly the next seq each time; anything else is its bug.
      if (e.seq !== this.lastSeq + 1) {
        this.violations.push(`got seq ${e.seq} after ${this.lastSeq}`);
        if (e.seq <= this.lastSeq) continue;
      }
      this.lastSeq = e.seq;
      if (this.opts.keep !== false) this.events.push(e);
      this.opts.onEvent?.(e, now);
    }
  }
}
