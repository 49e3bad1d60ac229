/**
 * Every number, key and default of the product spec (sections 5 and 9), written once.
 * The worker, the dashboard, the widget and the tests import these; no copy lives elsewhere.
 */

export const PRODUCT_NAME = "Tala";
/** The assistant's display name: the default widget header text (spec section 3). */
export const ASSISTANT_NAME = "Tala Assistant";

export const api = {
  basePath: "/api",
  timeoutMs: 10_000,
  /** Retries after the first attempt, and the wait before each one (base 1 s, doubling). */
  retryDelaysMs: [1000, 2000, 4000] as const,
  retryStatuses: [500, 502, 503, 504] as const,
  neverRetryStatuses: [401, 403, 422] as const,
} as const;

export const toast = {
  /** One toast at a time. */
  maxVisible: 1,
  generalMs: 2000,
  realtimeShortMs: 3000,
  realtimeLongMs: 5000,
} as const;

export const theme = {
  storageKey: "vite-ui-theme",
  values: ["light", "dark", "system"] as const,
  /** The main layout's default; one other part of the product (the widget) defaults to light. */
  defaultMain: "system",
  defaultWidget: "light",
} as const;
export type Theme = (typeof theme.values)[number];

export const realtime = {
  reconnectDelayMinMs: 1000,
  reconnectDelayMaxMs: 5000,
  reconnectAttempts: 5,
  connectTimeoutMs: 10_000,
  /**
   * The HTTP fallback (chat frames over POST + SSE while the socket cannot open): the socket is
   * tried again this often, and a connection that drops this many times within the window is
   * treated as blocked. The server writes a comment line this often while a reply is quiet, so a
   * proxy does not cut an idle stream.
   */
  socketRetryMs: 30_000,
  dropsBeforeHttp: 3,
  dropsWindowMs: 60_000,
  httpHeartbeatMs: 15_000,
  /** The longest a frames stream stays open (a reply's longest run); the client joins again after. */
  httpStreamMaxMs: 10 * 60_000,
  /** Frames streams open at once in one room (a user's tabs); past it the oldest is ended. */
  httpMaxStreams: 8,
  /** Frames waiting for a client that stopped reading before its stream is ended. */
  httpMaxQueuedFrames: 64,
  /** The socket is tried again after socketRetryMs, then twice as long each time, up to this. */
  socketRetryMaxMs: 5 * 60_000,
} as const;

export const layout = {
  sidePanelWidthPx: 250,
  /** The phone's menu when it also holds the chat screen's chats. */
  menuWithChatsWidthPx: 300,
  tooltipDelayMs: 700,
} as const;

export const storageKeys = {
  guestSessionId: "guestSessionId",
  token: "token",
  firebaseToken: "firebaseToken",
  theme: theme.storageKey,
  /** Where the access guard remembers the location a signed-out user was going to. */
  returnTo: "tala:returnTo",
  /** Session flag: the user dismissed the "verify your email" banner. */
  verifyBannerDismissed: "tala:verifyBannerDismissed",
  /** Prefix of the composer's unsent text per chat (`tala:draft:<chatId>`, `…:new` for a new chat). */
  draftPrefix: "tala:draft:",
  /**
   * Set (local with "Remember me", else session) after a Google sign-in: the dashboard then loads
   * the provider's SDK at start and listens for its user (spec section 4). Without it, pages never
   * download the SDK.
   */
  googleSession: "tala:googleSession",
  /** The workspace the dashboard acts in (local): `{ userId, id, role }`, read only for that user. */
  workspace: "tala:workspace",
} as const;

export const chatHistory = {
  pageSize: 10,
  /** The largest `limit` GET /public-assistants/{id}/chats accepts (chosen for Tala). */
  maxPageSize: 50,
  /** The largest `page` it accepts (chosen for Tala). */
  maxPage: 1_000_000,
  sessionIdDisplayLength: 8,
} as const;

/** date-fns style patterns of spec section 9. */
export const timeFormat = {
  message: "HH:mm",
  elsewhere: "MMM d, yyyy HH:mm",
} as const;

export const publicAssistantLimits = {
  maxMessagesPerSession: { default: 10, min: 1, max: 50 },
  dailyLimit: { default: 100, min: 10, max: 1000 },
} as const;

export const widgetPositions = ["bottom-right", "bottom-left", "top-right", "top-left"] as const;
export type WidgetPosition = (typeof widgetPositions)[number];
export const widgetSizes = ["small", "medium", "large"] as const;
export type WidgetSize = (typeof widgetSizes)[number];

