/**
 * A person taking over a visitor's conversation: the owner's live inbox, takeover, and the handoff
 * a visitor asks for. Limits: `handoffLimits`; messages: `handoffMessages`.
 *
 * Owner (signed in, the assistant's owner; another owner's ids answer 404):
 *   GET    /api/public-assistants/{id}/inbox?filter=&page=        → inboxResponse (latest activity first)
 *   POST   /api/public-assistants/{id}/inbox/watch { sessionId? } → 204: tell me of every visitor message
 *          (and stream the replies of `sessionId`) over my chat room's socket for handoffLimits.watchLeaseMs
 *   GET    /api/inbox/summary                                     → inboxSummaryResponse (every assistant of mine: the navigation badge)
 *   POST   …/chats/{sessionId}/takeover                           → 200 { session } (the assistant pauses for it)
 *   DELETE …/chats/{sessionId}/takeover                           → 200 { session } (back to the assistant)
 *   POST   …/chats/{sessionId}/messages { content }               → 201 { message } role "agent" with author; 409 unless taken over
 *   POST   …/chats/{sessionId}/typing { typing }                  → 204
 *   POST   …/chats/{sessionId}/read                               → 204 (unread back to 0)
 *   GET    …/chats/{sessionId}                                    → { session } with the person's messages and `handoff`
 * The owner's chat-room socket (`/parties/chat/user-{id}`) carries `inbox` server frames (inboxFrameData).
 *
 * Visitor (publishable key, and the visitor's token for a signed visitor):
 *   POST /api/widget/sessions/{sessionId}/handoff { email? }   → 202 { handoff } (asks for a person; again with
 *        `email` to leave an address for the reply)
 *   DELETE the same path                                       → 202 { handoff } (back to the assistant while nobody took it)
 *   GET  /api/widget/sessions/{sessionId}/events               → text/event-stream of the session's server frames
 *        that no message of the visitor caused (a person's messages, typing, handoff changes): the
 *        widget's fallback when its socket cannot get through. Lasts handoffLimits.eventStreamMaxMs.
 *   GET  /api/widget/sessions/{sessionId}                      → widgetSessionResponse with `handoff` and role "agent" messages
 * Socket frames: `handoff` and `typing` out; `typing` in (the visitor types).
 */
import { z } from "zod";
import { handoffLimits } from "../constants";
import { handoffMessages as M } from "../messages";

export const handoffStateSchema = z.enum(handoffLimits.states);

/** The person who answers: the owner's display name, its initials, and a photo when they have one. */
export const agentAuthorSchema = z.object({
  name: z.string(),
  initials: z.string(),
  photoUrl: z.string().optional(),
});
export type AgentAuthor = z.infer<typeof agentAuthorSchema>;

/**
 * A conversation's handoff, as the visitor and the owner see it. `askEmailAt`: when the widget asks
 * an anonymous visitor for an address if nobody took it (absent once taken, or when one was left).
 */
export const conversationHandoffSchema = z.object({
  state: handoffStateSchema,
  requestedAt: z.number().optional(),
  takenAt: z.number().optional(),
  agent: agentAuthorSchema.optional(),
  askEmailAt: z.number().optional(),
  /** The visitor left an e-mail address for the reply (the address itself only reaches the owner). */
  emailLeft: z.boolean().optional(),
  /** The owner's texts for a visitor waiting for a person. */
  businessHours: z.string().optional(),
  replyTime: z.string().optional(),
});
export type ConversationHandoff = z.infer<typeof conversationHandoffSchema>;

// ---- The owner's settings (config.handoff in the assistant's create/update body) --------------

const idleEndMinutes = z
  .number({ error: M.idleEndInvalid(handoffLimits.idleEndMinutesOptions) })
  .refine((n) => (handoffLimits.idleEndMinutesOptions as readonly number[]).includes(n), { error: M.idleEndInvalid(handoffLimits.idleEndMinutesOptions) });
const emailAfter = handoffLimits.emailAfterMinutes;

/** What the owner may change; every field optional (an update merges it over the current values). */
export const handoffSettingsInput = z.object({
  /** The widget offers "Talk to a person" (off by default). */
  visitorAction: z.boolean({ error: "visitorAction must be true or false." }).optional(),
  businessHours: z.string().trim().max(handoffLimits.maxBusinessHoursChars, { error: M.businessHoursTooLong(handoffLimits.maxBusinessHoursChars) }).optional(),
  replyTime: z.string().trim().max(handoffLimits.maxReplyTimeChars, { error: M.replyTimeTooLong(handoffLimits.maxReplyTimeChars) }).optional(),
  idleEndMinutes: idleEndMinutes.optional(),
  emailAfterMinutes: z
    .number({ error: M.emailAfterRange(emailAfter.min, emailAfter.max) })
    .int({ error: M.emailAfterRange(emailAfter.min, emailAfter.max) })
    .min(emailAfter.min, { error: M.emailAfterRange(emailAfter.min, emailAfter.max) })
    .max(emailAfter.max, { error: M.emailAfterRange(emailAfter.min, emailAfter.max) })
    .optional(),
  /** E-mail the owner when a visitor asks for a person (default on). */
  emailOwner: z.boolean({ error: "emailOwner must be true or false." }).optional(),
});

