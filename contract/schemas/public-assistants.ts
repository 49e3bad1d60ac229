import { z } from "zod";
import {
  botDefence,
  budgets,
  chatHistory,
  knowledgeSearch,
  publicAssistantFieldLimits as F,
  publicAssistantLimits as L,
  qaLimits,
  starterQuestionLimits as SQ,
  visitorIdentity,
  widgetLanguages,
  widgetPositions,
  widgetSizes,
  widgetThemes,
} from "../constants";
import { botDefenceMessages, publicAssistantServerMessages as M, privacyMessages, qaMessages, visitorIdentityMessages } from "../messages";
import { emptyOnboardingRecord, onboardingRecordSchema } from "./first-hour";
import { budgetActionSchema, budgetLimitSchema, verifiedVisitorSchema } from "./visitors";
import { agentAuthorSchema, conversationHandoffSchema, defaultHandoffSettings, handoffSettingsInput, handoffSettingsSchema } from "./handoff";
import { defaultLeadForm, leadFormSchema } from "./leads";
import { privacyNoticeSchema, privacyUrlSchema, retentionDaysSchema } from "./privacy";

/**
 * /api/public-assistants: the owner's assistants, their knowledge files, API keys and visitor
 * history (spec sections 3 and 7). Times are epoch milliseconds, as everywhere in Tala's API.
 */

// ---- Shared pieces --------------------------------------------------------------------------

/**
 * A website origin `scheme://host[:port]` (http or https, no path, query, fragment, credentials or
 * wildcard), normalised as browsers send it in the Origin header: lower-case host, default port
 * dropped. Null when `value` is not one.
 */
export function normalizeOrigin(value: string): string | null {
  const text = value.trim();
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(text) || /[*@\s]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!url.hostname || url.pathname !== "/" || url.search || url.hash) return null;
  return url.origin;
}

const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
const text = (field: string, max: number) =>
  z.string({ error: M.mustBeText(field) }).trim().max(max, { error: M.textTooLong(field, max) });
const flag = (field: string) => z.boolean({ error: M.mustBeBoolean(field) });

export const hexColorSchema = z
  .string({ error: M.invalidColor })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: M.invalidColor })
  .transform((v) => v.toUpperCase());

export const originSchema = z
  .string({ error: M.allowedOriginsList })
  .max(F.maxOriginChars, { error: (issue) => M.invalidOrigin(String(issue.input)) })
  .transform((value, ctx) => {
    const origin = normalizeOrigin(value);
    if (!origin) ctx.issues.push({ code: "custom", message: M.invalidOrigin(value), input: value });
    return origin ?? "";
  });

export const allowedOriginsSchema = z
  .array(originSchema, { error: M.allowedOriginsList })
  .max(F.maxAllowedOrigins, { error: M.tooManyOrigins(F.maxAllowedOrigins) })
  .transform((list) => [...new Set(list)]);

/**
 * The questions the widget offers as chips when a conversation has no message yet: trimmed, empty
 * ones dropped, duplicates (case-insensitive) kept once, then at most `maxQuestions`.
 */
export const starterQuestionsSchema = z
  .array(z.string({ error: qaMessages.starterQuestionsList }).trim().max(SQ.maxChars, { error: qaMessages.starterQuestionTooLong(SQ.maxChars) }), {
    error: qaMessages.starterQuestionsList,
  })
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((q) => q.length > 0 && !seen.has(q.toLowerCase()) && seen.add(q.toLowerCase()));
  })
  .refine((list) => list.length <= SQ.maxQuestions, { error: qaMessages.tooManyStarterQuestions(SQ.maxQuestions) });

// ---- Request bodies -------------------------------------------------------------------------

