/**
 * The chat's realtime connection for the dashboard: a partysocket to /parties/chat/{roomId} with
 * the spec's reconnect policy (policy.ts), every received frame parsed with the contract (a frame
 * that does not parse is ignored, never thrown), the rooms the UI joined re-joined after every
 * reconnect (so a reply that streamed meanwhile is caught up), and status callbacks the UI maps
 * to toasts with statusToast(). Framework-free: the chat screen wraps it in its own hook.
 */
import { PartySocket } from "partysocket";
import {
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
  /** Closes for good (logout, auth change): no more status callbacks. */
  close(): void;
}

const OPEN = 1;

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

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    if (!closed || next.state === "closed") options.onStatus?.(next);
  };
  const giveUp = (why: FailureReason) => {
    // Status first: socket.close() dispatches its close event synchronously.
    setStatus({ state: "failed", reason: why });
    socket.close();
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
    const reconnected = everOpened;
    everOpened = wasOpen = true;
    failures = 0;
    for (const room of watching) socket.send(JSON.stringify(clientFrames.join(room)));
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
    if (failures > realtime.reconnectAttempts) return giveUp("exhausted");
    if (failures === 1 && !lost) {
      // Learn once per streak why the socket was refused; an authentication refusal is final.
      void probe().then((found) => {
        if (closed || status.state !== "reconnecting") return;
        reason = found;
        if (isFinal(found)) giveUp(found);
        else setStatus({ ...status, reason: found });
      });
    }
    setStatus({ state: "reconnecting", attempt: failures, reason: lost ? "network" : reason, lost });
  });

  const sendFrame = (frame: unknown): SendResult => {
    if (closed || socket.readyState !== OPEN) return { ok: false, error: realtimeMessages.noActiveConnection };
    socket.send(JSON.stringify(frame));
    return { ok: true };
  };

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
      return sendFrame(clientFrames.join(chatId));
    },
    leave(chatId) {
      watching.delete(chatId);
      return sendFrame(clientFrames.leave(chatId));
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
    close() {
      if (closed) return;
      closed = true;
      socket.close();
      setStatus({ state: "closed" });
    },
  };
}
