/**
 * The D1 schema of the whole product. Times are epoch milliseconds; ids are random UUIDs
 * unless a row needs an integer rowid (chunks, for the FTS5 index).
 * Change it, then `npm run db:generate` to append a migration; never edit an applied one.
 */
import { blob, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const id = () => text("id").primaryKey();
const createdAt = () => integer("created_at").notNull();
const bool = (name: string) => integer(name, { mode: "boolean" });

export const users = sqliteTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null for accounts that only sign in with Google. */
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    phone: text("phone").notNull().default(""),
    birthDate: text("birth_date").notNull().default(""),
    photoUrl: text("photo_url"),
    firebaseUid: text("firebase_uid"),
    emailVerifiedAt: integer("email_verified_at"),
    /**
     * Legacy: user preferences now live in the user's own room (ChatRoom SQLite); the room moves
     * this JSON in on first use and resets it to '{}' (worker/chat/legacy-import.ts).
     */
    settings: text("settings").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), uniqueIndex("users_firebase_uid_unique").on(t.firebaseUid)],
);

/** Tala's own bearer credentials (`Authorization: Token <t>`); only a SHA-256 hash is stored. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("auth_tokens_hash_unique").on(t.tokenHash), index("auth_tokens_user_idx").on(t.userId)],
);

/** 6-digit codes for e-mail verification, password reset and e-mail change; stored hashed. */
export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The address the code was sent to (the new address for an e-mail change). */
    email: text("email").notNull(),
    purpose: text("purpose", { enum: ["verify-email", "reset-password", "change-email"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("verification_codes_lookup_idx").on(t.email, t.purpose)],
);

/**
 * Legacy: a signed-in user's projects, chats and messages live in their own room (ChatRoom
 * SQLite, worker/chat/room-store.ts). These three tables only hold what an earlier version wrote;
 * each room moves its user's rows in on first use and deletes them here (chat/legacy-import.ts).
 */
export const projects = sqliteTable(
  "projects",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Sent as the system prompt of the project's chats. */
    instructions: text("instructions").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("projects_user_idx").on(t.userId)],
);

export const chats = sqliteTable(
  "chats",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: text("project_id").references(() => projects.id, { onDelete: "set null" }),
    title: text("title").notNull().default(""),
    model: text("model"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("chats_user_updated_idx").on(t.userId, t.updatedAt), index("chats_project_idx").on(t.projectId)],
);

/** A chat message: spec section 3's role, content {type, data}, files [{name}], timestamp. */
export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant", "system"] }).notNull(),
    contentType: text("content_type").notNull().default("text"),
    content: text("content").notNull(),
    /** JSON array of { name }. */
    files: text("files").notNull().default("[]"),
    status: text("status", { enum: ["complete", "streaming", "stopped", "error"] })
      .notNull()
      .default("complete"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("messages_chat_created_idx").on(t.chatId, t.createdAt)],
);

export const publicAssistants = sqliteTable(
  "public_assistants",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    description: text("description").notNull().default(""),
    isActive: bool("is_active").notNull().default(true),
    /** SHA-256 of the key, for lookup; the key itself only encrypted (AES-GCM). */
    apiKeyHash: text("api_key_hash").notNull(),
    apiKeyEncrypted: text("api_key_encrypted").notNull(),
    /** The masked form shown in lists, e.g. `tala_pk_ab12…wxyz`. */
    apiKeyMasked: text("api_key_masked").notNull(),
    /** JSON: maxMessagesPerSession, dailyLimit, allowAttachments, customization. */
    config: text("config").notNull(),
    /** JSON: widgetPosition, widgetSize. */
    integration: text("integration").notNull(),
    instructions: text("instructions").notNull().default(""),
    /** JSON array of origins; empty means any site. */
    allowedOrigins: text("allowed_origins").notNull().default("[]"),
    showSources: bool("show_sources").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("public_assistants_key_hash_unique").on(t.apiKeyHash), index("public_assistants_user_idx").on(t.userId)],
);

/**
 * An assistant's secret keys (`tala_sk_…`, for servers and the OpenAI-compatible API). Only the
 * SHA-256 of a key is stored: it is shown once, at creation. A revoked key keeps its row
 * (`revoked_at` set) and is refused from the next request.
 */