const customizationInput = z.object(
  {
    primaryColor: hexColorSchema.optional(),
    headerText: text("Header text", F.maxHeaderTextChars).optional(),
    welcomeMessage: text("Welcome message", F.maxWelcomeMessageChars).optional(),
    contactLine: text("Contact line", F.maxContactLineChars).optional(),
    starterQuestions: starterQuestionsSchema.optional(),
    theme: z.enum(widgetThemes, { error: M.invalidChoice("Theme", widgetThemes) }).optional(),
    language: z.enum(widgetLanguages, { error: M.invalidChoice("Language", widgetLanguages) }).optional(),
    availabilityLine: text("Availability line", F.maxAvailabilityLineChars).optional(),
    /** A line about how the site uses the conversation, and a link to its policy (schemas/privacy.ts). */
    privacyNotice: privacyNoticeSchema.optional(),
    privacyUrl: privacyUrlSchema.optional(),
  },
  { error: M.mustBeObject("customization") },
);

const configInput = z.object(
  {
    maxMessagesPerSession: wholeNumber(
      L.maxMessagesPerSession.min,
      L.maxMessagesPerSession.max,
      M.maxMessagesRange(L.maxMessagesPerSession.min, L.maxMessagesPerSession.max),
    ).optional(),
    dailyLimit: wholeNumber(L.dailyLimit.min, L.dailyLimit.max, M.dailyLimitRange(L.dailyLimit.min, L.dailyLimit.max)).optional(),
    allowAttachments: flag("allowAttachments").optional(),
    customization: customizationInput.optional(),
    /** Monthly visitor messages, null = no budget; what happens at 100 % (schemas/visitors.ts). */
    monthlyBudget: budgetLimitSchema.optional(),
    budgetAction: budgetActionSchema.optional(),
    /** Proof-of-work on spikes only, or before every new session. */
    botDefence: z.enum(botDefence.modes, { error: botDefenceMessages.modeInvalid(botDefence.modes) }).optional(),
    /** A verified visitor's limits count per session or per user. */
    visitorLimitScope: z.enum(visitorIdentity.limitScopes, { error: visitorIdentityMessages.limitScopeInvalid(visitorIdentity.limitScopes) }).optional(),
    /** How close a visitor's question must be to a curated answer's for it to be used (schemas/qa.ts). */
    qaStrictness: z.enum(qaLimits.strictnessLevels, { error: qaMessages.strictnessInvalid(qaLimits.strictnessLevels) }).optional(),
    /** A person taking over: the widget's "Talk to a person", the texts a waiting visitor sees, auto-end (schemas/handoff.ts). */
    handoff: handoffSettingsInput.optional(),
    /** Conversations older than this many days are deleted daily; null keeps them (schemas/privacy.ts). */
    retentionDays: retentionDaysSchema.optional(),
    /** Whether retention deletes those conversations' leads too. */
    retentionIncludesLeads: z.boolean({ error: privacyMessages.retentionLeadsInvalid }).optional(),
  },
  { error: M.mustBeObject("config") },
);

const integrationInput = z.object(
  {
    widgetPosition: z.enum(widgetPositions, { error: M.invalidPosition(widgetPositions) }).optional(),
    widgetSize: z.enum(widgetSizes, { error: M.invalidSize(widgetSizes) }).optional(),
  },
  { error: M.mustBeObject("integration") },
);

/**
 * POST /api/public-assistants and PUT /api/public-assistants/{id}. Every field is optional: a
 * create fills what is missing with `publicAssistantDefaults`, an update merges what is given over
 * the current values (nested objects field by field).
 */
export const publicAssistantBody = z.object({
  name: text("Name", F.maxNameChars).optional(),
  description: text("Description", F.maxDescriptionChars).optional(),
  isActive: flag("isActive").optional(),
  config: configInput.optional(),
  integration: integrationInput.optional(),
  /** Extra instructions for the assistant's answers (its system prompt). */
  instructions: text("Instructions", F.maxInstructionsChars).optional(),
  /** Sites allowed to embed the widget; empty means any site. */
  allowedOrigins: allowedOriginsSchema.optional(),
  /** Whether answers list the knowledge files they drew on. */
  showSources: flag("showSources").optional(),
});
export type PublicAssistantBody = z.input<typeof publicAssistantBody>;
export type PublicAssistantChanges = z.output<typeof publicAssistantBody>;

