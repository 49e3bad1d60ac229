/**
 * The realtime protocol of the chat (DESIGN.md "Contracts" → Realtime): WebSocket at
 * `/parties/chat/{roomId}?token=…` or `?guestSessionId=…`, every frame `{ "event", "data" }` JSON
 * in both directions. Both ends parse every frame they receive with these schemas.
 *
 * Client → server: `send-message` (a question; the reply streams), `regenerate` (the chat's last
 * reply written again in place: Regenerate, or Retry of a failed reply), `stop`, `join-{chatId}`,
 * `leave-{chatId}`. Server → client: `thinking`, `message-delta`, `new-message`, `message-error`,
 * `remaining-messages`.
 *
 * A regenerate streams with the same frames as a reply, under the reply's own id: first
 * `new-message` with the reply as it now stands (status streaming, empty text, `versions` holding
 * the earlier ones), then `thinking`, the deltas, and `new-message` (or `message-error`) with the
 * final version. A client that upserts messages by id therefore replaces the reply in place; no
 * question is added. A refused regenerate is a `message-error` with `chatId` and the frame's
 * `clientMessageId` (no `messageId`): nothing changed.
 */
import { z } from "zod";
import { chatLimits, guestSession } from "../constants";
import { chatMessages, serverMessages } from "../messages";
import { chatMessageSchema, chatSchema } from "./chat";
import { inboxFrameData } from "./handoff";

/** The party (Durable Object namespace) of user and guest chat rooms. */
export const chatParty = "chat";
export const partiesPrefix = "parties";
/** The room of a signed-in user: one per user, shared by all their tabs. */
export const userRoomId = (userId: string) => `user-${userId}`;
/** A guest's room is their guest session id (guest-{timestamp}-{random}). */
export const isGuestRoomId = (roomId: string) => guestSession.idPattern.test(roomId);
/** Path of a room's socket, without the query. */
export const chatRoomPath = (roomId: string) => `/${partiesPrefix}/${chatParty}/${encodeURIComponent(roomId)}`;

/**
 * The HTTP transport of the same frames, for networks that block WebSockets: POST one client frame
 * (JSON) here with the chat's usual credential (`Authorization`, or a guest's `X-Guest-Session-Id`);
 * the answer is `text/event-stream` whose events are server frames, `data: <frame JSON>`, for as
 * long as the frame's work runs (a reply: until it ends; a join: until the reply it caught up on
 * ends). `stop` and `leave` answer an empty stream.
 */
export const chatFramesPath = "/api/chat/frames";
/** One server frame as an SSE event of the HTTP transport. */
export const formatChatSseFrame = (frame: unknown) => `data: ${JSON.stringify(frame)}\n\n`;

/**
 * Close codes (4000–4999: the application's own) and reasons the server closes a chat socket with
 * when its credential is revoked (DESIGN.md: revocation reaches open sockets within a second).
 * A reason is at most 123 bytes (WebSocket close frame).
 */
export const chatSocketClose = {
  /** The token that opened the socket was revoked (logout, reset, deletion…): signed out, final. */
  signedOut: { code: 4401, reason: serverMessages.sessionExpired },
  /**
   * The password was changed with the token that opened this socket: that token is revoked, and
   * the client that changed it now holds a new one. It reconnects with the new token; another
   * holder of the old token is refused when it tries.
   */
  credentialsReplaced: { code: 4409, reason: serverMessages.passwordChanged },
} as const;

// ---- client → server -------------------------------------------------------------------------

export const attachedFileSchema = z.object({
  name: z.string().trim().min(1).max(chatLimits.maxFileNameChars),
  /** Text already extracted by the upload call; it reaches the model (bounded), only the name is kept. */
  text: z.string().max(chatLimits.maxFileTextChars).optional().default(""),
});

