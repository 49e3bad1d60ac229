/**
 * The chat's realtime connection for the dashboard: a partysocket to /parties/chat/{roomId} with
 * the spec's reconnect policy (policy.ts), every received frame parsed with the contract (a frame
 * that does not parse is ignored, never thrown), the rooms the UI joined re-joined after every
 * reconnect (so a reply that streamed meanwhile is caught up), and status callbacks the UI maps
 * to toasts with statusToast(). Framework-free: the chat screen wraps it in its own hook.
 *
 * When WebSockets cannot get through (the socket never opens while the server answers HTTP, or it
 * drops again and again), the same frames go over HTTP (http-frames.ts): status `open` with
 * `transport: "http"`, each frame a POST whose answer streams the frames back, the watched chats
 * joined over HTTP, the socket tried again every realtime.socketRetryMs and used as soon as it
 * opens. A frame sent before the first socket is up is held until it opens (or goes over HTTP if
 * it fails or is slow), never refused.
 */
import { PartySocket } from "partysocket";
import {
  chatFramesPath,
  chatGuestSessionHeader,
  chatParty,
  chatRoomPath,
  chatSocketClose,
  clientFrames,
  parseServerFrame,
  realtime,
  realtimeMessages,
  type RegenerateData,
  type SendMessageData,
  type ServerFrame,
} from "../../../contract";
import { FramePostError, framesAvailable, postFrame, type HttpFramesOptions } from "./http-frames";
import { classifyProbe, isFinal, socketOptions, type ConnectionStatus, type FailureReason } from "./policy";

export interface ChatConnectionOptions {
  /** host[:port] of the server; the page's host by default. */
  host?: string;
  /** ws or wss; follows the page's protocol by default. */
  protocol?: "ws" | "wss";
  /** `user-<userId>` for a signed-in user (userRoomId), the guest session id for a guest. */
  roomId: string;
  /** A signed-in user's credential (Tala token or Firebase ID token)… */
  token?: string;
  /** …or a guest's session id (guest-{timestamp}-{random}). */
  guestSessionId?: string;
  /** Every frame the server sends, already checked against the contract. */
  onEvent: (frame: ServerFrame) => void;
  onStatus?: (status: ConnectionStatus) => void;
  /** For tests and non-browser use. */
  WebSocket?: unknown;
  fetch?: typeof fetch;
}

export type SendResult = { ok: true; clientMessageId?: string } | { ok: false; error: string };

/** What the UI sends: the connection adds isGuest, userId and (unless given) a clientMessageId. */
export type OutgoingMessage = Omit<SendMessageData, "isGuest" | "userId" | "clientMessageId"> & { clientMessageId?: string };

export interface ChatConnection {
  readonly status: ConnectionStatus;
  sendMessage(message: OutgoingMessage): SendResult;
  /** Watch a chat: the server catches this connection up on it now and after every reconnect. */
  join(chatId: string): SendResult;
  leave(chatId: string): SendResult;
  /** Write the chat's last reply again in place (Regenerate, Retry of a failed reply). */
  regenerate(data: RegenerateData): SendResult;
  /** Stop the reply being written in the chat (its text so far is kept). */
  stop(chatId: string): SendResult;
  /** Try again after a failure (resets the attempt count). */
  reconnect(): void;
  /**
   * Closes for good (logout, auth change): no more status callbacks. Returns the frames still held
   * for the first socket (never sent), for the connection that replaces this one.
   */
  close(): ClientFrame[];
  /** Sends a frame another connection held (close()). */
  forward(frame: ClientFrame): SendResult;
}

const OPEN = 1;
/** The chat a server frame is about, and the client message id it answers. */
const chatOfFrame = (frame: ServerFrame): string | undefined =>
  frame.event === "new-message" ? frame.data.message.chatId : frame.event === "remaining-messages" || frame.event === "inbox" || frame.event === "team-changed" ? undefined : frame.data.chatId;
const answersOf = (frame: ServerFrame): string | undefined =>
  frame.event === "new-message" || frame.event === "thinking" || frame.event === "message-error" ? frame.data.clientMessageId : undefined;

