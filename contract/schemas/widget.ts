/**
 * The embeddable widget's protocol (DESIGN.md "Contracts" → Widget over HTTP, Realtime).
 *
 * HTTP (key in the `X-Assistant-Key` header, CORS for any allowed Origin, no cookies):
 *   GET  /api/widget/config                      → widgetConfigResponse
 *   POST /api/widget/sessions                    createWidgetSessionBody → widgetSessionResponse (201 new, 200 resumed)
 *   GET  /api/widget/sessions/{id}               → widgetSessionResponse
 *   POST /api/widget/sessions/{id}/messages      widgetSendMessageData → text/event-stream of widget server events
 * Socket: `/parties/widget/{sessionId}?key=…`, frames `{ event, data }`: `send-message` and `stop` in,
 * `thinking`, `message-delta`, `new-message`, `message-error`, `remaining-messages` out.
 *
 * The frames reuse the chat's data shapes (schemas/realtime.ts): `chatId` there is the visitor
 * session id here. Both ends parse every frame and body they receive with these schemas.
 */
import { z } from "zod";
import { widget, widgetLanguages, widgetPositions, widgetSizes, widgetThemes } from "../constants";
import { widgetMessages } from "../messages";
import { cleanText } from "../text";
import { chatMessageSchema, messageRoles } from "./chat";
import { widgetLeadFormSchema } from "./leads";
import { agentAuthorSchema, conversationHandoffSchema, typingFrameData, widgetHandoffFrameData } from "./handoff";
import { proofOfWorkSchema, verifiedVisitorSchema, visitorTokenSchema } from "./visitors";
import { messageDeltaData, parseJsonWith, partiesPrefix, readFrameEnvelope, remainingMessagesData, thinkingData } from "./realtime";

/** The party (Durable Object namespace) of widget visitor sessions. */
export const widgetParty = "widget";
/** Path of a visitor session's socket, without the query (`?key=`). */
export const widgetRoomPath = (sessionId: string) => `/${partiesPrefix}/${widgetParty}/${encodeURIComponent(sessionId)}`;

/**
 * How the server closes a widget socket the assistant no longer serves: its key was regenerated,
 * it was deleted or switched off, or the socket's origin left the allowlist. 4003 is the code
 * shipped widgets already treat as final (no reconnection, widget-sdk/src/core/transport.ts);
 * the room sends a `message-error` with the matching reason first, so the widget shows why.
 */
export const widgetSocketClose = {
  unavailable: { code: 4003, reason: widgetMessages.unavailable, refusal: "unavailable" },
  originNotAllowed: { code: 4003, reason: widgetMessages.originNotAllowed, refusal: "origin-not-allowed" },
  /** The owner deleted the conversation (schemas/privacy.ts): the widget offers a new one. */
  conversationDeleted: { code: 4003, reason: widgetMessages.sessionNotFound, refusal: "session-not-found" },
} as const;
export type WidgetSocketClose = (typeof widgetSocketClose)[keyof typeof widgetSocketClose];
/**
 * The assistant has as many open widget sockets as it can revoke at once: this one closes, and
 * the widget (which treats 4003 as final for the socket) goes on over HTTP, authorised per call.
 */
export const widgetSocketCapacityClose = { code: 4003, reason: "Too many open connections: continuing over HTTP." } as const;

/** The widget's HTTP paths (relative to the server's origin). */
export const widgetApiPaths = {
  config: "/api/widget/config",
  sessions: "/api/widget/sessions",
  session: (sessionId: string) => `/api/widget/sessions/${encodeURIComponent(sessionId)}`,
  messages: (sessionId: string) => `/api/widget/sessions/${encodeURIComponent(sessionId)}/messages`,
  /** POST { email? } asks for a person (202 { handoff }); DELETE goes back to the assistant (schemas/handoff.ts). */
  handoff: (sessionId: string) => `/api/widget/sessions/${encodeURIComponent(sessionId)}/handoff`,
  /** GET: the session's event stream (a person's messages, typing, handoff) for a widget without a socket. */
  events: (sessionId: string) => `/api/widget/sessions/${encodeURIComponent(sessionId)}/events`,
  /** POST { fields, trigger? } → 201 { lead } (schemas/leads.ts). */
  lead: (sessionId: string) => `/api/widget/sessions/${encodeURIComponent(sessionId)}/lead`,
  /** GET with the key and X-Visitor-Token → visitorConversationsResponse (schemas/visitors.ts). */
  conversations: "/api/widget/conversations",
  /** POST { rating: "up" | "down" } (schemas/insights.ts). */
  feedback: (sessionId: string, messageId: string) =>
    `/api/widget/sessions/${encodeURIComponent(sessionId)}/messages/${encodeURIComponent(messageId)}/feedback`,
} as const;