export const publicAssistantDefaults = {
  name: "",
  description: "",
  isActive: true,
  config: {
    maxMessagesPerSession: publicAssistantLimits.maxMessagesPerSession.default,
    dailyLimit: publicAssistantLimits.dailyLimit.default,
    allowAttachments: false,
    /** No monthly budget, pause when one is set and used up, proof-of-work on spikes only, limits per session. */
    monthlyBudget: null as number | null,
    budgetAction: "pause" as "pause" | "continue",
    botDefence: "auto" as "auto" | "always",
    visitorLimitScope: "session" as "session" | "user",
    /** Curated answers used when the question is close (qaLimits.defaultStrictness). */
    qaStrictness: "balanced" as "strict" | "balanced" | "loose",
    /** A person taking over (handoffLimits, schemas/handoff.ts): the widget's "Talk to a person" is off until the owner turns it on. */
    handoff: { visitorAction: false, businessHours: "", replyTime: "", idleEndMinutes: 30, emailAfterMinutes: 5, emailOwner: true },
    customization: {
      primaryColor: "#2962FF",
      headerText: ASSISTANT_NAME,
      welcomeMessage: "Hello! How can I help you today?",
      /** How visitors reach the owner, given when no document covers a question ("" for none). */
      contactLine: "",
      /** Chips the widget shows when a conversation has no message yet (starterQuestionLimits). */
      starterQuestions: [] as string[],
      /** The widget's look and language as the owner chose them: "auto" follows the visitor (their OS theme, their browser's language). */
      theme: "auto" as "auto" | "light" | "dark",
      language: "auto" as "auto" | "en" | "fr" | "ar",
      /** A line under the header's name, like "We usually reply within an hour" ("" for none). */
      availabilityLine: "",
      /** The assistant's avatar or logo, served by Tala ("" for the default mark). Set by uploading it. */
      avatarUrl: "",
      /** The widget's privacy line and its link ("" for none; schemas/privacy.ts). */
      privacyNotice: "",
      privacyUrl: "",
    },
    /** The first-hour checklist's record (schemas/first-hour.ts): nothing happened yet. */
    onboarding: { playgroundAt: null as number | null, snippetCopiedAt: null as number | null, dismissedAt: null as number | null },
    /** Lead capture (schemas/leads.ts): off; name and e-mail (required); shown when asked or when the assistant did not know. */
    leadForm: {
      enabled: false,
      fields: [
        { key: "name", kind: "name" as "name" | "email" | "phone" | "company" | "text", label: {} as { en?: string; fr?: string; ar?: string }, required: false },
        { key: "email", kind: "email" as "name" | "email" | "phone" | "company" | "text", label: {} as { en?: string; fr?: string; ar?: string }, required: true },
      ] as { key: string; kind: "name" | "email" | "phone" | "company" | "text"; label: { en?: string; fr?: string; ar?: string }; required: boolean }[],
      intro: {} as { en?: string; fr?: string; ar?: string },
      thanks: {} as { en?: string; fr?: string; ar?: string },
      beforeFirstMessage: "off" as "off" | "optional" | "required",
      afterMessages: 0,
      whenAsked: true,
      whenUnanswered: true,
      emailOwner: true,
    },
    /** Conversations kept until deleted (schemas/privacy.ts); leads kept even when retention is on. */
    retentionDays: null as 30 | 90 | 365 | null,
    retentionIncludesLeads: false,
  },
  integration: {
    widgetPosition: "bottom-right" as WidgetPosition,
    widgetSize: "medium" as WidgetSize,
  },
} as const;

export const upload = {
  maxFileBytes: 15_728_640,
  /** Extension → accepted MIME types (browsers disagree, so several per extension). */
  accepted: {
    ".pdf": ["application/pdf"],
    ".txt": ["text/plain"],
    ".doc": ["application/msword"],
    ".docx": ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ".csv": ["text/csv", "application/csv", "application/vnd.ms-excel"],
    ".xls": ["application/vnd.ms-excel"],
    ".xlsx": ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ".md": ["text/markdown", "text/x-markdown"],
    ".json": ["application/json"],
    ".xml": ["application/xml", "text/xml"],
  } as Record<string, readonly string[]>,
  progress: {
    capPercent: 90,
    timerStepPercent: 10,
    timerIntervalMs: 500,
    closeDelayMs: 500,
  },
} as const;
export const acceptedExtensions = Object.keys(upload.accepted);

/**
 * One POST /public-assistants/{id}/files request (chosen for Tala): the multipart field, how many
 * files and how many bytes it may carry. A Worker holds the whole form in memory next to the
 * extraction of one file, so an upload of more than a few maximum-size files must be split.
 */
export const knowledgeUpload = {
  fieldName: "files",
  maxFilesPerRequest: 20,
  maxRequestBytes: 64 * 1024 * 1024,
  /** Longer names are cut (the extension is kept). */
  maxFileNameChars: 200,
} as const;

/** Public assistant text fields, origins, API keys and the owner's knowledge search (chosen for Tala). */
export const publicAssistantFieldLimits = {
  maxNameChars: 100,
  maxDescriptionChars: 1000,
  maxInstructionsChars: 8000,
  maxHeaderTextChars: 100,
  maxWelcomeMessageChars: 1000,
  /** How visitors reach the owner, given when the assistant does not know (customization.contactLine). */
  maxContactLineChars: 300,
  maxAvailabilityLineChars: 80,
  maxAllowedOrigins: 50,
  maxOriginChars: 255,
} as const;

/** `tala_pk_` + 32 random bytes in base64url (43 characters). */
/** The widget's theme and language choices (customization.theme / .language). */
export const widgetThemes = ["auto", "light", "dark"] as const;
export const widgetLanguages = ["auto", "en", "fr", "ar"] as const;

/** An assistant's avatar or logo (PUT …/avatar): checked by its first bytes, kept in R2 under the assistant. */
export const assistantAvatar = {
  maxBytes: 256 * 1024,
  /** What the dashboard's picker offers; the server trusts the bytes, never the name or the declared type. */
  accept: "image/png,image/jpeg,image/webp",
  /** Multipart field name, when the body is a form. */
  fieldName: "file",
  /** Served with the version in its URL, so a new upload is a new URL: cached for a year. */
  cacheSeconds: 31_536_000,
} as const;

export const publicAssistantApiKey = {
  prefix: "tala_pk_",
  randomBytes: 32,
  pattern: /^tala_pk_[A-Za-z0-9_-]{43}$/,
} as const;

/**
 * An assistant's secret keys (for servers and the OpenAI-compatible API; never in a web page):
 * `tala_sk_` + 32 random bytes, base64url. Only a SHA-256 is stored; the key is shown once.
 */
export const assistantSecretKey = {
  prefix: "tala_sk_",
  randomBytes: 32,
  pattern: /^tala_sk_[A-Za-z0-9_-]{43}$/,
  /** Keys in use (not revoked) per assistant. */
  maxPerAssistant: 10,
  maxNameChars: 80,
  /** `last_used_at` is written at most this often per key (off the response path). */
  lastUsedIntervalMs: 60 * 60 * 1000,
} as const;

