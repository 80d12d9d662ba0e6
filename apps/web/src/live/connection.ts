/**
 * The live stream: a WebSocket to the server that survives drops. On every (re)connect it says
 * `resume(since = last seq in the store)`; the server promises exactly the events after that, in
 * order, so the view resumes with no gap and no duplicates. Anything at or below the last seq is
 * dropped anyway (belt and braces for a resend racing a reconnect).
 *
 * A socket can also die without closing: the server's machine asleep or its process stopped
 * (Ctrl-Z), a Wi-Fi or VPN gone under a shared page. The browser then says nothing for minutes,
 * and a "connected" badge would sit over a timeline that no longer moves. So the page pings every
 * PING_MS (the server answers `pong`), and a socket from which nothing came for SILENT_MS is given
 * up and replaced, as a closed one is.
 */
import {
  API,
  TOKEN_HEADER,
  type ClientMessage,
  type ClusterReachability,
  type FooApiPresence,
  type InformerHealth,
  type ObjectsSnapshot,
  type RecordingFailure,
  type ServerInfo,
  type ServerMessage,
} from "@loopscope/protocol";
import { decodeEventLines, decodeEventRecords, type TraceEvent } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import { feedSession, type Feeding } from "../replay/load.ts";
import { serverLines } from "../store/logLines.ts";

/** `replaced`: a server answers at the address but refuses this page's token (see probe). */
export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "replaced" | "closed";

export interface ConnectionState {
  status: ConnectionStatus;
  info?: ServerInfo;
  objects?: ObjectsSnapshot;
  /** A kubeconfig's cluster: whether it answers loopscope (the server says so on connect). */
  cluster?: ClusterReachability;
  /** A live run: whether its cluster serves the Foo API (the server says so on connect). */
  fooApi?: FooApiPresence;
  /** A live run: whether the controller's informers list and watch (the server says so on connect). */
  informers?: InformerHealth;
  /** A live run whose recording could not be written (the server says so on connect). */
  recording?: RecordingFailure;
  /**
   * While reconnecting: whether anything answered HTTP at the server's address at the last try
   * (undefined: not asked yet).
   */
  serverAnswers?: boolean;
  /** Reconnects so far (a drop followed by a successful resume). */
  reconnects: number;
  error?: string;
}

const MIN_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;
const PING_MS = 5_000;
const SILENT_MS = 15_000;
const PROBE_MS = 3_000;

export class LiveConnection {
  state: ConnectionState = { status: "connecting", reconnects: 0 };
  private ws?: WebSocket;
  private backoff = MIN_BACKOFF_MS;
  private timer?: ReturnType<typeof setTimeout>;
  private pinger?: ReturnType<typeof setInterval>;
  /** When the socket last said anything, and when the pinger last ran (see alive). */
  private heard = 0;
  private ticked = 0;
  private stopped = false;
  private everOpened = false;
  private readonly listeners = new Set<() => void>();
  /** The replay workers reading a replayed trace into the session (see `catchUp`), once started. */
  private feeding?: Feeding;

  constructor(
    private readonly session: TraceSession,
    private readonly token: string,
    private readonly base: URL = new URL(globalThis.location.href),
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.feeding?.cancel();
    this.ws?.close();
    this.set({ status: "closed" });
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  get = (): ConnectionState => this.state;

  private set(p: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...p };
    for (const l of this.listeners) l();
  }