// ---- GET /api/widget/config ----------------------------------------------------------------

export const widgetConfigResponse = z.object({
  assistant: z.object({
    id: z.string(),
    name: z.string(),
    headerText: z.string(),
    welcomeMessage: z.string(),
    primaryColor: z.string(),
    position: z.enum(widgetPositions),
    size: z.enum(widgetSizes),
    allowAttachments: z.boolean(),
    showSources: z.boolean(),
    /** Chips offered while the conversation has no message; absent from an older server. */
    starterQuestions: z.array(z.string()).optional(),
    /** "Talk to a person" (schemas/handoff.ts): offered when `visitorAction`; the owner's texts for a visitor waiting. Absent: not offered. */
    handoff: z.object({ visitorAction: z.boolean(), businessHours: z.string(), replyTime: z.string(), emailAfterMinutes: z.number().int() }).optional(),
    /** The owner's choices of look and language ("auto": the visitor's), the header's availability line and avatar; absent from an older server. */
    theme: z.enum(widgetThemes).optional(),
    language: z.enum(widgetLanguages).optional(),
    availabilityLine: z.string().optional(),
    avatarUrl: z.string().optional(),
    /** How visitors reach the owner (customization.contactLine), shown when the assistant cannot answer; absent: none. */
    contactLine: z.string().optional(),
    /** The owner's lead form (schemas/leads.ts) when it is on; absent: off. */
    leadForm: widgetLeadFormSchema.optional(),
    /** The owner's privacy line and its policy's https link (schemas/privacy.ts), each only when set; absent: none shown. */
    privacyNotice: z.string().optional(),
    privacyUrl: z.string().optional(),
  }),
  limits: z.object({ maxMessagesPerSession: z.number().int(), dailyLimit: z.number().int() }),
});
export type WidgetConfigResponse = z.infer<typeof widgetConfigResponse>;

// ---- Sessions ------------------------------------------------------------------------------

export const widgetSessionIdSchema = z.string().trim().min(1).max(widget.maxSessionIdChars);

/**
 * POST /api/widget/sessions. `visitorSessionId` resumes that session when it exists and belongs
 * to this assistant; otherwise (unknown, another assistant's, omitted) a new session is started.
 */
export const createWidgetSessionBody = z.object({
  visitorSessionId: widgetSessionIdSchema.optional(),
  /** The page the widget runs on (document.referrer or location.href); shown to the owner, so cleaned (contract/text.ts). */
  referrer: z.preprocess(cleanText, z.string().max(widget.maxReferrerChars)).optional().default(""),
  /** The visitor's language (navigator.language), e.g. "fr-FR"; cleaned too. */
  locale: z.preprocess(cleanText, z.string().max(widget.maxLocaleChars)).optional().default(""),
  /**
   * The site's signed visitor (schemas/visitors.ts). Verified on every call; a token that
   * does not verify is refused (401), never downgraded to an anonymous session.
   */
  userToken: visitorTokenSchema.optional(),
  /** The solved proof-of-work when the server asked for one (428 CHALLENGE_REQUIRED). */
  proof: proofOfWorkSchema.optional(),
});
export type CreateWidgetSessionBody = z.input<typeof createWidgetSessionBody>;

/** A knowledge file or web page an answer drew on; `excerpt` is the passage used, `url` a web page's address. */
export const widgetFileSourceSchema = z.object({ kind: z.literal("file").optional(), fileId: z.string(), name: z.string(), excerpt: z.string(), url: z.string().optional() });
/**
 * A curated answer (Q&A pair, schemas/qa.ts) the reply gave or drew on: the site's own answer,
 * shown as such (`name` is qaMessages.sourceLabel), never a file. It carries `fileId` (`qa:<qaId>`)
 * and `excerpt` too, so widgets that predate it still read it as a source.
 */
export const widgetQaSourceSchema = z.object({ kind: z.literal("qa"), qaId: z.string(), name: z.string(), fileId: z.string(), excerpt: z.string() });
/** The qa shape is tried first: a file source has no `kind` (or "file"). */
export const widgetSourceSchema = z.union([widgetQaSourceSchema, widgetFileSourceSchema]);
export type WidgetSource = z.infer<typeof widgetSourceSchema>;
export type WidgetQaSource = z.infer<typeof widgetQaSourceSchema>;

/**
 * A visitor session's message: the chat message shape (`chatId` is the visitor session id, role
 * `user` for the visitor, `assistant` for answers) plus the sources an answer drew on (present
 * when the owner turned showSources on and the answer used any).
 */