export const knowledgeSearch = {
  maxQueryChars: 500,
  defaultResults: 5,
  maxResults: 20,
  /** Characters of a passage shown as its excerpt. */
  excerptChars: 400,
  /**
   * What a passage must clear for answers to use and cite it (worker/knowledge/relevance.ts):
   * at least `minCoverage` of the question's content words (2 of 2, 2 of 3, 3 of 4…) and a BM25
   * score of at least `minScoreRatio` of the best such passage's, or a vector match of cosine
   * `minVectorScore` or more when embeddings are configured.
   */
  relevanceFloor: { minCoverage: 2 / 3, minScoreRatio: 0.8, minVectorScore: 0.5 },
  /**
   * How hybrid search fuses each embedder's vectors with BM25 and floors them
   * (worker/knowledge/fusion.ts), by the embedder's model name: `vectorWeight` in the convex
   * combination of normalised scores, `minVectorScore` the cosine a vector match needs to clear
   * the relevance floor alone, the disagreement guard (`guardDepth`, `guardWeight`). Why each
   * value: worker/knowledge/README.md; figures: bench/README.md.
   */
  embedders: {
    "@cf/baai/bge-m3": { vectorWeight: 0.8, minVectorScore: 0.5, guardDepth: 5, guardWeight: 0.2 },
    "universal-sentence-encoder-lite": { vectorWeight: 0.8, minVectorScore: 0.5, guardDepth: 5, guardWeight: 0.2 },
    "hashing-bag-of-words": { vectorWeight: 0.15, minVectorScore: 0.45, guardDepth: 5, guardWeight: 0.05 },
  },
  /** Any other model (an OpenAI-compatible endpoint's): both lists alike, and the floor production had before per-model floors. */
  defaultEmbedder: { vectorWeight: 0.5, minVectorScore: 0.5, guardDepth: 5, guardWeight: 0.2 },
} as const;

export const serviceWorker = {
  path: "/service-worker.js",
  scope: "/",
  /** The message a page posts to a waiting worker to make it take over (after the user agrees). */
  skipWaitingType: "SKIP_WAITING",
  manifestPath: "/manifest.webmanifest",
  themeColor: "#2962FF",
} as const;

/** Server-side security parameters (not in the spec; chosen for Tala). */
export const auth = {
  tokenTtlMs: 30 * 24 * 60 * 60 * 1000,
  /**
   * Deleting an account without a password (Google only) needs a Google sign-in this recent:
   * a stolen Tala session alone cannot erase an account (Firebase's own "requires recent login").
   */
  recentFederatedLoginMs: 5 * 60 * 1000,
  /** A place (account and IP) that signed in within this window, or the one before, is known (see `throttles`). */
  knownPlaceWindowMs: 30 * 24 * 60 * 60 * 1000,
  codeLength: 6,
  codeTtlMs: 15 * 60 * 1000,
  codeMaxAttempts: 5,
  passwordMinLength: 8,
  passwordMaxLength: 256,
  /** First name characters (profile and registration). */
  nameMaxLength: 100,
  guestSessionPrefix: "guest-",
  /** PBKDF2-SHA256 work factor for new hashes; workerd caps PBKDF2 at 100 000 iterations. */
  passwordKdfIterations: 100_000,
  /** A token's last_used_at is written at most this often, so reads do not turn into writes. */
  tokenTouchIntervalMs: 60 * 60 * 1000,
} as const;

/** Per-IP and per-account throttles on the account endpoints: `limit` calls per `windowMs`. */
export const throttles = {
  /**
   * Sign-in counts FAILED attempts only (a correct password gives its slot back), on three
   * counters (worker/services/throttle/login-attempts.ts): per (account, IP) pair — the one a
   * guesser hits — so an attacker's failures never lock the owner out elsewhere; per IP, looser,
   * against one address spraying many accounts; per account across all IPs, much looser, slowing
   * a guesser spread over many addresses (at least `loginAccount / login` of them to reach it).
   * The account counter is skipped for a place (account, IP) that signed in within the last
   * `auth.knownPlaceWindowMs` or the window before: such a guesser can delay a new place only.
   */
  login: { limit: 10, windowMs: 15 * 60 * 1000 },
  loginIp: { limit: 30, windowMs: 15 * 60 * 1000 },
  loginAccount: { limit: 100, windowMs: 15 * 60 * 1000 },
  register: { limit: 20, windowMs: 60 * 60 * 1000 },
  code: { limit: 5, windowMs: 15 * 60 * 1000 },
  /** POST /api/chat/attachments (text extraction of a chat attachment), per IP. */
  chatAttachment: { limit: 30, windowMs: 10 * 60 * 1000 },
} as const;
export type ThrottleName = keyof typeof throttles;

/**
 * The largest request body (bytes) a JSON route reads, per route family (chosen for Tala): a body
 * over it is refused with 413 before it is read (worker/http/body-limit.ts). Each leaves room for
 * the family's largest valid body at 3 bytes per character: assistant settings (~23 000 chars),
 * a widget message with its attachments' text (~67 000; the owner's Playground adds its
 * earlier turns: ~77 000), an OpenAI-style conversation
 * (openAiCompat: 100 × 32 000). Multipart uploads keep their own limits (knowledgeUpload, upload).
 */
export const requestBodyLimits = {
  defaultBytes: 128 * 1024,
  widgetBytes: 256 * 1024,
  openAiBytes: 10 * 1024 * 1024,
  /** A chat frame sent over HTTP (POST /api/chat/frames): a socket frame's 1 MiB. */
  chatFrameBytes: 1024 * 1024,
  /**
   * Past its cap, how much more of a body without Content-Length is read and dropped before the
   * 413, so the client finishes sending and its connection stays usable; a body longer still is
   * cancelled.
   */
  drainBytes: 64 * 1024 * 1024,
} as const;

/**
 * Knowledge-base processing limits (not in the spec; chosen for Tala and measured by
 * `bench/ingest.mjs` so a 15 MB file of any accepted type stays well inside a Worker's 128 MB).
 * Token counts are estimates (see worker/knowledge/tokens.ts), not a model tokenizer's.
 */