/** The stored settings: a config saved before handoff existed reads as these defaults. */
export const handoffSettingsSchema = z.object({
  visitorAction: z.boolean().default(false),
  businessHours: z.string().default(""),
  replyTime: z.string().default(""),
  idleEndMinutes: z.number().int().default(handoffLimits.defaultIdleEndMinutes),
  emailAfterMinutes: z.number().int().default(emailAfter.default),
  emailOwner: z.boolean().default(true),
});
export type HandoffSettings = z.infer<typeof handoffSettingsSchema>;
export const defaultHandoffSettings: HandoffSettings = handoffSettingsSchema.parse({});

// ---- Owner: inbox, takeover, a person's messages ---------------------------------------------

export const inboxQuery = z.object({
  filter: z.enum(handoffLimits.inboxFilters, { error: M.filterInvalid(handoffLimits.inboxFilters) }).default("all"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type InboxQuery = z.input<typeof inboxQuery>;

/** One conversation in the inbox: enough for its row, without its messages. */
export const inboxConversationSchema = z.object({
  sessionId: z.string(),
  /** The visitor's first question (or "New conversation" before one). */
  title: z.string(),
  /** The last message's text, shortened, and who wrote it. */
  preview: z.string(),
  previewRole: z.enum(["user", "assistant", "agent"]).optional(),
  lastMessageAt: z.number().nullable(),
  messageCount: z.number().int(),
  /** Visitor messages the owner has not opened since they came. */
  unread: z.number().int(),
  /** A visitor socket or event stream is open now. */
  live: z.boolean(),
  handoff: conversationHandoffSchema,
  /** The verified visitor, when signed; else the visitor's locale and page for context. */
  visitor: z.object({ id: z.string(), name: z.string().optional(), email: z.string().optional() }).optional(),
  locale: z.string().optional(),
  referrer: z.string().optional(),
  /** The e-mail address the visitor left for the reply (owner only). */
  contactEmail: z.string().optional(),
});
export type InboxConversation = z.infer<typeof inboxConversationSchema>;

export const inboxCountsSchema = z.object({
  needsPerson: z.number().int(),
  withPerson: z.number().int(),
  live: z.number().int(),
  unread: z.number().int(),
});
export type InboxCounts = z.infer<typeof inboxCountsSchema>;

export const inboxResponse = z.object({
  conversations: z.array(inboxConversationSchema),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
  counts: inboxCountsSchema,
});
export type InboxResponse = z.infer<typeof inboxResponse>;

export const inboxSummaryResponse = z.object({
  assistants: z.array(z.object({ assistantId: z.string(), name: z.string(), needsPerson: z.number().int(), unread: z.number().int() })),
});
export type InboxSummaryResponse = z.infer<typeof inboxSummaryResponse>;

export const inboxWatchBody = z.object({ sessionId: z.string().trim().min(1).max(100).optional() });

export const agentMessageBody = z.object({
  content: z
    .string({ error: M.contentRequired })
    .max(handoffLimits.maxMessageChars, { error: M.contentTooLong(handoffLimits.maxMessageChars) })
    .refine((s) => s.trim().length > 0, { error: M.contentRequired }),
});
export type AgentMessageBody = z.input<typeof agentMessageBody>;

export const typingBody = z.object({ typing: z.boolean({ error: M.typingInvalid }) });

// ---- Visitor ---------------------------------------------------------------------------------

export const widgetHandoffBody = z.object({
  email: z
    .string({ error: M.emailInvalid })
    .trim()
    .max(handoffLimits.maxEmailChars, { error: M.emailTooLong(handoffLimits.maxEmailChars) })
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: M.emailInvalid })
    .optional(),
});
export type WidgetHandoffBody = z.input<typeof widgetHandoffBody>;
export const widgetHandoffResponse = z.object({ handoff: conversationHandoffSchema });

// ---- Frames ----------------------------------------------------------------------------------

/** Widget server frame `handoff`: the conversation's handoff changed (a person joined, left, the request was taken…). */
export const widgetHandoffFrameData = z.object({ chatId: z.string(), handoff: conversationHandoffSchema });
/** Widget server frame `typing` (the person types) and client frame `typing` (the visitor types; `chatId` ignored). */
export const typingFrameData = z.object({ chatId: z.string().optional(), typing: z.boolean(), name: z.string().optional() });

/**
 * The owner's chat-room frame `inbox`: something happened in one of their assistants' conversations.
 * - `message`: a message was saved (the visitor's, the assistant's reply, a person's); `conversation` is its new row.
 * - `handoff`: the handoff changed (requested, taken, handed back, ended by itself or by a revocation).
 * - `typing`: the visitor types (`typing`).
 * - `thinking` / `delta`: the reply of a conversation the owner opened (POST …/inbox/watch with its sessionId),
 *   `thinking.messageId` the reply's id, `delta.offset` where `delta.text` starts, as the chat's message-delta;
 *   deltas come in batches (at most one per handoffLimits.watchDeltaMs), the last one before the reply's `message`.
 */
export const inboxFrameData = z.object({
  assistantId: z.string(),
  sessionId: z.string(),
  kind: z.enum(["message", "handoff", "typing", "thinking", "delta"]),
  conversation: inboxConversationSchema.optional(),
  /** `message`: the saved message, in the owner's history shape (schemas/public-assistants.ts visitorMessageSchema). */
  message: z.unknown().optional(),
  typing: z.boolean().optional(),
  /** `thinking`: the id of the reply being written (its deltas and its `message` carry the same). */
  messageId: z.string().optional(),
  delta: z.object({ messageId: z.string(), offset: z.number().int().min(0), text: z.string() }).optional(),
});
export type InboxFrameData = z.infer<typeof inboxFrameData>;