export const widgetMessageSchema = chatMessageSchema.extend({
  /** `agent`: a person of the site's team wrote it (schemas/handoff.ts), with `author`. */
  role: z.enum([...messageRoles, "agent"]),
  author: agentAuthorSchema.optional(),
  sources: z.array(widgetSourceSchema).optional(),
  /** The visitor's rating of this answer (POST widgetApiPaths.feedback), when given. */
  rating: z.enum(["up", "down"]).optional(),
  /** The assistant offers a person here (the visitor asked for one): the widget shows "Talk to a person" under it. */
  offersHandoff: z.boolean().optional(),
  /** The widget shows the owner's lead form under it: the visitor asked to be contacted, or the assistant did not know (schemas/leads.ts). */
  offersLeadForm: z.boolean().optional(),
  /** Why it offers the form: the visitor asked to be contacted, or the assistant did not know (the lead's `trigger`). */
  leadTrigger: z.enum(["asked", "unanswered"]).optional(),
});
export type WidgetMessage = z.infer<typeof widgetMessageSchema>;

/** Messages the visitor may still send: in this session, and today across the assistant. */
export const widgetRemainingSchema = z.object({ session: z.number().int().min(0), daily: z.number().int().min(0) });
export type WidgetRemaining = z.infer<typeof widgetRemainingSchema>;

/** POST /api/widget/sessions and GET /api/widget/sessions/{id}: messages oldest first. */
export const widgetSessionResponse = z.object({
  sessionId: z.string(),
  messages: z.array(widgetMessageSchema),
  remaining: widgetRemainingSchema,
  /** The verified visitor this conversation belongs to (absent for anonymous ones). */
  visitor: verifiedVisitorSchema.optional(),
  /** Whether a person was asked for or has the conversation (absent: never; schemas/handoff.ts). */
  handoff: conversationHandoffSchema.optional(),
  /** This conversation already sent a lead (schemas/leads.ts): the widget does not offer the form again. Absent: none. */
  leadSent: z.boolean().optional(),
  /**
   * With `leadSent`: the id of the last message the widget shows that came before the lead, where
   * it shows the owner's thank-you line again on a reload; null: the lead came before any message.
   */
  leadAfter: z.string().nullable().optional(),
});
export type WidgetSessionResponse = z.infer<typeof widgetSessionResponse>;

// ---- client → server (socket frames, and the body of POST …/messages) ----------------------

export const widgetAttachedFileSchema = z.object({
  /** Kept and shown to the owner: cleaned, so "invoice\u202Efdp.exe" cannot read as "invoiceexe.pdf". */
  name: z.preprocess(cleanText, z.string().trim().min(1).max(widget.maxFileNameChars)),
  /** Text the widget extracted from the file; it reaches the model (bounded), only the name is kept. */
  text: z.string().max(widget.maxFileTextChars).optional().default(""),
});

/** A visitor message's fields, before the "text or a file" rule (the owner's Playground extends them: schemas/playground.ts). */
export const widgetSendMessageFields = z.object({
  content: z.string().max(widget.maxMessageChars, { error: widgetMessages.messageTooLong(widget.maxMessageChars) }),
  files: z
    .array(widgetAttachedFileSchema)
    .max(widget.maxFiles, { error: widgetMessages.tooManyFiles(widget.maxFiles) })
    .optional()
    .default([]),
  /** The widget's own id for the pending message, echoed back so it can swap it for the saved one. */
  clientMessageId: z.string().min(1).max(widget.maxClientMessageIdChars),
});

/** A message needs text or at least one file. */
export const hasMessageContent = (d: { content: string; files: readonly unknown[] }) => d.content.trim().length > 0 || d.files.length > 0;

/** `send-message` on the socket; the JSON body of POST /api/widget/sessions/{id}/messages. */
export const widgetSendMessageData = widgetSendMessageFields.refine(hasMessageContent, { error: widgetMessages.emptyMessage });
export type WidgetSendMessageData = z.input<typeof widgetSendMessageData>;

/** `stop`: end the answer being written, keeping its text (status stopped). Data may be `{}`. */
export const widgetStopData = z.looseObject({});

export type WidgetClientFrame =
  | { event: "send-message"; data: z.output<typeof widgetSendMessageData> }
  | { event: "stop"; data: Record<string, unknown> }
  | { event: "typing"; data: z.output<typeof typingFrameData> };
export type WidgetClientFrameResult = { ok: true; frame: WidgetClientFrame } | { ok: false; error: string };