export const knowledgeLimits = {
  /** Characters of extracted text kept per file; the rest is dropped and the file marked truncated. */
  maxExtractedChars: 16_000_000,
  /** Chunks stored per file (≈ maxExtractedChars / chunk size, plus overlap). */
  maxChunksPerFile: 14_000,
  /** Rows read per sheet (xlsx, xls) or per CSV file, and cells read per workbook. */
  maxSheetRows: 200_000,
  maxCells: 2_000_000,
  /**
   * docx/xlsx: bytes inflated per file, COUNTED while inflating (a zip's declared sizes are never
   * trusted): past `maxOfficeXmlBytes` the file is refused (zip bombs). mammoth reads the document
   * when all its parts inflate to at most `maxMammothXmlBytes` (it needs ~13× that in memory), and
   * SheetJS the workbook up to `maxSheetJsXmlBytes` (~7×); both receive a re-packed zip of stored,
   * already size-checked parts, so they never inflate anything themselves. Larger files are read
   * by Tala's streaming readers (worker/knowledge/extract/*-stream.ts).
   */
  maxOfficeXmlBytes: 200 * 1024 * 1024,
  maxMammothXmlBytes: 5 * 1024 * 1024,
  maxSheetJsXmlBytes: 10 * 1024 * 1024,
  /** Legacy .xls files are parsed whole by SheetJS (~25× their size in memory): larger ones are refused. */
  maxXlsBytes: 2.5 * 1024 * 1024,
  /** PDF pages read. */
  maxPdfPages: 5_000,
  /**
   * Hostile-input caps (a file over one fails alone, with a message naming the limit): characters
   * of one CSV record, Markdown table line, XML tag or Office text run; cells in one row (Excel's
   * column count); nesting depth of XML elements and JSON containers (far deeper than real data:
   * past 64 levels JSON is summarised anyway); XML elements per file.
   */
  maxLineChars: 1024 * 1024,
  maxCellsPerRow: 16_384,
  maxNestingDepth: 10_000,
  maxXmlElements: 2_000_000,
  /** Blocks (headings, paragraphs, rows) kept per file: past it the text is cut (tiny blocks cost more than their text). */
  maxBlocks: 500_000,
  /** Wall-clock budget of one file's extraction, checked inside every reader's loop; past it the file fails. */
  maxExtractMs: 30_000,
  /**
   * Work budget of one file's extraction, in reader steps (`ExtractGuard.tick`: a line, element,
   * cell, block…): `extractStepsBase` plus `extractStepsPerByte` per byte of the file and per byte
   * inflated from it. Every reader is linear, so an honest file uses a small fraction; this is
   * what stops runaway work in workerd, where the clock of `maxExtractMs` stands still.
   */
  extractStepsBase: 20_000_000,
  extractStepsPerByte: 16,
  /** Chunker budget: a chunk aims at `targetTokens`, never passes `maxTokens`, repeats ~15% as overlap. */
  chunkTargetTokens: 400,
  chunkMaxTokens: 512,
  chunkOverlapRatio: 0.15,
} as const;

/**
 * Chat limits (not in the spec; chosen for Tala). Frames above the wire limits are refused with
 * a message-error; the prompt limits bound what reaches the model.
 */
export const chatLimits = {
  /** Characters of one user message. */
  maxMessageChars: 32_000,
  /**
   * Attachments per message, the length of a name, and the extracted text accepted per file on the
   * socket (clients cut longer text first; 5 × 40 000 characters stays under a frame's 1 MiB).
   */
  maxFiles: 5,
  maxFileNameChars: 255,
  maxFileTextChars: 40_000,
  /** Extracted text of one attachment, and of all attachments, put into the prompt. */
  promptFileChars: 20_000,
  promptFilesTotalChars: 50_000,
  /** Earlier messages of the chat sent to the model, newest kept first, within a character budget. */
  historyMessages: 20,
  historyChars: 48_000,
  /** A generated title: at most this many words; an edited title: at most this many characters. */
  titleMaxWords: 6,
  maxTitleChars: 200,
  /** Longest wait for the title call after the first reply; past it the fallback title is used. */
  titleTimeoutMs: 10_000,
  /** A streaming reply's text is saved at least this often, so a crash loses little. */
  partialSaveIntervalMs: 1000,
  /** Chats the REST list returns per page: default and maximum. */
  listPageSize: 10,
  listMaxPageSize: 50,
  maxSearchChars: 200,
  maxModelIdChars: 200,
  maxClientMessageIdChars: 100,
  /** Chat rooms one connection may watch at once (join-{room}). */
  maxWatchedRooms: 20,
  /** Versions kept of one regenerated reply (the current one included); past it the oldest goes. */
  maxReplyVersions: 10,
} as const;

export const projectLimits = {
  maxNameChars: 100,
  maxInstructionsChars: 8000,
} as const;

/**
 * Guests (no account): messages per rolling day, counted per guest session id AND per IP by the
 * RateLimiter Durable Object (exact under concurrency). Not in the spec; chosen for Tala.
 */
export const guestQuota = {
  perGuestPerDay: 20,
  perIpPerDay: 50,
  windowMs: 24 * 60 * 60 * 1000,
} as const;

/**
 * A signed-in user's chat (not in the spec; chosen for Tala), counted exactly in the user's own
 * room (one Durable Object for all their tabs). `maxRunningReplies`: replies being written at once
 * (send-message and regenerate alike), enough for a question in a second chat while a first reply
 * is still written. `perMinute`: messages in any 60 seconds, faster than anyone types (the
 * Playground's owner rate). `unverifiedPerDay`: messages a UTC day (a guest's window) while the
 * account's e-mail is not verified: an unproved address costs as little as a guest session, so a
 * little more than a guest's day, enough to try Tala while the code arrives; verifying lifts it.
 */
export const userChatLimits = {
  maxRunningReplies: 3,
  perMinute: 20,
  minuteMs: 60 * 1000,
  unverifiedPerDay: 30,
  dayMs: 24 * 60 * 60 * 1000,
} as const;

/** A guest's chats live in their room's own storage, erased after this long without activity. */
export const guestSession = {
  idleTtlMs: 24 * 60 * 60 * 1000,
  /**
   * The spec's guest id form: guest-{timestamp}-{random}. The id is the guest's only credential,
   * so its random part is at least 16 characters from a CSPRNG (the dashboard makes 20 from
   * [a-z0-9], ~103 bits); shorter ids, as older dashboards made, are refused.
   */
  idPattern: /^guest-\d{10,16}-[A-Za-z0-9]{16,64}$/,
  randomChars: 20,
} as const;

/**
 * The embeddable widget's server side (not in the spec; chosen for Tala): the key's header and
 * query name, wire limits of a visitor message, per-IP throttles (minute windows on the Workers
 * Rate Limiting binding, whose wrangler.toml limits must equal these; longer ones in the RateLimiter
 * Durable Object), and how much context an answer gets.
 */