/** `send-message` (spec section 3: isGuest, and userId for non-guests). */
export const sendMessageData = z
  .object({
    /** Omitted for a new chat: the server creates it and answers with its id. */
    chatId: z.string().min(1).max(100).optional(),
    /** For a new chat: the project it belongs to (its instructions become the system prompt). */
    projectId: z.string().min(1).max(100).nullable().optional(),
    content: z.string().max(chatLimits.maxMessageChars, { error: chatMessages.messageTooLong(chatLimits.maxMessageChars) }),
    files: z
      .array(attachedFileSchema)
      .max(chatLimits.maxFiles, { error: chatMessages.tooManyFiles(chatLimits.maxFiles) })
      .optional()
      .default([]),
    /** A model for this chat, instead of the user's setting. */
    model: z.string().trim().min(1).max(chatLimits.maxModelIdChars).optional(),
    /** The client's own id for the pending message, echoed back so it can swap it for the saved one. */
    clientMessageId: z.string().min(1).max(chatLimits.maxClientMessageIdChars),
    isGuest: z.boolean(),
    userId: z.string().max(100).optional(),
  })
  .refine((d) => d.content.trim().length > 0 || d.files.length > 0, { error: chatMessages.emptyMessage });
export type SendMessageData = z.input<typeof sendMessageData>;

/**
 * `regenerate`: write the chat's last reply again, answering the question before it with the
 * conversation up to that question (earlier versions of the reply are not in the model's context).
 * Only the last assistant message (complete, stopped or failed) of a chat of this room, never
 * while a reply is being written there; a guest's regenerate counts against their daily messages
 * as a message does. The earlier text is kept as a version (chatMessageSchema `versions`).
 * `files`: the question's attachments with their text, when the client still has it (only the
 * names are stored); without them the model is told the files' names only.
 */
export const regenerateData = z.object({
  chatId: z.string().min(1).max(100),
  /** The assistant reply to replace. */
  messageId: z.string().min(1).max(100),
  files: z
    .array(attachedFileSchema)
    .max(chatLimits.maxFiles, { error: chatMessages.tooManyFiles(chatLimits.maxFiles) })
    .optional()
    .default([]),
  /** The client's own id for this request, echoed on a refusal so it knows which one was refused. */
  clientMessageId: z.string().min(1).max(chatLimits.maxClientMessageIdChars).optional(),
});
export type RegenerateData = z.input<typeof regenerateData>;

/** `stop`: end the reply being written in this chat, keeping its text (status stopped). */
export const stopData = z.object({ chatId: z.string().min(1).max(100) });

/** A client frame after parsing: `join-{room}` and `leave-{room}` become { event, room }. */
export type ClientFrame =
  | { event: "send-message"; data: z.output<typeof sendMessageData> }
  | { event: "regenerate"; data: z.output<typeof regenerateData> }
  | { event: "stop"; data: z.output<typeof stopData> }
  | { event: "join"; room: string }
  | { event: "leave"; room: string };

const envelope = z.object({ event: z.string().min(1).max(200), data: z.unknown().optional() });

/** The `{ event, data }` envelope of a text frame a client sent, or null when it is not one. Never throws. */
export function readFrameEnvelope(raw: unknown): { event: string; data: unknown } | null {
  let json: unknown;
  try {
    json = typeof raw === "string" ? JSON.parse(raw) : undefined;
  } catch {
    return null;
  }
  const env = envelope.safeParse(json);
  return env.success ? { event: env.data.event, data: env.data.data } : null;
}
const roomEvent = /^(join|leave)-(.{1,100})$/s;

export type ClientFrameResult = { ok: true; frame: ClientFrame } | { ok: false; error: string };

/** Parses a frame a client sent. Never throws; `error` is safe to show (a chatMessages text). */
export function parseClientFrame(raw: unknown): ClientFrameResult {
  const env = readFrameEnvelope(raw);
  if (!env) return { ok: false, error: chatMessages.invalidFrame };
  const { event, data } = env;
  if (event === "send-message" || event === "regenerate" || event === "stop") {
    const schema = event === "send-message" ? sendMessageData : event === "regenerate" ? regenerateData : stopData;
    const parsed = schema.safeParse(data);
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? chatMessages.invalidFrame };
    return { ok: true, frame: { event, data: parsed.data } as ClientFrame };
  }
  const room = roomEvent.exec(event);
  if (room) return { ok: true, frame: { event: room[1] as "join" | "leave", room: room[2]! } };
  return { ok: false, error: chatMessages.invalidFrame };
}