/** Parses a frame a widget sent. Never throws; `error` is safe to show (a widgetMessages text). */
export function parseWidgetClientFrame(raw: unknown): WidgetClientFrameResult {
  const env = readFrameEnvelope(raw);
  if (!env) return { ok: false, error: widgetMessages.invalidFrame };
  const { event, data } = env;
  if (event === "send-message") {
    const parsed = widgetSendMessageData.safeParse(data);
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? widgetMessages.invalidFrame };
    return { ok: true, frame: { event, data: parsed.data } };
  }
  if (event === "stop") return { ok: true, frame: { event, data: {} } };
  if (event === "typing") {
    const parsed = typingFrameData.safeParse(data);
    return parsed.success ? { ok: true, frame: { event, data: parsed.data } } : { ok: false, error: widgetMessages.invalidFrame };
  }
  return { ok: false, error: widgetMessages.invalidFrame };
}

/** Builders for the frames a widget sends. */
export const widgetClientFrames = {
  sendMessage: (data: WidgetSendMessageData) => ({ event: "send-message" as const, data }),
  stop: () => ({ event: "stop" as const, data: {} }),
  typing: (typing: boolean) => ({ event: "typing" as const, data: { typing } }),
};

// ---- server → client (socket frames, and SSE events `event: <name>` + `data: <json>`) -----------

/**
 * Why a message was refused, for widgets that change their UI (disable the input, offer a new
 * conversation). `error` always carries the text to show.
 */
export const widgetRefusalReasons = [
  "session-limit",
  "daily-limit",
  "rate-limited",
  "unavailable",
  "origin-not-allowed",
  "session-not-found",
  "invalid",
  "reply-in-progress",
  "reply-failed",
  /** The visitor's sign-in token was refused (invalid, expired, foreign-signed). */
  "identity-invalid",
  /** The assistant's monthly budget is used up and its owner chose to pause it. */
  "budget-reached",
] as const;
export type WidgetRefusalReason = (typeof widgetRefusalReasons)[number];

/** `thinking` and `message-delta`: the chat's shapes, `chatId` = visitor session id. */
export const widgetThinkingData = thinkingData;
export const widgetMessageDeltaData = messageDeltaData;

/**
 * A saved message: the visitor's (echoing `clientMessageId`) or the final answer (status complete
 * or stopped). `sources` repeats `message.sources` for the answer when the owner shows sources.
 */
export const widgetNewMessageData = z.object({
  message: widgetMessageSchema,
  clientMessageId: z.string().optional(),
  sources: z.array(widgetSourceSchema).optional(),
});

/** Something failed or was refused; `message` is a failed answer's saved partial text. */
export const widgetMessageErrorData = z.object({
  error: z.string(),
  reason: z.enum(widgetRefusalReasons).optional(),
  chatId: z.string().optional(),
  messageId: z.string().optional(),
  clientMessageId: z.string().optional(),
  message: widgetMessageSchema.optional(),
});

/**
 * After every answer (and every refusal by a limit): `remaining` is the smaller of the session's
 * and the day's remaining messages, `limit` the limit of that same counter (the session's on a tie).
 */
export const widgetRemainingMessagesData = remainingMessagesData;

export const widgetServerFrameSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("thinking"), data: widgetThinkingData }),
  z.object({ event: z.literal("message-delta"), data: widgetMessageDeltaData }),
  z.object({ event: z.literal("new-message"), data: widgetNewMessageData }),
  z.object({ event: z.literal("message-error"), data: widgetMessageErrorData }),
  z.object({ event: z.literal("remaining-messages"), data: widgetRemainingMessagesData }),
  z.object({ event: z.literal("handoff"), data: widgetHandoffFrameData }),
  z.object({ event: z.literal("typing"), data: typingFrameData }),
]);
export type WidgetServerFrame = z.infer<typeof widgetServerFrameSchema>;
export type WidgetServerEvent = WidgetServerFrame["event"];
export const widgetServerEvents = ["thinking", "message-delta", "new-message", "message-error", "remaining-messages", "handoff", "typing"] as const;

/** Parses a socket frame the server sent; null for anything that does not match (never throws). */
export function parseWidgetServerFrame(raw: unknown): WidgetServerFrame | null {
  return parseJsonWith(widgetServerFrameSchema, raw);
}

/** Parses one SSE event of POST …/messages (its `event:` name and `data:` text); null when it does not match. */
export function parseWidgetSseEvent(event: string, data: string): WidgetServerFrame | null {
  return parseJsonWith(widgetServerFrameSchema, data, (json) => ({ event, data: json }));
}

/** Formats one server frame as an SSE event (`event:` + `data:` + blank line). */
export function formatWidgetSseEvent(frame: WidgetServerFrame): string {
  return `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}
