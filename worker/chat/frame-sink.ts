import { chatLimits, formatChatSseFrame, realtime, type ServerFrame } from "../../contract";
import type { ActiveReply } from "./active-replies";
import type { RoomIdentity } from "./room-identity";

/** What the room keeps per connection: who it is, and the chats it joined (join-{chatId}). */
export interface ConnectionState {
  readonly identity: RoomIdentity;
  /** Bounded by chatLimits.maxWatchedRooms. */
  readonly watching: readonly string[];
}

/**
 * Where the room sends frames: a partyserver socket, or one HTTP request's event stream
 * (httpFrameSink). The frame handlers of the room take either.
 */
export interface FrameSink {
  readonly state: ConnectionState | null;
  setState(next: (previous: ConnectionState | null) => ConnectionState): unknown;
  send(message: string): void;
  close(code?: number, reason?: string): void;
}

/** Sends one frame; a sink that is already closing is skipped (a socket catches up on reconnect). */
export function sendFrame(sink: FrameSink, frame: ServerFrame) {
  try {
    sink.send(JSON.stringify(frame));
  } catch {
    // closed meanwhile
  }
}

/** Watch a chat (join-{chatId}): the newest chatLimits.maxWatchedRooms are kept. */
export function watchChat(sink: FrameSink, chatId: string) {
  sink.setState((s) => ({ identity: s!.identity, watching: [...s!.watching.filter((room) => room !== chatId), chatId].slice(-chatLimits.maxWatchedRooms) }));
}

/**
 * A reply in progress as a tab that (re)joins needs it: a regenerate's restarted copy first (so a
 * tab still showing the old text drops it), `thinking`, then its text so far from offset 0.
 */
export function sendSnapshot(sink: FrameSink, reply: ActiveReply) {
  if (!reply.messageId) return;
  if (reply.regenerating) sendFrame(sink, { event: "new-message", data: { message: reply.regenerating } });
  sendFrame(sink, { event: "thinking", data: { chatId: reply.chatId, messageId: reply.messageId } });
  if (reply.text) sendFrame(sink, { event: "message-delta", data: { chatId: reply.chatId, messageId: reply.messageId, delta: reply.text, offset: 0 } });
}

/** The chat whose reply a frame ends (its final `new-message`, or a `message-error`), if any. */
export function endedChat(frame: ServerFrame): string | undefined {
  if (frame.event === "message-error") return frame.data.chatId;
  const message = frame.event === "new-message" ? frame.data.message : null;
  return message?.role === "assistant" && message.status !== "streaming" ? message.chatId : undefined;
}

export interface HttpFrameSink extends FrameSink {
  /** The answer to the POST: the frames as server-sent events. */
  readonly response: Response;
  readonly closed: Promise<void>;
  /** Frames broadcast to the room while the stream is open (other tabs' replies included). */
  deliver(frame: ServerFrame): void;
  /** Ends the stream once the reply of `chatId` ends; `null`: at once. */
  closeWhenDone(chatId: string | null): void;
}

/**
 * One HTTP request's event stream, for a client whose network blocks WebSockets: it gets the
 * frames its own work causes (refusals, the reply it asked for) and every frame broadcast while it
 * is open, as a socket would. A comment line every realtime.httpHeartbeatMs keeps proxies from
 * cutting a quiet stream; the stream ends at the latest after realtime.httpStreamMaxMs (the client
 * joins again). A client that goes away only closes its stream: the reply goes on and is saved.
 */
export function httpFrameSink(identity: RoomIdentity): HttpFrameSink {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let state: ConnectionState | null = { identity, watching: [] };
  let open = true;
  let following: string | null = null;
  /** Chats whose reply ended while the stream was open (a join may learn of it late). */
  const ended = new Set<string>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const write = (text: string) => {
    if (open) writer.write(encoder.encode(text)).catch(() => close());
  };
  const heartbeat = setInterval(() => write(": keep-alive\n\n"), realtime.httpHeartbeatMs);
  const deadline = setTimeout(() => close(), realtime.httpStreamMaxMs);
  const close = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    clearTimeout(deadline);
    writer.close().catch(() => {});
    resolveClosed();
  };
  const deliver = (frame: ServerFrame) => {
    write(formatChatSseFrame(frame));
    const chatId = endedChat(frame);
    if (!chatId) return;
    ended.add(chatId);
    if (chatId === following) close();
  };
  return {
    get state() {
      return state;
    },
    setState(next) {
      state = next(state);
      return state;
    },
    send(message) {
      write(`data: ${message}\n\n`);
    },
    close,
    deliver,
    closed,
    closeWhenDone(chatId) {
      if (chatId === null || ended.has(chatId)) close();
      else following = chatId;
    },
    response: new Response(readable, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-store, no-transform",
        "x-accel-buffering": "no",
      },
    }),
  };
}