/** How long a frame sent before the first socket is up waits for it before going over HTTP. */
const HOLD_MS = 3000;
export type ClientFrame = ReturnType<(typeof clientFrames)[keyof typeof clientFrames]>;

export function createChatConnection(options: ChatConnectionOptions): ChatConnection {
  const isGuest = !options.token;
  const userId = !isGuest && options.roomId.startsWith("user-") ? options.roomId.slice("user-".length) : undefined;
  const query: Record<string, string> = options.token ? { token: options.token } : { guestSessionId: options.guestSessionId ?? "" };
  const location = (globalThis as { location?: { host: string; protocol: string } }).location;
  const host = options.host ?? location?.host ?? "localhost";
  const protocol = options.protocol ?? (location?.protocol === "https:" ? "wss" : "ws");
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const socket = new PartySocket({ host, protocol, party: chatParty, room: options.roomId, query, ...socketOptions, WebSocket: options.WebSocket });
  const watching = new Set<string>();
  let status: ConnectionStatus = { state: "connecting" };
  let everOpened = false;
  let wasOpen = false;
  let failures = 0;
  let reason: FailureReason = "network";
  let closed = false;
  /** True while reconnect() restarts the socket, whose synthetic close is not a failure. */
  let restarting = false;
  /** Frames go over HTTP while the socket cannot get through. */
  let overHttp = false;
  let probed = false;
  const drops: number[] = [];
  const held: ClientFrame[] = [];
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  let socketRetry: ReturnType<typeof setTimeout> | undefined;
  let socketRetries = 0;
  /** The HTTP streams open now: ended when the socket opens (it gets every frame of the room). */
  const streams = new Set<AbortController>();
  const aborter = new AbortController();
  const http: HttpFramesOptions = {
    origin: `${protocol === "wss" ? "https" : "http"}://${host}`,
    path: chatFramesPath,
    headers: options.token
      ? { authorization: `${options.token.startsWith("tala_") ? "Token" : "Bearer"} ${options.token}` }
      : { [chatGuestSessionHeader]: options.guestSessionId ?? "" },
    fetch: doFetch,
    signal: aborter.signal,
  };

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    if (!closed || next.state === "closed") options.onStatus?.(next);
  };
  const giveUp = (why: FailureReason) => {
    // Status first: socket.close() dispatches its close event synchronously.
    setStatus({ state: "failed", reason: why });
    clearTimeout(socketRetry);
    socket.close();
    for (const frame of held.splice(0)) refuseLocally(frame, realtimeMessages.noActiveConnection);
  };

  /** A frame that could not leave: a send or regenerate fails in the UI as a refused frame would. */
  const refuseLocally = (frame: ClientFrame, error: string) => {
    if (!("data" in frame) || !("clientMessageId" in frame.data)) return;
    const { chatId, clientMessageId } = frame.data;
    options.onEvent({ event: "message-error", data: { error, ...(chatId ? { chatId } : {}), ...(clientMessageId ? { clientMessageId } : {}) } });
  };

  /**
   * One frame over HTTP. A reply whose stream was cut before its end (the reply goes on on the
   * server) is caught up on by joining its chat again.
   */
  const sendOverHttp = (frame: ClientFrame) => {
    // A reply this frame is about is caught up on if its stream ends before the reply does.
    const replying = new Set<string>();
    const named = frame.event.startsWith("join-") ? frame.event.slice("join-".length) : "chatId" in frame.data ? frame.data.chatId : undefined;
    if (named && (frame.event === "send-message" || frame.event === "regenerate")) replying.add(named);
    const stream = new AbortController();
    streams.add(stream);
    const mine = "data" in frame && "clientMessageId" in frame.data ? frame.data.clientMessageId : undefined;
    let chat = named;
    postFrame({ ...http, signal: stream.signal }, frame, (received) => {
      if (stream.signal.aborted) return;
      if (received.event === "message-error" && !received.data.chatId && received.data.error === chatSocketClose.signedOut.reason) return giveUp("auth");
      // Only this frame's chat (named, or made by this message) and the counts: another stream carries the others.
      const about = chatOfFrame(received);
      if (mine !== undefined && answersOf(received) === mine) chat ??= about;
      if (received.event !== "remaining-messages" && about !== chat && !(about === undefined && answersOf(received) === mine)) return;
      if (received.event === "thinking") replying.add(received.data.chatId);
      if (received.event === "new-message" && received.data.message.status !== "streaming") replying.delete(received.data.message.chatId);
      if (received.event === "message-error" && received.data.chatId) replying.delete(received.data.chatId);
      if (!closed) options.onEvent(received);
    })
      .then(
        () => catchUp(replying),
        (error: unknown) => {
          if (closed || stream.signal.aborted) return;
          if (error instanceof FramePostError) {
            if (error.status === 401) return giveUp("auth");
            return refuseLocally(frame, error.message && error.status !== null ? error.message : realtimeMessages.noActiveConnection);
          }
          catchUp(replying);
        },
      )
      .finally(() => streams.delete(stream));
  };
  const catchUp = (chats: Set<string>) => {
    for (const chatId of chats) setTimeout(() => !closed && socket.readyState !== OPEN && route(clientFrames.join(chatId)), realtime.reconnectDelayMinMs);
  };

  /** Where a frame goes: the open socket, else held for the first socket, else HTTP. */
  const route = (frame: ClientFrame): SendResult => {
    if (closed || status.state === "failed") return { ok: false, error: realtimeMessages.noActiveConnection };
    if (socket.readyState === OPEN) {
      socket.send(JSON.stringify(frame));
      return { ok: true };
    }
    if (status.state === "connecting" && !overHttp) {
      held.push(frame);
      holdTimer ??= setTimeout(releaseHeld, HOLD_MS);
      return { ok: true };
    }
    sendOverHttp(frame);
    return { ok: true };
  };
  const releaseHeld = () => {
    clearTimeout(holdTimer);
    holdTimer = undefined;
    for (const frame of held.splice(0)) {
      if (socket.readyState === OPEN) socket.send(JSON.stringify(frame));
      else sendOverHttp(frame);
    }
  };

  /** The socket cannot get through but HTTP can: frames go over HTTP, the socket is retried now and then. */
  const useHttp = async () => {
    if (overHttp || closed || !(await framesAvailable(http)) || closed || socket.readyState === OPEN || status.state === "failed") return;
    overHttp = true;
    setStatus({ state: "open", reconnected: everOpened, transport: "http" });
    releaseHeld();
    for (const room of watching) sendOverHttp(clientFrames.join(room));
  };
  const retrySocketLater = () => {
    clearTimeout(socketRetry);
    const wait = Math.min(realtime.socketRetryMaxMs, realtime.socketRetryMs * 2 ** socketRetries);
    socketRetries += 1;
    socketRetry = setTimeout(() => {
      if (closed || !overHttp) return;
      failures = 0;
      restarting = true;
      try {
        socket.reconnect();
      } finally {
        restarting = false;
      }
    }, wait);
  };

  /** One plain GET of the room's address: why did the socket not open? */
  async function probe(): Promise<FailureReason> {
    const url = `${protocol === "wss" ? "https" : "http"}://${host}${chatRoomPath(options.roomId)}?${new URLSearchParams(query)}`;
    try {
      const res = await doFetch(url, { credentials: "omit", signal: AbortSignal.timeout(realtime.connectTimeoutMs) });
      return classifyProbe({ status: res.status, redirected: res.redirected });
    } catch {
      const reachable = await doFetch(url, { mode: "no-cors", credentials: "omit", signal: AbortSignal.timeout(realtime.connectTimeoutMs) }).then(
        () => true,
        () => false,
      );
      return classifyProbe({ status: null, reachable });
    }
  }

  socket.addEventListener("open", () => {
    // Back from HTTP: nothing was lost meanwhile, so no 'Reconnected'.
    const reconnected = everOpened && !overHttp;
    everOpened = wasOpen = true;
    overHttp = probed = false;
    failures = socketRetries = 0;
    clearTimeout(socketRetry);
    for (const stream of streams) stream.abort();
    for (const room of watching) socket.send(JSON.stringify(clientFrames.join(room)));
    releaseHeld();
    setStatus({ state: "open", reconnected });
  });

  socket.addEventListener("message", (event: MessageEvent) => {
    const frame = parseServerFrame(event.data);
    if (frame) options.onEvent(frame);
  });

  socket.addEventListener("close", (event: { code?: number }) => {
    if (closed || restarting || status.state === "failed") return;
    // The server revoked this socket's credential (signed out elsewhere, password reset, account
    // deleted): signed out, like a refused credential. Final: no reconnection loop.
    if (event.code === chatSocketClose.signedOut.code) return giveUp("auth");
    if (event.code === chatSocketClose.credentialsReplaced.code) {
      // The password was changed with this socket's token. The client that changed it is handed a
      // new token, which rebuilds the connection in a moment (no toast meanwhile); anyone else
      // with the old token is refused at the next attempt and told to sign in (probe → auth).
      wasOpen = false;
      setStatus({ state: "connecting" });
      return;
    }
    const lost = wasOpen;
    wasOpen = false;
    failures += 1;
    if (overHttp) {
      // Still blocked: HTTP carries on, and the socket is tried again later.
      if (failures > realtime.reconnectAttempts) retrySocketLater();
      return;
    }
    if (lost) {
      const now = Date.now();
      drops.push(now);
      while (drops.length > 0 && drops[0]! < now - realtime.dropsWindowMs) drops.shift();
      if (drops.length >= realtime.dropsBeforeHttp) void useHttp();
    }
    if (failures > realtime.reconnectAttempts) return giveUp("exhausted");
    // Any frame held for the first socket goes over HTTP now (it fails there too if nothing gets through).
    releaseHeld();
    if (!lost && !probed) {
      // Learn once per streak why the socket was refused; an authentication refusal is final, and
      // a server that answers the plain request while the socket fails is reached over HTTP.
      probed = true;
      void probe().then((found) => {
        if (closed || status.state !== "reconnecting") return;
        reason = found;
        if (isFinal(found)) giveUp(found);
        else {
          setStatus({ ...status, reason: found });
          if (found === "network") void useHttp();
        }
      });
    }
    setStatus({ state: "reconnecting", attempt: failures, reason: lost ? "network" : reason, lost });
  });

  const sendFrame = route;

  return {
    get status() {
      return status;
    },
    sendMessage(message) {
      const clientMessageId = message.clientMessageId ?? crypto.randomUUID();
      const result = sendFrame(clientFrames.sendMessage({ ...message, clientMessageId, isGuest, ...(userId ? { userId } : {}) }));
      return result.ok ? { ok: true, clientMessageId } : result;
    },
    join(chatId) {
      watching.add(chatId);
      // Not sent while the socket comes up: every watched chat is joined once it opens (or over HTTP).
      if (!closed && status.state !== "failed" && socket.readyState !== OPEN && !overHttp) return { ok: true };
      return sendFrame(clientFrames.join(chatId));
    },
    leave(chatId) {
      watching.delete(chatId);
      // Over HTTP a chat is only followed while its reply runs: nothing to leave.
      return socket.readyState === OPEN ? sendFrame(clientFrames.leave(chatId)) : { ok: true };
    },
    regenerate(data) {
      return sendFrame(clientFrames.regenerate(data));
    },
    stop(chatId) {
      return sendFrame(clientFrames.stop(chatId));
    },
    reconnect() {
      if (closed) return;
      failures = 0;
      reason = "network";
      setStatus({ state: "connecting" });
      restarting = true;
      try {
        socket.reconnect();
      } finally {
        restarting = false;
      }
    },
    forward(frame) {
      return sendFrame(frame);
    },
    close() {
      if (closed) return [];
      closed = true;
      const unsent = held.splice(0);
      clearTimeout(holdTimer);
      clearTimeout(socketRetry);
      aborter.abort();
      for (const stream of streams) stream.abort();
      socket.close();
      setStatus({ state: "closed" });
      return unsent;
    },
  };
}