export const widget = {
  /** Retry-After (seconds) of a 503 when an assistant's own Durable Object did not answer (reset, overloaded, moving legacy rows). */
  assistantRetryAfterSeconds: 5,
  keyHeader: "X-Assistant-Key",
  keyQuery: "key",
  /** Characters of one visitor message, attachments per message and extracted text per attachment. */
  maxMessageChars: 4_000,
  maxFiles: 3,
  maxFileNameChars: 255,
  maxFileTextChars: 20_000,
  maxReferrerChars: 2_048,
  maxLocaleChars: 35,
  maxSessionIdChars: 100,
  maxClientMessageIdChars: 100,
  /** Earlier messages of the session sent to the model, and added to the retrieval query. */
  historyMessages: 10,
  historyChars: 12_000,
  retrievalTurns: 2,
  /** Passages retrieved per question, and characters of each put into the prompt. */
  retrievalResults: 6,
  passageChars: 1_500,
  /** Passages quoted in offline mode (no model). */
  offlineExcerpts: 3,
  /**
   * Per-IP throttles of the publishable key's endpoints: `sessionCreate` and `message` are `limit`
   * calls per `windowMs` across all assistants; `dailyShare` is per assistant.
   */
  throttles: {
    sessionCreate: { limit: 30, windowMs: 60 * 60 * 1000 },
    message: { limit: 30, windowMs: 60 * 1000 },
    /**
     * Per IP and assistant, per UTC day: the share of the assistant's daily limit one network may
     * use (at least `minimum` messages, at most the whole limit), so a burst from one IP cannot use
     * up the day for every other visitor.
     */
    dailyShare: { fraction: 0.2, minimum: 5 },
    /** Answer ratings (POST …/messages/{id}/feedback) per IP across all assistants: a counter of its own, so rating never costs a message. */
    feedback: { limit: 60, windowMs: 60 * 1000 },
  },
  /** The daily limit counts per UTC day; the per-session counter lives this long after its first message. */
  sessionCounterWindowMs: 30 * 24 * 60 * 60 * 1000,
} as const;

/** POST /api/v1/chat/completions and GET /api/v1/models (chosen for Tala). */
export const openAiCompat = {
  /** The model name answered when the request names none, and the one model GET /api/v1/models lists (the key's assistant). */
  defaultModel: "tala-assistant",
  /** `owned_by` of that model. */
  modelOwner: "tala",
  maxMessages: 100,
  maxMessageChars: 32_000,
  /** Messages before the last user message sent to the model as history. */
  historyMessages: 10,
} as const;

/**
 * The owner's Playground (chosen for Tala): POST /api/public-assistants/{id}/playground.
 * The conversation lives in the browser, which sends its last turns with each message, bounded as
 * the widget's own history is; nothing is stored and no visitor limit is counted. Each owner has
 * their own throttle instead (per user, across their assistants).
 */
export const playground = {
  maxHistoryMessages: widget.historyMessages,
  /** Characters of those turns in all (the prompt keeps no more of a visitor's history either). */
  maxHistoryChars: widget.historyChars,
  throttle: { limit: 20, windowMs: 60 * 1000 },
} as const;

/**
 * Website sources of a public assistant's knowledge (chosen for Tala). A source is one
 * page or a whole site (its sitemap.xml, else same-origin links from the start page), crawled in
 * the background by the `tala-ingest` queue's consumer, each page indexed like a file.
 */
export const webSources = {
  scopes: ["page", "site"] as const,
  schedules: ["off", "daily", "weekly"] as const,
  defaultMaxPages: 50,
  maxMaxPages: 500,
  /** Sources per assistant. */
  maxSources: 20,
  maxUrlChars: 2_048,
  /** What every request of the crawler says it is. */
  userAgent: "TalaBot/1.0 (knowledge crawler of a Tala assistant; robots.txt token: TalaBot)",
  /** The pause between two requests to one site; a robots.txt Crawl-delay lengthens it up to `maxCrawlDelayMs`. */
  requestSpacingMs: 1_000,
  maxCrawlDelayMs: 10_000,
  /** One page's body (HTML or text) is read up to this many bytes; past it the page fails. */
  maxPageBytes: 2 * 1024 * 1024,
  /** robots.txt and sitemaps are read up to these sizes (the rest is ignored). */
  maxRobotsBytes: 512 * 1024,
  maxSitemapBytes: 10 * 1024 * 1024,
  /** Nested sitemaps of a sitemap index followed. */
  maxSitemapFiles: 20,
  /** Time for one request, headers and body. */
  fetchTimeoutMs: 15_000,
  maxRedirects: 5,
  /** Links taken from one page. */
  maxLinksPerPage: 1_000,
  /** A page's title (from <title>, og:title or its first h1) is cut to this many characters. */
  maxTitleChars: 300,
  /** Time for the DNS-over-HTTPS look-up that checks a host resolves to public addresses only. */
  dnsTimeoutMs: 5_000,
  /** Pages one consumer run fetches before it hands over to the next message (bounded time per run). */
  pagesPerRun: 10,
  /** Re-sync periods of the schedules. */
  scheduleMs: { daily: 24 * 60 * 60 * 1000, weekly: 7 * 24 * 60 * 60 * 1000 },
} as const;
export type WebSourceScope = (typeof webSources.scopes)[number];
export type WebSourceSchedule = (typeof webSources.schedules)[number];

/** Insights of a public assistant (chosen for Tala). */
export const insightsLimits = {
  periods: [7, 30, 90] as const,
  defaultDays: 30,
  /** Rows of each list of the insights answer. */
  maxListed: 20,
  /** A question is kept for counting up to this many characters, normalised (case, spaces, punctuation). */
  maxQuestionChars: 300,
  /** Distinct questions counted per assistant; past it the least asked, oldest are forgotten. */
  maxTrackedQuestions: 5_000,
  /** The most asked rows of a period read to group near-identical questions (typos) before listing maxListed. */
  groupedCandidates: 200,
  /** Conversations linked from one question. */
  sessionsPerQuestion: 5,
  /** Days of daily counts kept (the longest period with room to spare). */
  daysKept: 400,
  /** Characters of a rated answer shown in the insights (its start). */
  answerPreviewChars: 280,
} as const;

