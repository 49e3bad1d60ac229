import * as C from "./contract";
import type { WidgetSendMessageData, WidgetServerFrame } from "../../../contract/schemas/widget";
import { failureOf, messagesPath, request, socketPath } from "./api";
import type { Chunks } from "./chunks";
import { parseFrame, toFrame } from "./frames";

/**
 * How a visitor session talks to the server: a WebSocket at /parties/widget/{sessionId}?key=…,
 * reconnecting with the spec's policy (1 s doubling to 5 s, 5 attempts, 10 s connect timeout), and
 * POST …/messages read as Server-Sent Events whenever the socket is not open (it failed to open,
 * is blocked by a proxy, or was given up on). A message sent while the socket is connecting waits
 * for it (at most its connect timeout), so answers stream over the socket whenever they can. Frames may arrive twice (a reply sent over HTTP while the
 * socket reconnects): the controller applies them idempotently.
 */
export interface TransportEvents {
  onFrame(frame: WidgetServerFrame): void;
  /** The reply to `clientMessageId` will not come: the request failed or the stream ended early. */
  onLost(clientMessageId: string, error: string | null, status: number, reason?: string): void;
}

/** What the visitor's transport (socket + SSE) needs besides the events. */
export interface VisitorTransportEvents extends TransportEvents {
  /** The verified visitor's token now (it may be refreshed while the conversation is open). */
  token(): string | null;
  /** Loads the SSE reader (a chunk: most visitors' sockets connect and never need it). */
  chunk(name: "sse"): Promise<Chunks["sse"] | null>;
}

export interface Transport {
  send(data: WidgetSendMessageData): void;
  /** Stops the reply being written. True when it was stopped here (the HTTP stream aborted). */
  stop(): boolean;
  /** The socket, open or not (the handoff chunk sends the visitor's `typing` there, and reads its event stream while it is not open). */
  live(): WebSocket | null;
  close(): void;
}


export function createTransport(host: string, key: string, sessionId: string, events: VisitorTransportEvents): Transport {
  let socket: WebSocket | null = null;
  let failures = 0;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The message whose reply is awaited, and the HTTP stream carrying it (if not the socket). */
  let inFlight: string | null = null;
  let stream: AbortController | null = null;
  /** A message sent while the socket was still connecting: it goes once the socket opens or fails. */
  let waiting: WidgetSendMessageData | null = null;
  const viaSocket = (ws: WebSocket, event: string, data: object) => ws.send(JSON.stringify({ event, data }));

  const frame = (f: WidgetServerFrame | null) => {
    if (!f) return;
    if (f.event === "message-error" || (f.event === "new-message" && f.data.message.role !== "user" && f.data.message.status !== "streaming")) inFlight = null;
    try {
      events.onFrame(f);
    } catch {
      // A malformed event must not break the chat or the page.
    }
  };
  const lost = (id: string, error: string | null, status: number, reason?: string) => {
    if (inFlight !== id) return;
    inFlight = null;
    events.onLost(id, error, status, reason);
  };

  function connect() {
    if (closed) return;
    let ws: WebSocket;
    try {
      const token = events.token();
      ws = new WebSocket(
        `${host.replace(/^http/, "ws")}${socketPath(sessionId)}?${C.keyQuery}=${encodeURIComponent(key)}${token ? `&${C.tokenQuery}=${encodeURIComponent(token)}` : ""}`,
      );
    } catch {
      return;
    }
    socket = ws;
    const timeout = setTimeout(() => ws.close(), C.connectTimeoutMs);
    ws.onopen = () => {
      clearTimeout(timeout);
      failures = 0;
      if (waiting) viaSocket(ws, "send-message", waiting);
      waiting = null;
    };
    ws.onmessage = (e) => frame(parseFrame(e.data));
    ws.onclose = (e) => {
      clearTimeout(timeout);
      // 4003: the room refused this visitor (assistant switched off, origin removed): no retries.
      if (e.code === 4003) failures = C.reconnectAttempts;
      if (socket === ws) socket = null;
      if (closed) return;
      // The socket could not open: the waiting message goes over HTTP. A reply streaming over
      // this socket is cut off: say so (the visitor can retry).
      if (waiting) void post(waiting);
      else if (inFlight && !stream) lost(inFlight, null, 0);
      waiting = null;
      if (++failures < C.reconnectAttempts) {
        retryTimer = setTimeout(connect, Math.min(C.reconnectDelayMinMs * 2 ** (failures - 1), C.reconnectDelayMaxMs));
      }
      // else: HTTP (SSE) from now on.
    };
  }

  async function post(data: WidgetSendMessageData) {
    const id = data.clientMessageId;
    const abort = (stream = new AbortController());
    try {
      // Not loaded: the reply is lost as on a network error (the visitor gets Retry).
      const sse = await events.chunk("sse");
      if (!sse) return lost(id, null, 0);
      const res = await request(host, key, messagesPath(sessionId), data, abort.signal, events.token(), "text/event-stream");
      if (!res.ok || !res.body) {
        const f = await failureOf(res);
        return lost(id, f.error, res.status, f.reason);
      }
      await sse.readStream(res.body, (event, json) => frame(toFrame(event, json)));
      lost(id, null, 0);
    } catch {
      if (!abort.signal.aborted) lost(id, null, 0);
    } finally {
      if (stream === abort) stream = null;
    }
  }

  connect();

  return {
    send(data) {
      inFlight = data.clientMessageId;
      // readyState 1: OPEN, 0: CONNECTING.
      if (socket?.readyState === 1) viaSocket(socket, "send-message", data);
      else if (socket?.readyState === 0) waiting = data;
      else void post(data);
    },
    stop() {
      // Over HTTP the server finishes (and saves) the answer anyway: the widget stops showing it.
      if (stream || waiting) {
        stream?.abort();
        inFlight = waiting = null;
        return true;
      }
      if (socket?.readyState === 1) viaSocket(socket, "stop", {});
      return false;
    },
    live: () => socket,
    close() {
      closed = true;
      waiting = null;
      clearTimeout(retryTimer);
      stream?.abort();
      socket?.close();
      socket = null;
    },
  };
}