  private connect(): void {
    const url = new URL(API.ws, this.base);
    url.protocol = this.base.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("token", this.token);
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = MIN_BACKOFF_MS;
      if (this.everOpened) this.set({ reconnects: this.state.reconnects + 1 });
      this.everOpened = true;
      this.set({ status: "open", error: undefined, serverAnswers: undefined });
      this.send({ type: "resume", since: this.session.store.lastSeq() });
      this.heard = this.ticked = Date.now();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.alive(ws), PING_MS);
    };
    ws.onmessage = (ev) => {
      this.heard = Date.now();
      let m: ServerMessage;
      try {
        m = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      void this.handle(m);
    };
    ws.onclose = () => this.dropped(ws);
  }

  /** Pings; gives the socket up if nothing came from it for SILENT_MS. */
  private alive(ws: WebSocket): void {
    const now = Date.now();
    // A late tick: the page was busy or the machine asleep, and what came meanwhile may still
    // wait in the page's queue. Count the silence from now.
    if (now - this.ticked > 2 * PING_MS) this.heard = now;
    this.ticked = now;
    if (now - this.heard > SILENT_MS) {
      this.dropped(ws);
      ws.close();
      return;
    }
    this.send({ type: "ping", t: now });
  }

  /** The socket closed, or was given up: reconnect after the backoff. */
  private dropped(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.ws = undefined;
    clearInterval(this.pinger);
    if (this.stopped) return;
    // What the server said of its cluster is stale now; it says it again on reconnect.
    this.set({ status: "reconnecting", cluster: undefined });
    void this.probe().then((again) => {
      if (!again || this.stopped) return;
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    });
  }

  /**
   * Asks over HTTP why the socket is gone. Nothing answering at the address (loopscope stopped,
   * its machine asleep): the badge says so, and the page keeps trying. A server there that
   * refuses this page's token: loopscope was started again — each start makes a new token, and
   * is a new run whose seqs begin at 1, which this page cannot resume into — so it stops trying
   * and offers the new run (App). A browser does not tell a page why a WebSocket was refused.
   * Returns whether to try the socket again. Asked before each try rather than beside it: a
   * fetch racing the socket's handshake made Playwright's WebSocket routes drop their close.
   */
  private async probe(): Promise<boolean> {
    let status = 0;
    try {
      const res = await fetch(new URL(API.info, this.base), {
        headers: { [TOKEN_HEADER]: this.token },
        cache: "no-store",
        // A stopped process (Ctrl-Z) takes the connection and never answers.
        signal: AbortSignal.timeout(PROBE_MS),
      });
      status = res.status;
      void res.body?.cancel();
    } catch {
      // Nothing answered: status 0.
    }
    if (this.stopped) return false;
    if (status === 403) {
      this.set({ status: "replaced", serverAnswers: true });
      return false;
    }
    this.set({ serverAnswers: status !== 0 });
    return true;
  }

  private send(m: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  private append(events: readonly TraceEvent[]): void {
    if (this.feeding) {
      // The session's analysis runs in the replay workers now; a replay backend adds no events.
      this.set({ error: "events arrived after the replayed trace was loaded; not shown" });
      return;
    }
    const last = this.session.store.lastSeq();
    const fresh = events[0] && events[0].seq > last ? events : events.filter((e) => e.seq > last);
    this.session.push(fresh);
  }

  private async handle(m: ServerMessage): Promise<void> {
    switch (m.type) {
      case "hello":
        // A replay server read the file itself: what it could not use is the page's to show.
        // Sent again on every reconnect; shown once.
        if (!this.state.info && m.info.loadIssues) {
          this.session.addDiagnostics(
            m.info.loadIssues.map((i) => ({ ...i, line: i.line ?? 0 })),
            m.info.loadIssuesTotal,
          );
        }
        this.set({ info: m.info });
        // A replayed klog file's events leave their lines in the file: the server reads back
        // those the page shows.
        if (m.info.linesInFile) this.session.readLinesFrom(serverLines(this.base, this.token));
        return;
      case "events":
        this.append(decodeEventRecords(m.events));
        return;
      case "objects":
        this.set({ objects: m.objects });
        return;
      case "reachability":
        this.set({ cluster: m.cluster });
        return;
      case "fooApi":
        this.set({ fooApi: m.fooApi });
        return;
      case "informers":
        this.set({ informers: m.informers });
        return;
      case "recording":
        this.set({ recording: m.failure });
        return;
      case "catchUp": {
        try {
          const from = Math.max(m.from, this.session.store.lastSeq() + 1);
          const url = new URL(API.trace, this.base);
          url.searchParams.set("from", String(from));
          url.searchParams.set("to", String(m.to));
          const info = this.state.info;
          if (info?.linesInFile) url.searchParams.set("raw", "0");
          const headers = { [TOKEN_HEADER]: this.token };
          if (info?.mode === "replay" && this.session.store.length === 0 && !this.feeding) {
            // `loopscope replay FILE`: the whole trace, which never grows. Fetched and read like a
            // dropped file, in the replay workers, as it downloads: parsed and analysed on this
            // page's thread, a million events froze it for ~7 s, held ~850 MB, and past ~512 MB
            // of JSON would not fit the one string `text()` makes; fetched whole first, the page
            // showed nothing for the seconds the download took.
            this.feeding = feedSession(
              this.session,
              { url: url.href, headers },
              info.trace ?? "trace",
              m.to - from + 1,
            );
            await this.feeding.done;
          } else {
            const res = await fetch(url, { headers });
            if (!res.ok) throw new Error(`catch-up failed: HTTP ${res.status}`);
            this.append(decodeEventLines(await res.text()));
          }
        } catch (err) {
          this.set({ error: err instanceof Error ? err.message : String(err) });
        }
        this.send({ type: "resume", since: this.session.store.lastSeq() });
        return;
      }
      case "error":
        this.set({ error: m.message });
        return;
      case "pong":
        return;
    }
  }
}