/** Builders for the frames a client sends. */
export const clientFrames = {
  sendMessage: (data: SendMessageData) => ({ event: "send-message", data }),
  regenerate: (data: RegenerateData) => ({ event: "regenerate", data }),
  stop: (chatId: string) => ({ event: "stop", data: { chatId } }),
  join: (room: string) => ({ event: `join-${room}`, data: {} }),
  leave: (room: string) => ({ event: `leave-${room}`, data: {} }),
};

// ---- server → client -------------------------------------------------------------------------

/** The model started on a reply: `messageId` is the reply's id, already saved with status streaming. */
export const thinkingData = z.object({
  chatId: z.string(),
  messageId: z.string(),
  clientMessageId: z.string().optional(),
});

/**
 * Streamed text of a reply. `offset` is where `delta` starts in the reply's text: a client whose
 * text is shorter than `offset` missed a delta and replaces from 0 on the next full snapshot
 * (the server sends one with offset 0 on join).
 */
export const messageDeltaData = z.object({
  chatId: z.string(),
  messageId: z.string(),
  delta: z.string(),
  offset: z.number().int().min(0),
});

/**
 * A saved message: the user's (echoing `clientMessageId`) or the final reply (status complete,
 * or stopped). `chat` is the chat as it stands (id, title once generated, project).
 */
export const newMessageData = z.object({
  message: chatMessageSchema,
  clientMessageId: z.string().optional(),
  chat: chatSchema.optional(),
});

/**
 * Something failed. `error` is the text to show (spec: 'Message Error' with the server error).
 * When a reply failed, `message` is its saved partial text (status error) so the UI can offer retry.
 */
export const messageErrorData = z.object({
  error: z.string(),
  chatId: z.string().optional(),
  messageId: z.string().optional(),
  clientMessageId: z.string().optional(),
  message: chatMessageSchema.optional(),
});

/**
 * Messages left today: a guest's (the smaller of the guest and IP counters), after every reply, or
 * a signed-in account's while its e-mail is not verified, on connect and at each message. `scope`
 * says which counter is speaking: the guest's own, the pool every guest on their network shares
 * (a new guest on a busy network starts below `limit`), or the unverified account's own. A
 * verified account has no daily count: its room sends none.
 */
export const remainingMessagesData = z.object({
  remaining: z.number().int().min(0),
  limit: z.number().int().min(0),
  scope: z.enum(["guest", "network", "unverified"]).optional(),
});
export type RemainingMessages = z.infer<typeof remainingMessagesData>;

/**
 * On a signed-in user's room: they joined, left or were removed from `workspaceId`, their role
 * there changed, or its ownership moved. Sent after the change, with the revocation of what their
 * old role received (schemas/team.ts).
 */
export const teamChangedData = z.object({ workspaceId: z.string() });
export type TeamChangedData = z.infer<typeof teamChangedData>;

export const serverFrameSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("thinking"), data: thinkingData }),
  z.object({ event: z.literal("message-delta"), data: messageDeltaData }),
  z.object({ event: z.literal("new-message"), data: newMessageData }),
  z.object({ event: z.literal("message-error"), data: messageErrorData }),
  z.object({ event: z.literal("remaining-messages"), data: remainingMessagesData }),
  /** The owner's inbox (schemas/handoff.ts): only on a signed-in owner's room. */
  z.object({ event: z.literal("inbox"), data: inboxFrameData }),
  /** The user's membership or role in a workspace changed (schemas/team.ts): the dashboard re-reads GET /api/team. */
  z.object({ event: z.literal("team-changed"), data: teamChangedData }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
export type ServerEvent = ServerFrame["event"];
export type ServerFrameData<E extends ServerEvent> = Extract<ServerFrame, { event: E }>["data"];

/** JSON text parsed with `schema`; null when it is not JSON or does not match (never throws). */
export function parseJsonWith<S extends z.ZodType>(schema: S, raw: unknown, wrap: (json: unknown) => unknown = (j) => j): z.output<S> | null {
  if (typeof raw !== "string") return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(wrap(json));
  return parsed.success ? parsed.data : null;
}

/** Parses a frame the server sent; null for anything that does not match (never throws). */
export function parseServerFrame(raw: unknown): ServerFrame | null {
  return parseJsonWith(serverFrameSchema, raw);
}
