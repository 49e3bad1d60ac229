import { chatLimits, formatChatSseFrame, realtime, type parseClientFrame, type ServerFrame } from "../../contract";
import { heldEventStream } from "../http/held-event-stream";
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

/** What a client frame sent over HTTP is about: its chat (if named) and its client message id. */
export function frameTarget(parsed: ReturnType<typeof parseClientFrame>): { chatId?: string; clientMessageId?: string } {
  if (!parsed.ok) return {};
  const frame = parsed.frame;
  if (frame.event === "join" || frame.event === "leave") return { chatId: frame.room };
  if (frame.event === "stop") return { chatId: frame.data.chatId };
  return { chatId: frame.data.chatId, clientMessageId: frame.data.clientMessageId };
}

/** The chat a server frame is about, if any. */
function chatOf(frame: ServerFrame): string | undefined {
  switch (frame.event) {
    case "new-message":
      return frame.data.message.chatId;
    case "thinking":
    case "message-delta":
      return frame.data.chatId;
    case "message-error":
      return frame.data.chatId;
    default:
      return undefined;
  }
}

/** The client message id a server frame answers, if any. */
const answers = (frame: ServerFrame): string | undefined =>
  frame.event === "new-message" || frame.event === "thinking" || frame.event === "message-error" ? frame.data.clientMessageId : undefined;

export interface HttpFrameSink extends FrameSink {
  /** The answer to the POST: the frames as server-sent events. */
  readonly response: Response;
  readonly closed: Promise<void>;
  /** A frame broadcast to the room: written when it is about this stream's chat (or a count of messages left). */
  deliver(frame: ServerFrame): void;
  /** Ends the stream when `done` settles; `null`: at once. */
  closeAfter(done: Promise<void> | null): void;
}

/**
 * One HTTP request's event stream, for a client whose network blocks WebSockets. It carries the
 * frames of the one chat its client frame is about: the frame's own chat, or the chat a new
 * message created (known from the frame answering its `clientMessageId`), and the joined ones;
 * plus the counts of messages left. So two streams of one tab never carry the same frame. A
 * comment line every realtime.httpHeartbeatMs keeps proxies from cutting a quiet stream; a client
 * that stops reading is dropped once realtime.httpMaxQueuedFrames wait; the stream ends at the
 * latest after realtime.httpStreamMaxMs (the client joins again). A client that goes away only
 * ends its stream: the reply goes on and is saved.
 */
export function httpFrameSink(identity: RoomIdentity, request: { chatId?: string; clientMessageId?: string }): HttpFrameSink {
  const stream = heldEventStream({ heartbeatMs: realtime.httpHeartbeatMs, maxMs: realtime.httpStreamMaxMs, maxQueued: realtime.httpMaxQueuedFrames });
  let state: ConnectionState | null = { identity, watching: [] };
  let chatId = request.chatId;
  const close = () => stream.close();
  return {
    get state() {
      return state;
    },
    setState(next) {
      state = next(state);
      return state;
    },
    send(message) {
      stream.write(`data: ${message}\n\n`);
    },
    close,
    deliver(frame) {
      const about = chatOf(frame);
      if (request.clientMessageId && answers(frame) === request.clientMessageId) chatId ??= about;
      // An `inbox` frame (the owner's live inbox) is about no chat: never written here; a dashboard
      // without a socket polls the inbox instead (chat/README.md).
      const ours = frame.event === "remaining-messages" || (about !== undefined && (about === chatId || state?.watching.includes(about)));
      if (ours) stream.write(formatChatSseFrame(frame));
    },
    closed: stream.closed,
    closeAfter(done) {
      if (done === null) close();
      else void done.then(close);
    },
    response: stream.response,
  };
}