/**
 * Signed visitor identity: the site's server signs its signed-in user into a compact
 * token (JWT, HS256) with the assistant's identity secret; the widget passes it on, the server
 * verifies it on every session start and socket.
 */
export const visitorIdentity = {
  /** Header of GET /api/widget/conversations and GET /api/widget/sessions/{id} for a verified visitor's session. */
  tokenHeader: "X-Visitor-Token",
  /** Query parameter of the widget socket's URL that carries the token (sockets have no headers in browsers). */
  socketQuery: "visitorToken",
  maxTokenChars: 4_096,
  /** `exp` may be at most this far ahead of the server's clock; `iat`/`nbf` may be this much in the future (clock skew). */
  maxLifetimeSeconds: 24 * 60 * 60,
  clockSkewSeconds: 60,
  maxSubChars: 255,
  maxNameChars: 200,
  maxEmailChars: 320,
  /** The identity secret as shown once to the owner: `tala_vs_` + 43 base64url characters (32 random bytes). */
  secretPrefix: "tala_vs_",
  /** How long a rotated-out secret keeps verifying tokens: the owner picks one, 24 h by default. */
  graceHours: { default: 24, options: [0, 1, 24, 72, 168] },
  /** Conversations GET /api/widget/conversations lists, newest first. */
  listedConversations: 50,
  /** Limits of a verified visitor count per user (across their conversations) or per session, as the owner picks. */
  limitScopes: ["session", "user"],
} as const;
export type VisitorLimitScope = (typeof visitorIdentity.limitScopes)[number];

/**
 * Proof-of-work before a widget session starts: required when new sessions from one
 * address, one /24 (IPv6: /48) or one user agent spike, or always when the owner turns it on.
 * The server signs a challenge (HMAC, no server-side state); the widget finds a nonce such that
 * SHA-256(`${challenge}:${nonce}`) starts with `difficulty` zero bits; the server verifies the
 * signature, age, address and bits, and refuses a challenge spent once (kept until it expires).
 */
export const botDefence = {
  modes: ["auto", "always"],
  defaultMode: "auto",
  challengeTtlSeconds: 120,
  /** Leading zero bits asked: ~65k hashes (a few hundred ms on a phone) normally, more under a spike. */
  difficultyBits: { normal: 16, spike: 18 },
  maxChallengeChars: 1_024,
  maxNonceChars: 32,
  /** New sessions in the last 10 minutes above which starting one needs a proof (auto mode). */
  spikeWindowMs: 10 * 60 * 1000,
  spikeThresholds: { address: 10, network: 40, userAgent: 200 },
  /**
   * Visitors' messages from one address in the same window above which a new session from that
   * address needs a proof too (auto mode): a message spike, which the per-IP message throttle
   * slows but does not stop from moving on to fresh sessions.
   */
  messageSpikeThreshold: 100,
} as const;
export type BotDefenceMode = (typeof botDefence.modes)[number];

/**
 * Monthly message budgets: per assistant and, optionally, across all of an owner's
 * assistants. Visitor messages count (the ones a per-session limit counts), per UTC calendar month.
 */
export const budgets = {
  min: 1,
  max: 10_000_000,
  /** Shares of a budget at which the owner is told (e-mail + dashboard banner), each once a month. */
  thresholds: [0.8, 1],
  actions: ["pause", "continue"],
  defaultAction: "pause",
} as const;
export type BudgetAction = (typeof budgets.actions)[number];

/**
 * Curated answers (Q&A pairs) an owner writes to correct or fix what the assistant says
 * (contract/schemas/qa.ts). A pair answers `exact` (its answer is the reply, no model call) or
 * `guide` (its answer goes to the model as the first, authoritative passage). Strictness is how
 * close a visitor's question must be to a pair's question or a variant for the pair to be used;
 * below it, a matching pair is still a candidate passage.
 */
export const qaLimits = {
  maxPairs: 5000,
  maxQuestionChars: 300,
  maxVariants: 20,
  maxAnswerChars: 10_000,
  pageSize: 25,
  maxSearchChars: 200,
  modes: ["exact", "guide"] as const,
  defaultMode: "guide" as const,
  strictnessLevels: ["strict", "balanced", "loose"] as const,
  defaultStrictness: "balanced" as const,
  /** CSV import: rows (after the header), the file's size, and the columns in order. */
  maxImportRows: 5000,
  maxImportBytes: 5 * 1024 * 1024,
  csvColumns: ["question", "answer", "variants"] as const,
  /** Variants in one CSV cell are separated by this character. */
  csvVariantSeparator: "|",
  /**
   * Phrasings whose vectors a turn compares with the question's (every pair's question first, then
   * variants): a bound on the turn's work however many variants pairs have (a question and two
   * variants for each of `maxPairs`).
   */
  maxVectorPhrasings: 15_000,
  /** The matcher's memory for those vectors (about one byte a dimension a phrasing): long vectors get fewer phrasings. */
  maxVectorBytes: 16 * 1024 * 1024,
} as const;

/** Text snippets: knowledge typed or pasted in the dashboard, indexed like a file. */
export const knowledgeTextLimits = {
  maxTitleChars: 200,
  maxContentChars: 50_000,
  /** The body cap of POST/PUT …/texts: the longest content even when every character is a JSON \uXXXX escape (6 bytes), so the limit's 400 is what answers. */
  maxRequestBytes: 512 * 1024,
} as const;

/** Starter questions shown as chips when the widget opens. */
export const starterQuestionLimits = {
  maxQuestions: 4,
  maxChars: 80,
} as const;

/**
 * A person taking over a visitor's conversation (contract/schemas/handoff.ts): the owner's live
 * inbox, takeover, and the handoff a visitor asks for (chosen for Tala; the spec has none).
 */