// ---- Responses ------------------------------------------------------------------------------

export const assistantCustomizationSchema = z.object({
  primaryColor: z.string(),
  headerText: z.string(),
  welcomeMessage: z.string(),
  /** Empty when a config stored before them is read. */
  starterQuestions: z.array(z.string()).default([]),
  /** How visitors reach the owner when the assistant does not know; "" when none or stored before it. */
  contactLine: z.string().default(""),
  /** The widget's theme and language (publicAssistantDefaults); "auto" for a config stored before them. */
  theme: z.enum(widgetThemes).default("auto"),
  language: z.enum(widgetLanguages).default("auto"),
  availabilityLine: z.string().default(""),
  /** Served by Tala after an upload; "" for the default mark. */
  avatarUrl: z.string().default(""),
  privacyNotice: z.string().default(""),
  privacyUrl: z.string().default(""),
});

export const assistantConfigSchema = z.object({
  maxMessagesPerSession: z.number().int(),
  dailyLimit: z.number().int(),
  allowAttachments: z.boolean(),
  customization: assistantCustomizationSchema,
  /** The budget, bot-defence and visitor-scope fields default when a config stored before them is read. */
  monthlyBudget: z.number().int().nullable().default(null),
  budgetAction: budgetActionSchema.default(budgets.defaultAction),
  botDefence: z.enum(botDefence.modes).default(botDefence.defaultMode),
  visitorLimitScope: z.enum(visitorIdentity.limitScopes).default("session"),
  qaStrictness: z.enum(qaLimits.strictnessLevels).default(qaLimits.defaultStrictness),
  /** A person taking over (schemas/handoff.ts); defaults for a config stored before it. */
  handoff: handoffSettingsSchema.default(defaultHandoffSettings),
  /** Lead capture (schemas/leads.ts), changed only by PUT …/lead-form; off for a config stored before it. */
  leadForm: leadFormSchema.default(defaultLeadForm),
  /** The first-hour checklist's record (schemas/first-hour.ts), written by the server only; empty for a config stored before it. */
  onboarding: onboardingRecordSchema.default(emptyOnboardingRecord),
  /** Keep conversations (null) or delete them after 30, 90 or 365 days (schemas/privacy.ts); keep for a config stored before it. */
  retentionDays: z.union([z.literal(30), z.literal(90), z.literal(365)]).nullable().default(null),
  retentionIncludesLeads: z.boolean().default(false),
});
export type AssistantConfig = z.infer<typeof assistantConfigSchema>;

export const assistantIntegrationSchema = z.object({
  widgetPosition: z.enum(widgetPositions),
  widgetSize: z.enum(widgetSizes),
});
export type AssistantIntegration = z.infer<typeof assistantIntegrationSchema>;

export const knowledgeFileStatuses = ["processing", "ready", "failed"] as const;
export type KnowledgeFileStatus = (typeof knowledgeFileStatuses)[number];

