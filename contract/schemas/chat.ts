import { z } from "zod";
import { chatLimits, projectLimits } from "../constants";
import { chatMessages, serverMessages } from "../messages";
import { validationMessages } from "../validation";

/** Who wrote a message (spec section 3: "user, or another value meaning assistant"). */
export const messageRoles = ["user", "assistant", "system"] as const;
export type MessageRole = (typeof messageRoles)[number];

/**
 * Where a message stands: `streaming` while the model writes it, `stopped` when the user stopped
 * it (the text so far is kept), `error` when the model failed (the partial text is kept, retry).
 */
export const messageStatuses = ["complete", "streaming", "stopped", "error"] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/**
 * One version of an assistant reply. Regenerate (and Retry of a failed reply) writes the chat's
 * last reply again in place: the message keeps its id and place, and its earlier texts stay
 * browsable (‹ 1/2 ›) as versions.
 */
export const messageVersionSchema = z.object({
  content: z.object({ type: z.literal("text"), data: z.string() }),
  status: z.enum(messageStatuses),
  error: z.string().nullable().optional(),
  /** When this version was started (epoch milliseconds). */
  createdAt: z.number(),
});
export type MessageVersion = z.infer<typeof messageVersionSchema>;

/**
 * A chat message (spec section 3 "Message"): role, content {type, data}, files [{name}], timestamp.
 * `content`, `status` and `error` are always the current version, so a client that knows nothing
 * of versions still reads the message as it stands.
 */
export const chatMessageSchema = z.object({
  id: z.string(),
  chatId: z.string(),
  role: z.enum(messageRoles),
  content: z.object({ type: z.literal("text"), data: z.string() }),
  /** Attachment names only: their extracted text reached the model but is not stored. */
  files: z.array(z.object({ name: z.string() })),
  /** Epoch milliseconds. */
  timestamp: z.number(),
  status: z.enum(messageStatuses),
  /** Why an `error` message failed (a chatMessages text). */
  error: z.string().nullable().optional(),
  /**
   * A regenerated reply only (absent: one version): every version, oldest first, the current one
   * included at `versionIndex` (its entry repeats content, status and error). Bounded by
   * chatLimits.maxReplyVersions (the oldest go first).
   */
  versions: z.array(messageVersionSchema).max(100).optional(),
  versionIndex: z.number().int().min(0).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A chat (conversation) in the history list. Times are epoch milliseconds. */
export const chatSchema = z.object({
  id: z.string(),
  title: z.string(),
  projectId: z.string().nullable(),
  /** A model chosen for this chat only; null follows the user's setting. */
  model: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Chat = z.infer<typeof chatSchema>;

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Sent to the model as the system prompt of the project's chats. */
  instructions: z.string(),
  chatCount: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Project = z.infer<typeof projectSchema>;

// ---- REST: /api/chats ------------------------------------------------------------------------

const pageNumber = z.coerce.number().int().min(1).max(100_000).default(1);

/** GET /api/chats and GET /api/projects/:id/chats: newest first, paginated, searchable. */
export const listChatsQuery = z.object({
  /** Matches titles and message text (case-insensitive substring). */
  search: z.string().trim().max(chatLimits.maxSearchChars).optional(),
  projectId: z.string().min(1).max(100).optional(),
  page: pageNumber,
  limit: z.coerce.number().int().min(1).max(chatLimits.listMaxPageSize).default(chatLimits.listPageSize),
});
export type ListChatsQuery = z.input<typeof listChatsQuery>;

export const chatListResponse = z.object({
  chats: z.array(chatSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type ChatListResponse = z.infer<typeof chatListResponse>;

/** GET /api/chats/:id: the chat and all its messages, oldest first. */
export const chatDetailResponse = z.object({ chat: chatSchema, messages: z.array(chatMessageSchema) });
export type ChatDetailResponse = z.infer<typeof chatDetailResponse>;

/** PATCH /api/chats/:id: rename, move to a project, or out of it (projectId null). */
export const updateChatBody = z
  .object({
    title: z.string().trim().min(1, { error: serverMessages.invalidInput }).max(chatLimits.maxTitleChars).optional(),
    projectId: z.string().min(1).max(100).nullable().optional(),
  })
  .refine((b) => b.title !== undefined || b.projectId !== undefined, { error: serverMessages.invalidInput });
export type UpdateChatBody = z.input<typeof updateChatBody>;

export const chatResponse = z.object({ chat: chatSchema });

// ---- REST: /api/projects ---------------------------------------------------------------------

const projectName = z
  .string({ error: (issue) => (issue.code === "invalid_type" ? chatMessages.projectNameRequired : undefined) })
  .trim()
  .min(1, { error: chatMessages.projectNameRequired })
  .max(projectLimits.maxNameChars, { error: validationMessages.atMost("Project name", projectLimits.maxNameChars, "characters") });
const projectInstructions = z.string().trim().max(projectLimits.maxInstructionsChars);

export const createProjectBody = z.object({ name: projectName, instructions: projectInstructions.optional().default("") });
export type CreateProjectBody = z.input<typeof createProjectBody>;

export const updateProjectBody = z
  .object({ name: projectName.optional(), instructions: projectInstructions.optional() })
  .refine((b) => b.name !== undefined || b.instructions !== undefined, { error: serverMessages.invalidInput });
export type UpdateProjectBody = z.input<typeof updateProjectBody>;

export const projectResponse = z.object({ project: projectSchema });
export const projectListResponse = z.object({ projects: z.array(projectSchema) });

// ---- REST: /api/models, /api/settings --------------------------------------------------------

/** GET /api/models: what the configured provider offers ([] and default null in offline mode). */
export const modelsResponse = z.object({
  models: z.array(z.string()),
  default: z.string().nullable(),
  /** The user's chosen model (kept in their room), null for the default. */
  selected: z.string().nullable(),
  offline: z.boolean(),
});
export type ModelsResponse = z.infer<typeof modelsResponse>;

export const userSettingsSchema = z.object({ model: z.string().nullable() });
export type UserSettings = z.infer<typeof userSettingsSchema>;

/** PUT /api/settings: the model used for the user's chats; null returns to the default. */
export const updateSettingsBody = z.object({ model: z.string().trim().min(1).max(chatLimits.maxModelIdChars).nullable() });
export type UpdateSettingsBody = z.input<typeof updateSettingsBody>;

export const settingsResponse = z.object({ settings: userSettingsSchema });

// ---- REST: /api/chat/attachments -----------------------------------------------------------------

/** Where the chat sends a PDF, Word or Excel attachment to have its text extracted (nothing is stored). */
export const chatAttachmentsPath = "/api/chat/attachments";
/** The multipart field holding the file. */
export const chatAttachmentField = "file";

/**
 * POST /api/chat/attachments → 200: the file's extracted text, cut to chatLimits.maxFileTextChars
 * (`truncated` says it was cut, here or by the extractor's own limits).
 */
export const chatAttachmentResponseSchema = z.object({
  name: z.string(),
  text: z.string().max(chatLimits.maxFileTextChars),
  truncated: z.boolean(),
});
export type ChatAttachmentResponse = z.infer<typeof chatAttachmentResponseSchema>;
/** The header a guest (no credential) names their guest session with (contract guestSession.idPattern): attachments and their chat history. */
export const chatGuestSessionHeader = "X-Guest-Session-Id";