export const assistantSecretKeys = sqliteTable(
  "assistant_secret_keys",
  {
    id: id(),
    assistantId: text("assistant_id")
      .notNull()
      .references(() => publicAssistants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    /** The form shown in lists, e.g. `tala_sk_ab12…wxyz`. */
    masked: text("masked").notNull(),
    createdAt: createdAt(),
    /** Written at most once an hour per key (assistantSecretKey.lastUsedIntervalMs). */
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("assistant_secret_keys_hash_unique").on(t.keyHash), index("assistant_secret_keys_assistant_idx").on(t.assistantId, t.revokedAt)],
);

/**
 * Legacy: read once by the move into each assistant's own Durable Object (AssistantHub,
 * worker/assistant/legacy-import.ts), never written. Kept so data of the version before the move carries over.
 */
export const knowledgeFiles = sqliteTable(
  "knowledge_files",
  {
    id: id(),
    assistantId: text("assistant_id")
      .notNull()
      .references(() => publicAssistants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    mimeType: text("mime_type").notNull(),
    r2Key: text("r2_key").notNull(),
    status: text("status", { enum: ["processing", "ready", "failed"] })
      .notNull()
      .default("processing"),
    error: text("error"),
    chunkCount: integer("chunk_count").notNull().default(0),
    uploadedAt: integer("uploaded_at").notNull(),
  },
  (t) => [index("knowledge_files_assistant_idx").on(t.assistantId)],
);

/**
 * Legacy (see knowledge_files): a passage of a knowledge file; `id` is the rowid the FTS5 table
 * `knowledge_chunks_fts` indexes. The move keeps these ids (Vectorize names vectors by them).
 */
export const knowledgeChunks = sqliteTable(
  "knowledge_chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    fileId: text("file_id")
      .notNull()
      .references(() => knowledgeFiles.id, { onDelete: "cascade" }),
    assistantId: text("assistant_id").notNull(),
    ordinal: integer("ordinal").notNull(),
    heading: text("heading").notNull().default(""),
    content: text("content").notNull(),
    tokenCount: integer("token_count").notNull(),
    /** Float32 vector, when a local embeddings endpoint is configured (production uses Vectorize). */
    embedding: blob("embedding", { mode: "buffer" }),
    createdAt: createdAt(),
  },
  (t) => [index("knowledge_chunks_file_idx").on(t.fileId), index("knowledge_chunks_assistant_idx").on(t.assistantId)],
);

/**
 * Legacy: read once by the move into each assistant's own Durable Object (AssistantHub,
 * worker/assistant/legacy-import.ts), never written. Kept so data of the version before the move carries over.
 */
export const visitorSessions = sqliteTable(
  "visitor_sessions",
  {
    id: id(),
    assistantId: text("assistant_id")
      .notNull()
      .references(() => publicAssistants.id, { onDelete: "cascade" }),
    referrer: text("referrer").notNull().default(""),
    origin: text("origin").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    locale: text("locale").notNull().default(""),
    messageCount: integer("message_count").notNull().default(0),
    startedAt: integer("started_at").notNull(),
    lastMessageAt: integer("last_message_at"),
  },
  (t) => [index("visitor_sessions_assistant_idx").on(t.assistantId, t.lastMessageAt)],
);

/** Legacy: read once by the move into the assistant's own Durable Object, never written (see visitor_sessions). */
export const visitorMessages = sqliteTable(
  "visitor_messages",
  {
    id: id(),
    sessionId: text("session_id")
      .notNull()
      .references(() => visitorSessions.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    contentType: text("content_type").notNull().default("text"),
    content: text("content").notNull(),
    files: text("files").notNull().default("[]"),
    /** JSON array of { fileId, name, excerpt } the answer drew on. */
    sources: text("sources").notNull().default("[]"),
    createdAt: createdAt(),
  },
  (t) => [index("visitor_messages_session_idx").on(t.sessionId, t.createdAt)],
);

/** Local mode only: e-mails the dev sender "sent", read at GET /api/dev/outbox. Empty in production. */
export const devOutbox = sqliteTable(
  "dev_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    code: text("code"),
    sentAt: integer("sent_at").notNull(),
  },
  (t) => [index("dev_outbox_sent_idx").on(t.sentAt)],
);

/**
 * Teams (contract/schemas/team.ts). A workspace's id is its first owner's user id, so every
 * assistant's `user_id` already names its workspace and an account with no row here is a
 * single-member workspace owned by that user (nothing to migrate). A row exists once the
 * workspace is renamed or its ownership transferred: `owner_id` is then who owns it.
 */
export const workspaces = sqliteTable("workspaces", {
  id: id(),
  ownerId: text("owner_id")
    .notNull()
    .references(() => users.id),
  name: text("name").notNull().default(""),
  createdAt: createdAt(),
  updatedAt: integer("updated_at").notNull(),
});

/** The people of a workspace other than its owner, with their role (admin, agent, viewer). */
export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin", "agent", "viewer"] }).notNull(),
    addedAt: integer("added_at").notNull(),
    addedBy: text("added_by"),
  },
  (t) => [uniqueIndex("workspace_members_pk").on(t.workspaceId, t.userId), index("workspace_members_user_idx").on(t.userId)],
);

/** Invitations by e-mail: only the code's SHA-256 is stored. Pending while none of accepted/revoked is set and before `expires_at`. */
export const workspaceInvitations = sqliteTable(
  "workspace_invitations",
  {
    id: id(),
    workspaceId: text("workspace_id").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "agent", "viewer"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("workspace_invitations_code_unique").on(t.codeHash), index("workspace_invitations_ws_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * Who did what in a workspace (contract `auditActions`), kept `teamLimits.auditRetentionMs`.
 * The actor's e-mail and name are copied as they were then; `details` is small JSON, never a secret.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: id(),
    workspaceId: text("workspace_id").notNull(),
    at: integer("at").notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email").notNull().default(""),
    actorName: text("actor_name").notNull().default(""),
    action: text("action").notNull(),
    assistantId: text("assistant_id"),
    assistantName: text("assistant_name").notNull().default(""),
    target: text("target").notNull().default(""),
    details: text("details").notNull().default("{}"),
  },
  (t) => [
    index("audit_log_ws_at_idx").on(t.workspaceId, t.at),
    index("audit_log_ws_actor_idx").on(t.workspaceId, t.actorId, t.at),
    index("audit_log_ws_action_idx").on(t.workspaceId, t.action, t.at),
  ],
);