/** A knowledge file (spec section 3): size in bytes. `error` says why a failed file failed. */
export const knowledgeFileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  size: z.number().int(),
  uploadedAt: z.number(),
  status: z.enum(knowledgeFileStatuses),
  error: z.string().nullable(),
  chunkCount: z.number().int(),
  /** "text": a snippet typed in the dashboard (`name` is its title; GET/PUT …/texts/{id} edit it). Absent: an uploaded file. */
  kind: z.enum(["file", "text"]).optional(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;

/** A public assistant as its owner sees it. `apiKey` is masked (`tala_pk_ab12…wxyz`). */
export const publicAssistantSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  apiKey: z.string(),
  config: assistantConfigSchema,
  integration: assistantIntegrationSchema,
  instructions: z.string(),
  allowedOrigins: z.array(z.string()),
  showSources: z.boolean(),
  /** Newest first. */
  files: z.array(knowledgeFileSchema),
  /** `unavailable`: the assistant's own object did not answer; `files` and `totalSessions` are then empty, not zero. */
  stats: z.object({ totalSessions: z.number().int(), unavailable: z.boolean().optional() }),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type PublicAssistant = z.infer<typeof publicAssistantSchema>;

/** GET /api/public-assistants: newest first. */
export const publicAssistantListResponse = z.object({ assistants: z.array(publicAssistantSchema) });
export type PublicAssistantListResponse = z.infer<typeof publicAssistantListResponse>;
/** POST and PUT /api/public-assistants[/{id}]. */
export const publicAssistantResponse = z.object({ assistant: publicAssistantSchema });

/** GET …/raw-api-key and POST …/regenerate-key: the full key. */
export const apiKeyResponse = z.object({ apiKey: z.string() });
/** GET …/integration-code: the snippet to paste before `</body>`, with the full key in it. */
export const integrationCodeResponse = z.object({ integrationCode: z.string(), apiKey: z.string() });

/**
 * One file of an upload. A `failed` file was not kept (no row, no stored object): its `_id` is
 * not a file of the assistant and `error` says why. `warning` notes a file cut short by a limit.
 */
export const knowledgeUploadResultSchema = knowledgeFileSchema.extend({ warning: z.string().optional() });
export type KnowledgeUploadResult = z.infer<typeof knowledgeUploadResultSchema>;

/** POST …/files (multipart, repeated field `files`): 201 when at least one file landed. */
export const knowledgeUploadResponse = z.object({
  files: z.array(knowledgeUploadResultSchema),
  processed: z.number().int(),
  failed: z.number().int(),
  /** successMessages.filesProcessed(processed). */
  message: z.string(),
});
export type KnowledgeUploadResponse = z.infer<typeof knowledgeUploadResponse>;

/** GET …/search?q=&limit=: the owner's preview of what the assistant would retrieve. */
export const knowledgeSearchQuery = z.object({
  q: z
    .string({ error: M.searchQueryRequired })
    .trim()
    .min(1, { error: M.searchQueryRequired })
    .max(knowledgeSearch.maxQueryChars, { error: M.searchQueryTooLong(knowledgeSearch.maxQueryChars) }),
  limit: z.coerce
    .number({ error: M.searchLimitInvalid(knowledgeSearch.maxResults) })
    .int({ error: M.searchLimitInvalid(knowledgeSearch.maxResults) })
    .min(1, { error: M.searchLimitInvalid(knowledgeSearch.maxResults) })
    .max(knowledgeSearch.maxResults, { error: M.searchLimitInvalid(knowledgeSearch.maxResults) })
    .default(knowledgeSearch.defaultResults),
});
export type KnowledgeSearchQuery = z.input<typeof knowledgeSearchQuery>;

export const knowledgeSearchResponse = z.object({
  results: z.array(
    z.object({
      fileId: z.string(),
      fileName: z.string(),
      heading: z.string(),
      excerpt: z.string(),
      score: z.number(),
      url: z.string().optional(),
      /** True when answers would not use this passage: it is under the relevance floor for this query. */
      belowFloor: z.boolean().optional(),
    }),
  ),
  /** `hybrid` when embeddings are configured and answered, else `lexical` (BM25 only). */
  mode: z.enum(["hybrid", "lexical"]),
});
export type KnowledgeSearchResponse = z.infer<typeof knowledgeSearchResponse>;

// ---- Visitor history ------------------------------------------------------------------------

export const visitorMessageRoles = ["user", "assistant", "agent"] as const;

/** A visitor chat message (spec section 3 "Message"); `sources` are the files an answer drew on. */
export const visitorMessageSchema = z.object({
  /** The message's id (absent from exports made before it was listed). */
  id: z.string().optional(),
  role: z.enum(visitorMessageRoles),
  /** `agent` messages: the person who wrote it (schemas/handoff.ts). */
  author: agentAuthorSchema.optional(),
  content: z.object({ type: z.string(), data: z.string() }),
  files: z.array(z.object({ name: z.string() })),
  timestamp: z.number(),
  sources: z
    .array(
      z.object({
        fileId: z.string(),
        name: z.string(),
        excerpt: z.string().optional(),
        url: z.string().optional(),
        /** "qa": a curated answer (`qaId`, schemas/qa.ts) gave or guided the reply; absent: a file or web page. */
        kind: z.enum(["file", "qa"]).optional(),
        qaId: z.string().optional(),
      }),
    )
    .optional(),
  /** The visitor's rating of an answer, when they gave one. */
  rating: z.enum(["up", "down"]).optional(),
});
export type VisitorMessage = z.infer<typeof visitorMessageSchema>;

/** A visitor chat session (spec section 3 "Chat session"); messages oldest first. */
export const visitorSessionSchema = z.object({
  _id: z.string(),
  sessionId: z.string(),
  messageCount: z.number().int(),
  lastMessageAt: z.number().nullable(),
  sessionInfo: z.object({
    referrer: z.string(),
    startedAt: z.number(),
    origin: z.string(),
    userAgent: z.string(),
    locale: z.string(),
  }),
  messages: z.array(visitorMessageSchema),
  /** The verified visitor (the site's user: id = the token's sub, name, e-mail); absent for anonymous ones. In the export too. */
  visitor: verifiedVisitorSchema.optional(),
  /** Whether a person was asked for or has it (absent: never), and the address the visitor left for the reply. */
  handoff: conversationHandoffSchema.optional(),
  contactEmail: z.string().optional(),
});
export type VisitorSession = z.infer<typeof visitorSessionSchema>;

const pageInvalid = M.pageInvalid;
const pageSizeInvalid = M.pageSizeInvalid(chatHistory.maxPageSize);

/** GET …/chats?page=&limit=&user=: newest activity first. */
export const chatHistoryQuery = z.object({
  page: z.coerce
    .number({ error: pageInvalid })
    .int({ error: pageInvalid })
    .min(1, { error: pageInvalid })
    .max(chatHistory.maxPage, { error: M.pageTooHigh(chatHistory.maxPage) })
    .default(1),
  limit: z.coerce
    .number({ error: pageSizeInvalid })
    .int({ error: pageSizeInvalid })
    .min(1, { error: pageSizeInvalid })
    .max(chatHistory.maxPageSize, { error: pageSizeInvalid })
    .default(chatHistory.pageSize),
  /** Only this verified visitor's sessions (their id, the token's `sub`); empty = everyone. */
  user: z
    .string()
    .trim()
    .max(visitorIdentity.maxSubChars)
    .optional()
    .transform((v) => v || undefined),
});
export type ChatHistoryQuery = z.input<typeof chatHistoryQuery>;

export const chatHistoryResponse = z.object({
  sessions: z.array(visitorSessionSchema),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
  total: z.number().int(),
});
export type ChatHistoryResponse = z.infer<typeof chatHistoryResponse>;

/** GET …/chats/{sessionId}: one visitor session with its messages (open or not). */
export const visitorSessionResponse = z.object({ session: visitorSessionSchema });
export type VisitorSessionResponse = z.infer<typeof visitorSessionResponse>;
/** POST …/chats/{sessionId}/messages (schemas/handoff.ts): the person's saved message, role "agent" with its author. */
export const agentMessageResponse = z.object({ message: visitorMessageSchema });

/** GET …/chats/export: the whole history, served as the attachment chat-history-{id}.json. */
export const chatHistoryExport = z.object({
  assistantId: z.string(),
  assistantName: z.string(),
  exportedAt: z.number(),
  total: z.number().int(),
  sessions: z.array(visitorSessionSchema),
});
export type ChatHistoryExport = z.infer<typeof chatHistoryExport>;

/** GET …/chats/debug: the owner's sessions across all their assistants, and this assistant's. */
export const chatDebugResponse = z.object({
  stats: z.object({ totalChatsInDB: z.number().int(), assistantChats: z.number().int() }),
});
export type ChatDebugResponse = z.infer<typeof chatDebugResponse>;
