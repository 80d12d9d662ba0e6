/**
 * One WebSocket client's view of the hub's stream.
 *
 * The client states what it has (`resume(since)`); the stream then sends every event with
 * seq > since, in order, in `events` batches, and follows the hub live. Per client the server
 * keeps only a cursor — events stay in the hub — so a slow client costs at most one batch past
 * the socket's high-water mark:
 * - while `bufferedAmount` is above `highWater`, nothing more is sent (checked again every
 *   `batchMs`);
 * - when the client is more than `maxLag` events behind (on resume, or because it is slow), it
 *   gets `catchUp{from,to}` and nothing more until it resumes — it fetches that range over HTTP.
 * Batches leave at most `batchMs` after the first event they carry, sooner when `batchEvents`
 * are waiting.
 * Replies to the client's own messages (`pong`, `error`) are held to the same bound: while the
 * socket is congested they are dropped, and a client that sends `MAX_UNREAD_REPLIES` messages in a
 * row while it reads none of the answers is closed (1008). Otherwise a client that writes tiny
 * frames and never reads had the server queue a reply to each, without limit (4 GB in 6 min).
 */
import type { WebSocket } from "ws";
import type { ClientMessage, ServerMessage } from "@loopscope/protocol";
import type { TraceHub } from "../hub/trace-hub.ts";

export interface StreamTuning {
  batchMs: number;
  batchEvents: number;
  highWater: number;
  maxLag: number;
}

export const DEFAULT_TUNING: StreamTuning = {
  batchMs: 20,
  batchEvents: 1000,
  highWater: 1024 * 1024,
  maxLag: 20_000,
};

/**
 * Messages answered while congested before the client is closed. The page pings every 5 s and
 * drains what it is sent, so it never comes near this; a client that does not read reaches it
 * after a few hundred bytes of its own.
 */
export const MAX_UNREAD_REPLIES = 100;

/** The close reason of a client that sends without reading (≤ 123 bytes, as a close frame allows). */
export const UNREAD_REPLIES_REASON = `${MAX_UNREAD_REPLIES} messages sent while not reading the replies`;

export class ClientStream {
  /** Last seq sent (or that the client said it has); undefined until the first resume. */
  private cursor: number | undefined;
  private waitingForResume = false;
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;
  private closed = false;
  /** Replies dropped in a row because the socket was congested (reset once it is not). */
  private unreadReplies = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: TraceHub,
    private readonly tuning: StreamTuning,
    private readonly log: (msg: string) => void = () => {},
  ) {
    this.unsubscribe = hub.subscribe(() => this.schedule());
    ws.on("message", (data, isBinary) => this.onMessage(isBinary ? null : data.toString()));
    ws.on("close", () => this.close());
    ws.on("error", () => this.close());
  }

  /** Largest socket buffer seen right after a send: what this client costs the server. */
  peakBuffered = 0;
  /** Closed for sending `MAX_UNREAD_REPLIES` messages while reading none of the answers. */
  closedUnread = false;

  send(msg: ServerMessage): void {
    this.sendText(JSON.stringify(msg));
  }

  private sendText(text: string): void {
    if (this.closed) return;
    this.ws.send(text);
    this.peakBuffered = Math.max(this.peakBuffered, this.ws.bufferedAmount);
  }

  /** A reply to the client's own message: dropped while congested, the client closed past the budget. */
  private reply(msg: ServerMessage): void {
    if (this.closed) return;
    if (!this.congested) {
      this.unreadReplies = 0;
      return this.send(msg);
    }
    if (++this.unreadReplies === MAX_UNREAD_REPLIES) {
      this.closedUnread = true;
      this.ws.close(1008, UNREAD_REPLIES_REASON);
      this.close();
    }
  }

  get congested(): boolean {
    return this.ws.bufferedAmount > this.tuning.highWater;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  private onMessage(text: string | null): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text ?? "");
    } catch {
      return this.reply({ type: "error", message: "messages must be JSON text" });
    }
    // "null" or "3" parse too; reading .type of null threw out of the socket's message handler
    // and took the whole server down (any token holder, a share-link attendee included).
    if (typeof parsed !== "object" || parsed === null) {
      return this.reply({ type: "error", message: "messages must be JSON objects" });
    }
    const msg = parsed as ClientMessage;
    if (msg.type === "ping" && typeof msg.t === "number") {
      return this.reply({ type: "pong", t: msg.t });
    }
    if (msg.type === "resume" && Number.isSafeInteger(msg.since) && msg.since >= 0) {
      if (msg.since > this.hub.lastSeq) {
        this.reply({
          type: "error",
          message: `resume(${msg.since}) is past this stream's last seq ${this.hub.lastSeq}: a different run?`,
        });
      }
      this.cursor = msg.since;
      this.waitingForResume = false;
      return void this.pump();
    }
    this.reply({ type: "error", message: "expected resume{since} or ping{t}" });
  }

  /**
   * Arms the pump: at once when a full batch waits, else after batchMs; `backoff` (a congested
   * socket) always waits batchMs, so a slow client is polled, never spun on.
   */
  private schedule(backoff = false): void {
    if (this.timer || this.closed) return;
    const due =
      !backoff &&
      this.cursor !== undefined &&
      this.hub.lastSeq - this.cursor >= this.tuning.batchEvents;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.pump();
      },
      due ? 0 : this.tuning.batchMs,
    );
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.closed || this.waitingForResume || this.cursor === undefined) return;
    this.pumping = true;
    try {
      while (!this.closed && !this.waitingForResume && this.cursor < this.hub.lastSeq) {
        // Before the catchUp too: a client resuming from 0 again and again, never reading, got one
        // catchUp per resume.
        if (this.congested) return this.schedule(true);
        const last = this.hub.lastSeq;
        if (last - this.cursor > this.tuning.maxLag) {
          this.send({ type: "catchUp", from: this.cursor + 1, to: last });
          this.cursor = last;
          this.waitingForResume = true;
          return;
        }
        const from = this.cursor + 1;
        const to = Math.min(last, this.cursor + this.tuning.batchEvents);
        const lines = await this.hub.rangeLines(from, to);
        if (this.closed || this.waitingForResume || this.cursor !== from - 1) return;
        // The `events` message, assembled from each event's trace-file line as the hub encoded
        // it once (the "\n" ending each is JSON whitespace).
        this.sendText(`{"type":"events","events":[${lines.join(",")}]}`);
        this.cursor = to;
        this.unreadReplies = 0; // the socket drained: the client reads
      }
    } catch (err) {
      this.log(`stream: ${err instanceof Error ? err.message : String(err)}`);
      this.send({ type: "error", message: "could not read the requested events" });
    } finally {
      this.pumping = false;
      // A resume that arrived during an await found the pump busy: serve it now.
      if (!this.waitingForResume && this.cursor !== undefined && this.cursor < this.hub.lastSeq) {
        this.schedule(this.congested);
      }
    }
  }
}