export const handoffLimits = {
  /** A conversation's handoff state: nobody asked; the visitor asked for a person; a person has it. */
  states: ["none", "requested", "taken"] as const,
  /** A takeover with no message from either side for this long ends by itself (0: never). The owner's choice. */
  idleEndMinutesOptions: [0, 10, 30, 60, 120] as const,
  defaultIdleEndMinutes: 30,
  /** Minutes after a request nobody took before the widget asks an anonymous visitor for an e-mail address. */
  emailAfterMinutes: { min: 1, max: 120, default: 5 },
  /** The owner's texts shown to a visitor waiting for a person. */
  maxBusinessHoursChars: 200,
  maxReplyTimeChars: 120,
  /** A person's message: the same cap as a visitor's (widget.maxMessageChars). */
  maxMessageChars: 4_000,
  maxEmailChars: 254,
  /** What an e-mail address left for the reply must look like (the server's check, and the widget's before it sends). */
  emailPattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  /** At most one e-mail to the owner per conversation in this window (requests), and one to the visitor (replies after they left). */
  emailIntervalMs: 10 * 60 * 1000,
  /** However many conversations ask, at most this many request e-mails go to the owner per assistant per hour (the dashboard still tells each). */
  maxOwnerEmailsPerHour: 10,
  /**
   * While a person was asked for or has the conversation, a visitor's messages reach no model and
   * count against no limit: at most this many in a row until a person writes (429 waitForPerson).
   */
  maxUnansweredMessages: 20,
  /** A typing indicator lasts this long unless renewed; a side sends `typing` at most once per `typingSendMs`. */
  typingTtlMs: 6_000,
  typingSendMs: 2_000,
  /** Inbox list: page size, and the filters. "live": a visitor socket or event stream open now. */
  inboxPageSize: 30,
  inboxFilters: ["needs-person", "with-person", "live", "all"] as const,
  /**
   * The owner's dashboard asks the assistant's object to tell it of every visitor message
   * (POST …/inbox/watch) while the inbox is on screen; the watch lapses after `watchLeaseMs`
   * unless renewed every `watchRenewMs`. A handoff request is told to the owner whether watched or not.
   */
  watchLeaseMs: 60_000,
  watchRenewMs: 25_000,
  /** A reply streamed to a watching owner is sent in batches at most this often. */
  watchDeltaMs: 250,
  /** The dashboard's Inbox reads the list (and the open conversation) again this often while its socket is not up (HTTP fallback, reconnecting, offline). */
  inboxPollMs: 4_000,
  /** The visitor's event stream (GET /api/widget/sessions/{id}/events): how long one stream lasts before the widget opens the next, and the heartbeat. */
  eventStreamMaxMs: 5 * 60 * 1000,
  eventStreamHeartbeatMs: 25_000,
  /** A session's event streams open at once (each is a held request in the visitor's room). */
  maxEventStreams: 4,
  /** GET /api/inbox/summary asks at most this many of the owner's assistants (newest first), this many at once. */
  summaryMaxAssistants: 50,
  summaryConcurrency: 10,
} as const;
export type HandoffState = (typeof handoffLimits.states)[number];
export type InboxFilter = (typeof handoffLimits.inboxFilters)[number];

/**
 * Lead capture (schemas/leads.ts): the owner's form, when the widget shows it, and the bounds of
 * what a visitor submits. Chosen for Tala.
 */
export const leadLimits = {
  /** A field's kind: four known ones (the widget validates `email` and `phone`) and free text. */
  fieldKinds: ["name", "email", "phone", "company", "text"] as const,
  maxFields: 6,
  /** A form has each known kind at most once; `text` fields up to maxFields. */
  maxLabelChars: 60,
  maxIntroChars: 300,
  maxThanksChars: 300,
  /** A field's key (what the submission and webhooks name it by): `name`, `email`, `phone`, `company`, or `text1`…`text6`. */
  keyPattern: /^(?:name|email|phone|company|text[1-6])$/,
  /** The longest value a visitor may give per kind. */
  maxValueChars: { name: 120, email: 254, phone: 32, company: 120, text: 1_000 } as const,
  /** E-mail as the handoff's check; a phone: digits with optional +, spaces, dots, dashes, brackets, 6 to 20 digits. */
  emailPattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  phonePattern: /^\+?[0-9 ().-]{6,32}$/,
  phoneDigits: { min: 6, max: 20 },
  /** "Before the first message": off, offered (dismissable), or required before the visitor can write. */
  beforeFirstMessageModes: ["off", "optional", "required"] as const,
  /** "After N visitor messages": 0 turns it off. */
  afterMessages: { min: 0, max: 50, default: 0 },
  /** A conversation may submit at most this many leads (a corrected address is a second one); then 429. */
  maxLeadsPerSession: 3,
  /** Leads list: page size, deepest page, the search text. */
  pageSize: 25,
  maxPage: 10_000,
  maxQueryChars: 200,
  /** CSV export: at most this many leads, newest first, read in pages of `exportPageSize`. */
  exportMaxRows: 100_000,
  exportPageSize: 500,
  /** However many leads come, at most this many "new lead" e-mails go to the owner per assistant per hour. */
  maxOwnerEmailsPerHour: 20,
} as const;
export type LeadFieldKind = (typeof leadLimits.fieldKinds)[number];

/**
 * Signed webhooks (schemas/webhooks.ts): endpoints, events, delivery and its retries. Chosen for
 * Tala (the header and retry rules follow the issue's contract; the backoff is Stripe-like).
 */
