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
} as const;

export const layout = {
  sidePanelWidthPx: 250,
  tooltipDelayMs: 700,
} as const;

export const storageKeys = {
  guestSessionId: "guestSessionId",
  token: "token",
  firebaseToken: "firebaseToken",
  theme: theme.storageKey,
  /** Where the access guard remembers the location a signed-out user was going to. */
  returnTo: "tala:returnTo",
} as const;

export const chatHistory = {
  pageSize: 10,
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
    customization: {
      primaryColor: "#2962FF",
      headerText: ASSISTANT_NAME,
      welcomeMessage: "Hello! How can I help you today?",
    },
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

export const serviceWorker = {
  path: "/service-worker.js",
  scope: "/",
} as const;

/** Server-side security parameters (not in the spec; chosen for Tala). */
export const auth = {
  tokenTtlMs: 30 * 24 * 60 * 60 * 1000,
  codeLength: 6,
  codeTtlMs: 15 * 60 * 1000,
  codeMaxAttempts: 5,
  passwordMinLength: 8,
  passwordMaxLength: 256,
  guestSessionPrefix: "guest-",
} as const;

/** Per-IP and per-account throttles on the account endpoints: `limit` calls per `windowMs`. */
export const throttles = {
  login: { limit: 10, windowMs: 15 * 60 * 1000 },
  register: { limit: 5, windowMs: 60 * 60 * 1000 },
  code: { limit: 5, windowMs: 15 * 60 * 1000 },
} as const;
export type ThrottleName = keyof typeof throttles;