export const webhookLimits = {
  events: ["conversation.started", "message.answered", "lead.created", "feedback.created", "handoff.requested"] as const,
  /** The event `POST …/webhooks/{id}/test` sends (only to that endpoint; never recorded as a real event). */
  testEvent: "webhook.test",
  maxPerAssistant: 10,
  maxUrlChars: 2_048,
  maxDescriptionChars: 200,
  /** A delivery's request: this long before it counts as a network error; redirects followed (each re-checked). */
  timeoutMs: 10_000,
  maxRedirects: 3,
  /**
   * An attempt taken by the queue's consumer holds its delivery this long (the timeout, the address
   * checks and the report): another copy of the message (the queue delivers at least once) waits
   * rather than sending again; a consumer that died leaves the delivery to the next copy after it.
   */
  attemptLeaseMs: 30_000,
  /** Retries of network errors, 5xx and 429: exponential from `baseDelaySeconds`, capped per wait, for `retryWindowMs` after the first attempt. */
  baseDelaySeconds: 30,
  maxDelaySeconds: 6 * 60 * 60,
  retryWindowMs: 24 * 60 * 60 * 1000,
  /** A 429's Retry-After is honoured up to this (the queue's longest delay). */
  maxRetryAfterSeconds: 12 * 60 * 60,
  /** An endpoint whose deliveries have all failed for this long is disabled (and the owner e-mailed). */
  disableAfterMs: 24 * 60 * 60 * 1000,
  /** What a delivery record keeps of the response body. */
  responseExcerptBytes: 1_024,
  /** Delivery records kept per endpoint (the newest), and shown per page. */
  deliveriesKept: 200,
  deliveriesPageSize: 50,
  /** Events waiting in the assistant's outbox; beyond it the oldest undelivered are dropped (and counted). */
  maxOutbox: 10_000,
  /** An event's JSON body at most (a long reply is cut, marked `truncated`). */
  maxBodyBytes: 64 * 1024,
  /** The signing secret: `whsec_` and 32 random bytes, base64url. */
  secretPrefix: "whsec_",
  /** What a receiver should accept: a timestamp at most this far from its clock (the README's verifiers). */
  signatureToleranceSeconds: 300,
  /** Headers of every delivery. */
  signatureHeader: "Tala-Signature",
  eventIdHeader: "Tala-Event-Id",
  userAgent: "Tala-Webhooks/1",
  /** At most one "endpoint disabled" e-mail per endpoint per this window. */
  disabledEmailIntervalMs: 24 * 60 * 60 * 1000,
} as const;
export type WebhookEventType = (typeof webhookLimits.events)[number];

/**
 * Teams (schemas/team.ts): every account has its workspace (its id is the owner's user id, so the
 * assistants' `user_id` is their workspace); the owner invites people with a role. What each role
 * may do is `teamPermissions`: one table read by the server's route guard, the dashboard and the
 * authorization matrix test. Chosen for Tala.
 */
export const teamRoles = ["owner", "admin", "agent", "viewer"] as const;
export type TeamRole = (typeof teamRoles)[number];
/** The roles an invitation or a role change may give (ownership moves only by transfer). */
export const memberRoles = ["admin", "agent", "viewer"] as const;
export type MemberRole = (typeof memberRoles)[number];

export const teamPermissions = {
  /** See the workspace's assistants, their settings (read-only) and knowledge list. */
  "assistants.read": ["owner", "admin", "agent", "viewer"],
  /** Create, change, delete assistants; knowledge, websites, keys, identity secret, webhooks, lead form, Playground. */
  "assistants.manage": ["owner", "admin"],
  /** The inbox: take over, reply, hand back. */
  "inbox.reply": ["owner", "admin", "agent"],
  /** Conversations (History) and their export. */
  "history.read": ["owner", "admin", "agent", "viewer"],
  "leads.read": ["owner", "admin", "agent", "viewer"],
  "insights.read": ["owner", "admin", "viewer"],
  /** Curated answers: add, edit, import, delete. */
  "qa.manage": ["owner", "admin", "agent"],
  /** Delete a conversation or a visitor's data; export a visitor's data. */
  "privacy.manage": ["owner", "admin"],
  /** Invite, change and remove agents and viewers; revoke invitations. */
  "team.manage": ["owner", "admin"],
  /** Invite, change and remove admins; transfer ownership. */
  "team.admins": ["owner"],
  "audit.read": ["owner", "admin"],
} as const satisfies Record<string, readonly TeamRole[]>;
export type TeamPermission = keyof typeof teamPermissions;

export const can = (role: TeamRole | null | undefined, permission: TeamPermission): boolean =>
  !!role && (teamPermissions[permission] as readonly TeamRole[]).includes(role);

export const teamLimits = {
  /** The request header naming the workspace a call acts in (default: the caller's own). */
  workspaceHeader: "X-Workspace-Id",
  maxMembers: 50,
  maxPendingInvitations: 50,
  invitationTtlMs: 7 * 24 * 60 * 60 * 1000,
  /** Invitation codes: this many random characters of `codeAlphabet` (Crockford base32, no look-alikes). */
  codeChars: 24,
  codeAlphabet: "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
  /** Invitations sent per workspace per hour (each is an e-mail). */
  invitationsPerHour: 20,
  /** Wrong codes tried per user per hour before accepting is refused for the hour. */
  acceptAttemptsPerHour: 10,
  maxWorkspaceNameChars: 80,
  /** A removed member's sockets into the workspace are closed within this. */
  revocationMs: 1_000,
  /** Audit entries are kept this long; a page holds `auditPageSize`. */
  auditRetentionMs: 365 * 24 * 60 * 60 * 1000,
  auditPageSize: 50,
} as const;

/** What the audit log records (schemas/team.ts `auditEntrySchema.action`). */
export const auditActions = [
  "member.invited",
  "invitation.revoked",
  "invitation.accepted",
  "member.role_changed",
  "member.removed",
  "member.left",
  "ownership.transferred",
  "assistant.created",
  "assistant.deleted",
  "assistant.access_changed",
  "assistant.retention_changed",
  "api_key.regenerated",
  "secret_key.created",
  "secret_key.revoked",
  "identity_secret.created",
  "identity_secret.revoked",
  "webhook.created",
  "webhook.deleted",
  "webhook.secret_rotated",
  "conversation.deleted",
  "visitor.deleted",
  "visitor.exported",
  "chats.exported",
  "leads.exported",
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Privacy (schemas/privacy.ts): how long an assistant keeps visitors' conversations, and one
 * visitor's deletion and export. Chosen for Tala.
 */
export const privacyLimits = {
  /** `config.retentionDays`: one of these, or null (keep, the default). */
  retentionDays: [30, 90, 365] as const,
  /** The object's retention pass: conversations deleted per batch, batches per alarm run (then it re-arms). */
  retentionBatchSessions: 200,
  retentionBatchesPerRun: 10,
  /** The pass runs daily at this UTC hour (spread by a per-assistant offset up to an hour). */
  retentionHourUtc: 3,
  /** A visitor's conversations deleted or exported at most this many at a time (paged internally). */
  visitorBatchSessions: 200,
  /** The widget's privacy notice (`customization.privacyNotice`, `privacyUrl`). */
  maxNoticeChars: 200,
  maxNoticeUrlChars: 500,
} as const;
export type RetentionDays = (typeof privacyLimits.retentionDays)[number];
