/**
 * Every user-facing message of the product spec (section 8, plus section 4's prompts and
 * section 5's validation messages), verbatim, and the server's own messages. Written once.
 */

export const accountMessages = {
  loginFailed: "Login failed",
  noTokenReceived: "No token received",
  registrationFailed: "Registration failed",
  sendVerificationFailed: "Failed to send verification email",
  verifyEmailFailed: "Email verification failed",
  requestPasswordResetFailed: "Failed to request password reset",
  resetPasswordFailed: "Password reset failed",
  googleAuthFailed: "Google authentication failed",
  popupBlocked: "Popup blocked. Please allow popups for this site or try again.",
  /** Not given by the spec; chosen for Tala in the same voice. */
  changeEmailFailed: "Failed to change email",
  changePasswordFailed: "Failed to change password",
  updateProfileFailed: "Failed to update profile",
  deleteAccountFailed: "Failed to delete account",
} as const;

export const realtimeMessages = {
  connectionErrorTitle: "Connection Error",
  invalidNamespace: "Invalid server endpoint. Please check server configuration.",
  authenticationFailed: "Authentication failed. Please log in again.",
  corsBlocked: "Cross-origin request blocked. Check server CORS settings.",
  connectionFailed: "Connection failed",
  genericRealtimeError: "An error occurred with the realtime connection",
  reconnectFailed: "Connection Failed: Unable to reconnect to the server",
  messageErrorTitle: "Message Error",
  messageErrorFallback: "Failed to process message",
  noActiveConnection: "No active connection",
  reconnected: "Reconnected: Connection has been restored",
} as const;

export const publicAssistantMessages = {
  fetchFailed: "Failed to fetch Public Assistants",
  rawKeyFailed: "Failed to retrieve the complete API key",
  copyKeyFailed: "Failed to copy API key to clipboard",
  integrationCodeFailed: "Failed to get integration code",
  regenerateKeyFailed: "Failed to regenerate API key",
  deleteFailed: "Failed to delete assistant",
  saveFailed: "Failed to save Public Assistant",
  copyFailed: "Failed to copy to clipboard",
  deleteFileTitle: "Delete Failed",
  deleteFileFallback: "Failed to delete file",
  uploadFailedTitle: "Upload Failed",
  uploadFailedFallback: "There was an error uploading your files.",
  historyErrorTitle: "Error",
  historyFetchFailed: "Failed to fetch chat history",
  exportFailed: "Failed to export chat history",
  invalidFileTypeTitle: "Invalid file type",
  invalidFileType: (file: string) => `${file} is not a supported file type.`,
  fileTooLargeTitle: "File too large",
  fileTooLarge: (file: string) => `${file} exceeds the 15MB size limit.`,
  uploadingAndProcessing: "Uploading & Processing",
  sizeUnknown: "Size unknown",
} as const;

export const successMessages = {
  assistantCreated: "Public Assistant created successfully",
  assistantUpdated: "Public Assistant updated successfully",
  assistantDeleted: "Public Assistant deleted successfully",
  keyRegenerated: "API key regenerated successfully",
  keyCopiedTitle: "Copied",
  keyCopied: "API key copied to clipboard",
  contentCopied: "Content copied to clipboard",
  fileDeleted: "File deleted successfully",
  filesUploaded: "Files uploaded successfully",
  filesUploadedTitle: "Files Uploaded",
  filesProcessed: (n: number) => `${n} file(s) uploaded and processed successfully`,
  historyExported: "Chat history exported successfully",
} as const;

export const confirmations = {
  deleteAssistant: {
    title: "Are you sure?",
    description: "This will permanently delete this Public Assistant and make it unavailable for users.",
  },
  deleteFile: {
    title: "Delete file?",
    description:
      "This will permanently remove the file from your assistant's knowledge base. Your assistant will no longer use this information when responding.",
  },
} as const;

export const appMessages = {
  loading: "Loading...",
  updateAvailable: "A new version is available. Do you want to update now?",
  userFallbackName: "User",
  /** The signed-in user's menu (spec section 2): Settings and Logout, named "Sign out" as Settings names it. */
  settings: "Settings",
  signOut: "Sign out",
  /** The confirmations of the account's moments (a toast on the page that follows). */
  signedOut: "You are signed out.",
  emailVerifiedElsewhere: "Your e-mail address is verified.",
  /** An address under /app that names no page: the app's own page, inside its frame (not the marketing home). */
  pageNotFound: {
    title: "Page not found",
    body: "There is no page at this address. The link may be mistyped, or the page may have moved.",
    back: "Go to New Chat",
  },
  /** A guest's navigation: the items that need an account say so, and lead to registration. */
  needsAccount: "Sign up",
  needsAccountHint: "Needs a free account",
  getStarted: "Get Started - It's Free",
  signIn: "Sign In",
  /** Top bar and footer shared by the dashboard and the marketing site (not given by the spec; chosen for Tala). */
  home: "Home",
  theme: "Theme",
  themeNames: { light: "Light", dark: "Dark", system: "System" },
  installApp: "Install App",
  /** The home page's way into a guest chat (chosen for Tala). */
  tryAsGuest: "Try it now — no sign-up",
  storeBadge: { caption: "Available as a", title: "Web App" },
  credit: "Tala is open source and runs on Cloudflare Workers.",
  /** The dashboard's own notices (not given by the spec; chosen for Tala). */
  profileSaved: "Your profile has been saved.",
  verifyEmailBanner: "Your email address is not verified yet.",
  verifyEmailBannerAction: "Verify email",
  federatedPasswordNote: "You sign in with Google, so your account has no password yet. Use Forgot password to set one.",
  /** Settings → Delete account (chosen for Tala). */
  deleteAccount: {
    title: "Delete account",
    description: "Permanently delete your account and everything in it.",
    consequences:
      "This deletes your chats and projects, your Public Assistants with their files, keys and visitor conversations, and your sign-in details. It cannot be undone.",
    open: "Delete account…",
    confirmTitle: "Delete your account?",
    passwordPrompt: "Enter your password to confirm.",
    googlePrompt: "Your account signs in with Google: you will be asked to sign in with Google again to confirm.",
    confirm: "Delete my account",
    confirmWithGoogle: "Sign in with Google and delete",
    cancel: "Cancel",
  },
} as const;

/** The spec's HTTP client messages (section 8: "Network Error, timeout of N ms exceeded"). */
export const httpClientMessages = {
  networkError: "Network Error",
  timeout: (ms: number) => `timeout of ${ms}ms exceeded`,
  /** Chosen for Tala: a success response that does not match the contract. */
  invalidResponse: "Unexpected response from the server",
} as const;

/** The server's own messages: the `error` field of the error envelope. Chosen for Tala. */
export const serverMessages = {
  invalidInput: "Some fields are invalid.",
  invalidJson: "The request body is not valid JSON.",
  invalidEmail: "Enter a valid email address.",
  passwordTooShort: (min: number) => `Password must be at least ${min} characters.`,
  passwordTooLong: (max: number) => `Password must be at most ${max} characters.`,
  emailTaken: "An account with this email already exists.",
  invalidCredentials: "Invalid email or password.",
  federatedOnlyAccount: "This account signs in with Google. Use Continue with Google, or reset your password to set one.",
  authRequired: "Please sign in to continue.",
  sessionExpired: "Your session has expired. Please sign in again.",
  invalidFederatedToken: "Your Google sign-in could not be verified. Please try again.",
  federatedNotConfigured: "Google sign-in is not configured on this server.",
  invalidCode: "That code is incorrect or has expired. Request a new one.",
  codeAttemptsExceeded: "Too many incorrect attempts. Request a new code.",
  codeSent: "If an account exists for that email, we sent it a 6-digit code.",
  alreadyVerified: "This email address is already verified.",
  emailVerified: "Your email address is verified.",
  passwordReset: "Your password has been reset. Sign in with your new password.",
  passwordChanged: "Your password has been changed. Other sessions were signed out.",
  emailChanged: "Your email address has been changed.",
  wrongPassword: "Your current password is incorrect.",
  samePassword: "Choose a password different from your current one.",
  throttled: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
  notFound: "Not found.",
  methodNotAllowed: (method: string, allowed: readonly string[]) => `This address does not accept ${method}. It accepts ${allowed.join(", ")}.`,
  internal: "Something went wrong on our side. Please try again.",
  emailSendFailed: "We could not send the email right now. Please try again in a minute.",
  signedOut: "You are signed out.",
  accountDeleted: "Your account and all its data have been deleted.",
  recentGoogleSignInRequired: "To delete this account, sign in with Google again, then confirm within 5 minutes.",
  changeEmailCodeSent: "We sent a 6-digit code to your new email address.",
  sameEmail: "This is already your email address.",
  federatedUnavailable: "Google sign-in is temporarily unavailable. Please try again in a minute.",
  firstNameRequired: "First name is required.",
  passwordRequired: "Enter your password.",
  currentPasswordRequired: "Enter your current password.",
  invalidBirthDate: "Birth date must be a date (YYYY-MM-DD).",
} as const;

/** The e-mails Tala sends: one per code purpose. `minutes` is how long the code stays valid. */
export const emailMessages = {
  "verify-email": {
    subject: "Your Tala verification code",
    text: (code: string, minutes: number) =>
      `Hi,\n\nWelcome to Tala! Enter this code to verify your email address:\n\n    ${code}\n\n` +
      `The code is valid for ${minutes} minutes. If you did not create a Tala account, you can ignore this email.\n\n— The Tala team`,
  },
  "reset-password": {
    subject: "Reset your Tala password",
    text: (code: string, minutes: number) =>
      `Hi,\n\nSomeone (hopefully you) asked to reset the password of your Tala account. Enter this code to choose a new one:\n\n    ${code}\n\n` +
      `The code is valid for ${minutes} minutes. If you did not ask for this, ignore this email: your password stays the same.\n\n— The Tala team`,
  },
  "change-email": {
    subject: "Confirm your new Tala email address",
    text: (code: string, minutes: number) =>
      `Hi,\n\nEnter this code in Tala to make this your account's email address:\n\n    ${code}\n\n` +
      `The code is valid for ${minutes} minutes. If you did not ask for this change, ignore this email and nothing will change.\n\n— The Tala team`,
  },
} as const;
export type EmailCodePurpose = keyof typeof emailMessages;

/**
 * Why a knowledge file was refused or failed to process: the `error` of an upload response and the
 * reason stored on a failed knowledge file. `file` is the file's name as the owner uploaded it.
 * Chosen for Tala; the spec's own two upload messages (type, size) are reused as they are.
 */
export const knowledgeMessages = {
  unsupportedType: publicAssistantMessages.invalidFileType,
  fileTooLarge: publicAssistantMessages.fileTooLarge,
  notValid: (file: string, kindLabel: string) => `${file} is not a valid ${kindLabel} file.`,
  notUtf8: (file: string) => `${file} is not UTF-8 text. Save it with UTF-8 encoding and upload it again.`,
  binaryText: (file: string) => `${file} contains binary data, not text.`,
  invalidJson: (file: string) => `${file} is not valid JSON.`,
  damaged: (file: string) => `${file} could not be read: the file is damaged.`,
  passwordProtected: (file: string) => `${file} is password-protected.`,
  noExtractableText: (file: string) => `${file} has no extractable text (it may be a scanned image).`,
  empty: (file: string) => `${file} has no text to add to the knowledge base.`,
  oldWordFormat: (file: string) =>
    `${file} uses a Word format older than Word 97. Save it as .docx and upload it again.`,
  tooComplex: (file: string) => `${file} is too large to process. Split it into smaller files and upload them.`,
  lineTooLong: (file: string, limit: string) =>
    `${file} has a line longer than ${limit}. Split long lines (or very long cells) and upload it again.`,
  tooManyCells: (file: string, max: number) => `${file} has a row with more than ${max} cells. Split it into smaller tables and upload them.`,
  nestedTooDeep: (file: string, max: number) => `${file} is nested more than ${max} levels deep. Flatten it and upload it again.`,
  tooManyElements: (file: string, max: number) => `${file} has more than ${max} XML elements. Split it into smaller files and upload them.`,
  inflatesTooLarge: (file: string, limit: string) =>
    `${file} unpacks to more than ${limit} of content. Split it into smaller files and upload them.`,
  tookTooLong: (file: string, seconds: number) =>
    `${file} took more than ${seconds} seconds to read. Split it into smaller files and upload them.`,
  tooMuchWork: (file: string) => `${file} takes too much work to read. Split it into smaller files and upload them.`,
  truncated: (file: string) => `${file} is very long: only its beginning was added to the knowledge base.`,
  missing: (file: string) => `${file} could not be found in storage. Upload it again.`,
  processingFailed: (file: string) => `${file} could not be processed. Please try again.`,
} as const;

/**
 * The chat's own messages: the `error` of a message-error frame, the offline notice, the guest
 * quota notice. Chosen for Tala, in the spec's voice.
 */
export const chatMessages = {
  /** Offline mode: the labelled assistant message sent instead of a model reply. Never pretends. */
  offlineReply:
    "**Offline mode: no language model is configured.** This note comes from Tala itself, not from a model.\n\n" +
    "To chat with a model, set these variables in `.dev.vars` (or the environment) and restart Tala:\n\n" +
    "- `LLM_BASE_URL`: an OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1` for Ollama\n" +
    "- `LLM_MODEL`: the model to use, e.g. `llama3.1`\n" +
    "- `LLM_API_KEY`: the endpoint's key, if it needs one\n\n" +
    "On Cloudflare, binding Workers AI as `AI` works too.",
  /** Model failures, by cause. The user's message is always saved first. */
  modelTimeout: "The model took too long to answer. Your message is saved: try again.",
  modelInterrupted: "The model's reply was cut off. Your message and the partial reply are saved: try again.",
  modelUnavailable: "The model could not be reached or refused the request. Your message is saved: try again.",
  replyFailed: "Something went wrong while writing the reply. Your message is saved: try again.",
  /** A reply that was still streaming when the server restarted. */
  replyInterrupted: "This reply was interrupted. Try again.",
  /** The pool every guest on one network shares is used up (not this guest's own). */
  guestNetworkQuotaExhausted: (registerPath: string) =>
    `Today's free guest messages on your network are used up. Create a free account to keep chatting: ${registerPath}`,
  guestQuotaExhausted: (registerPath: string) =>
    `You have used all of today's free guest messages. Create a free account to keep chatting: ${registerPath}`,
  /** A signed-in user's replies being written at once (all tabs) reached the cap. */
  tooManyRunningReplies: (max: number) =>
    `You already have ${max} replies being written. Wait for one to finish, or stop one, then send again.`,
  /** A signed-in user's messages in the last minute reached the rate. */
  messageRateExceeded: (perMinute: number) => `You can send at most ${perMinute} messages a minute. Wait a moment, then try again.`,
  /** An account whose e-mail is not verified used its messages of the day. */
  unverifiedQuotaExhausted: (verifyPath: string) =>
    `You have used all of today's messages for an account whose e-mail is not verified. Verify your e-mail to keep chatting: ${verifyPath}`,
  invalidFrame: "That message could not be read. Please try again.",
  emptyMessage: "Write a message first.",
  messageTooLong: (max: number) => `Messages can be at most ${max} characters long.`,
  tooManyFiles: (max: number) => `You can attach at most ${max} files to one message.`,
  chatNotFound: "This chat no longer exists.",
  projectNotFound: "This project no longer exists.",
  /** The user's own room (their chats, projects and settings) did not answer. */
  roomUnavailable: "Your chats could not be reached just now. Please try again in a moment.",
  replyInProgress: "A reply is still being written in this chat. Wait for it or stop it first.",
  identityMismatch: "This message does not belong to this connection. Please sign in again.",
  unknownModel: "That model is not offered by this server.",
  /** A file's text was cut to fit the prompt. */
  fileTruncatedNote: "[the rest of this file was left out]",
  websocketOnly: "This address accepts WebSocket connections only.",
  wrongRoom: "This chat room belongs to someone else.",
  guestIdInvalid: "This guest session is not valid. Reload the page to start a new one.",
  projectNameRequired: "Give the project a name.",
  /** POST /api/chat/attachments: the body is not a multipart form with one file in the field `file`. */
  attachmentNotMultipart: 'Send the file as multipart/form-data, in a field named "file".',
  /** The title of a chat whose first message has no words (only an attachment without a name). */
  untitledChat: "New chat",
} as const;

/**
 * The server's messages for Public Assistants: the `error` field of a 4xx/503 on
 * /api/public-assistants. Chosen for Tala; the spec's own ranges (section 5) are named in them.
 */
export const publicAssistantServerMessages = {
  knowledgeIndexUnavailable: "The knowledge index could not be reached, so nothing was deleted. Please try again in a minute.",
  /** The assistant's own Durable Object did not answer before an owner's change: nothing was changed. */
  assistantUnreachable: "The assistant could not be reached, so nothing was changed. Please try again in a minute.",
  /** The assistant's own Durable Object did not answer an owner's read or upload (503 with Retry-After). */
  assistantBusy: "The assistant's data could not be reached just now. Please try again in a few seconds.",
  maxMessagesRange: (min: number, max: number) => `Max messages per session must be a whole number from ${min} to ${max}.`,
  dailyLimitRange: (min: number, max: number) => `Daily limit must be a whole number from ${min} to ${max}.`,
  invalidColor: "Primary color must be a hex color like #2962FF.",
  invalidPosition: (allowed: readonly string[]) => `Widget position must be one of: ${allowed.join(", ")}.`,
  invalidChoice: (field: string, allowed: readonly string[]) => `${field} must be one of: ${allowed.join(", ")}.`,
  changedMeanwhile: "The assistant was changed elsewhere at the same moment: reload it and save again.",
  invalidSize: (allowed: readonly string[]) => `Widget size must be one of: ${allowed.join(", ")}.`,
  invalidOrigin: (value: string) =>
    `"${value.slice(0, 80)}" is not a website origin. Write it as scheme://host[:port], e.g. https://example.com, without a path.`,
  allowedOriginsList: "Allowed origins must be a list of website origins.",
  tooManyOrigins: (max: number) => `At most ${max} allowed origins can be listed.`,
  mustBeBoolean: (field: string) => `${field} must be true or false.`,
  mustBeText: (field: string) => `${field} must be text.`,
  textTooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  mustBeObject: (field: string) => `${field} must be an object.`,
  encryptionKeyMissing:
    "API keys cannot be issued or shown: ENCRYPTION_KEY is not set on this server. Set it as a secret (wrangler secret put ENCRYPTION_KEY) and try again.",
  encryptionKeyTooShort: (min: number) => `ENCRYPTION_KEY must be at least ${min} characters long. Set a longer secret and try again.`,
  apiKeyUnreadable:
    "This API key cannot be decrypted with the server's current ENCRYPTION_KEY. Regenerate the key to get a new one.",
  notMultipart: 'Send the files as multipart/form-data, each in a field named "files".',
  noFiles: "Choose at least one file to upload.",
  tooManyFiles: (max: number) => `Upload at most ${max} files at once.`,
  uploadTooLarge: (megabytes: number) => `One upload can carry at most ${megabytes} MB. Upload the files in smaller groups.`,
  searchQueryRequired: "Enter something to search for.",
  searchQueryTooLong: (max: number) => `A search can be at most ${max} characters long.`,
  searchLimitInvalid: (max: number) => `limit must be a whole number from 1 to ${max}.`,
  pageInvalid: "page must be a whole number of at least 1.",
  pageTooHigh: (max: number) => `page must be at most ${max}.`,
  pageSizeInvalid: (max: number) => `limit must be a whole number from 1 to ${max}.`,
} as const;

/**
 * The Public Assistants screen and its dialogs (spec section 2): names of the screen, tabs, card
 * buttons, dialogs and fields. The spec's own names are kept verbatim (Back to Dashboard, Create
 * New Assistant, My Assistants, How It Works, No Public Assistants Yet, Create Your First Assistant,
 * Upload Files, Get Code, Edit, View History, Regenerate Key, Delete, Basic Settings, Limits &
 * Customization, Widget Configuration, Upload Documents, Integration Code, Chat History, Refresh,
 * Export, Debug, 'Page x of y'); the rest is chosen for Tala. E2E tests find controls by these.
 */
export const publicAssistantUi = {
  screen: {
    title: "Public Assistants",
    description:
      "Embeddable chat assistants for your own website: give each one your documents as a knowledge base, paste one line of code, and review what visitors ask.",
    backToDashboard: "Back to Dashboard",
    createNew: "Create New Assistant",
    tabsLabel: "Public Assistants sections",
    myAssistants: "My Assistants",
    howItWorks: "How It Works",
    emptyTitle: "No Public Assistants Yet",
    emptyText: "Create an assistant, give it your documents, and add it to your website with one line of code.",
    createFirst: "Create Your First Assistant",
    loadErrorTitle: "Your assistants could not be loaded",
    retry: "Try again",
    listLabel: "Your Public Assistants",
  },
  howItWorks: [
    { title: "Create the assistant", text: "Name it, describe it, set its limits, and choose how the chat widget looks and where it sits." },
    {
      title: "Upload a knowledge base",
      text: "Add your documents (PDF, Word, Excel, CSV, Markdown, JSON, XML or plain text, up to 15 MB each). The assistant answers from them.",
    },
    { title: "Get the integration code", text: "Copy the snippet and paste it into your website, just before the closing </body> tag." },
    { title: "Visitors chat", text: "People on your site ask questions and get answers from your documents. Review every conversation in its chat history." },
  ],
  card: {
    active: "Active",
    inactive: "Inactive",
    /** Its monthly budget (or the all-assistants one) is used up and it pauses: it refuses visitors until the month ends. */
    pausedBudget: "Paused (budget)",
    noDescription: "No description",
    untitled: "Untitled assistant",
    apiKey: "API key",
    /** Not "… API key": getByLabel('API key') must find the key field alone. */
    copyKey: "Copy key",
    revealKey: "Reveal key",
    hideKey: "Hide key",
    messagesPerSession: "Messages per session",
    dailyLimit: "Daily limit",
    documents: "Documents",
    totalSessions: "Total sessions",
    knowledgeBase: "Knowledge base",
    noFiles: "No documents yet. Upload files to give this assistant a knowledge base.",
    fileStatus: { processing: "Processing", ready: "Ready", failed: "Failed" },
    passages: (n: number) => `${n} ${n === 1 ? "passage" : "passages"}`,
    removeFile: (name: string) => `Remove ${name}`,
    /** The card's one-line overview of its knowledge base (the full table is on the assistant's Knowledge tab). */
    filesOverview: (documents: number, passages: number) =>
      `${documents} ${documents === 1 ? "document" : "documents"} · ${passages} ${passages === 1 ? "passage" : "passages"}`,
    filesProcessing: (n: number) => `${n} processing`,
    filesFailed: (n: number) => `${n} failed`,
    /** The Knowledge tab's file table: its column headers (the last one is read, not shown). */
    fileColumns: { name: "Name", size: "Size", uploaded: "Uploaded", status: "Status", passages: "Passages", actions: "Actions" },
    uploadFiles: "Upload Files",
    getCode: "Get Code",
    edit: "Edit",
    viewHistory: "View History",
    regenerateKey: "Regenerate Key",
    delete: "Delete",
    moreActions: "Assistant actions",
  },
  form: {
    createTitle: "Create Public Assistant",
    editTitle: "Edit Public Assistant",
    createDescription: "Set it up now; you can change everything later.",
    editDescription: "Changes apply to the widget on your website right away.",
    basic: "Basic Settings",
    limits: "Limits & Customization",
    widget: "Widget Configuration",
    name: "Name",
    namePlaceholder: "Support assistant",
    description: "Description",
    descriptionPlaceholder: "Answers questions about our product from the docs.",
    active: "Active",
    activeHint: "An inactive assistant keeps its settings but its widget does not answer.",
    maxMessagesPerSession: "Max messages per session",
    dailyLimit: "Daily message limit",
    rangeHint: (min: number, max: number) => `From ${min} to ${max}.`,
    limitsGroup: "Limits",
    appearanceGroup: "Appearance",
    behaviourGroup: "Behaviour",
    primaryColor: "Primary color",
    colorPicker: "Choose color",
    headerText: "Header text",
    welcomeMessage: "Welcome message",
    contactLine: "Contact line",
    contactLineHint: "Given to visitors when your documents do not cover their question, e.g. \"Email help@example.com or call 0161 496 0000\".",
    allowAttachments: "Allow attachments",
    allowAttachmentsHint: "Visitors may attach files to their messages.",
    instructions: "Instructions",
    instructionsHint: "Extra guidance for every answer: tone, what to avoid, when to suggest contacting you.",
    instructionsPlaceholder: "Answer briefly and in a friendly tone. If the documents do not cover a question, say so.",
    showSources: "Show sources",
    showSourcesHint: "Answers list the documents they drew on.",
    widgetPosition: "Widget position",
    widgetSize: "Widget size",
    positions: { "bottom-right": "Bottom right", "bottom-left": "Bottom left", "top-right": "Top right", "top-left": "Top left" },
    sizes: { small: "Small", medium: "Medium", large: "Large" },
    allowedOrigins: "Allowed origins",
    allowedOriginsHint: "One per line, like https://example.com. Leave empty to allow any website.",
    preview: "Preview",
    /** The editable list of starter questions (limits: starterQuestionLimits; errors: qaMessages). */
    starterQuestions: "Starter questions",
    starterQuestionsHint: (max: number) => `Up to ${max} questions shown as buttons when a visitor opens the chat; a click asks it.`,
    starterQuestion: (n: number) => `Starter question ${n}`,
    starterQuestionPlaceholder: "Where is my order?",
    starterQuestionCount: (n: number, max: number) => `${n}/${max}`,
    addStarterQuestion: "Add a question",
    removeStarterQuestion: (n: number) => `Remove starter question ${n}`,
    suggestStarterQuestions: "Suggest from your top questions",
    suggestedStarterQuestions: (n: number) => (n === 1 ? "1 question added from your top questions." : `${n} questions added from your top questions.`),
    noStarterSuggestions: "No new questions to suggest: your visitors' top questions show up here once they have chatted.",
    starterSuggestionsFailed: "Your top questions could not be loaded. Please try again.",
    create: "Create Assistant",
    save: "Save Changes",
    cancel: "Cancel",
  },
  upload: {
    title: "Upload Documents",
    description: "Add documents to this assistant's knowledge base. It answers visitors from them.",
    dropzone: "Drag and drop files here",
    or: "or",
    browse: "Browse files",
    chooseFiles: "Choose files",
    acceptedHint: (extensions: readonly string[]) => `${extensions.join(", ")} · up to 15 MB each`,
    queueLabel: "Selected files",
    removeFile: (name: string) => `Remove ${name} from the selection`,
    upload: "Upload",
    uploading: "Uploading",
    progressLabel: "Upload progress",
    partialFailureTitle: "Some files were not added",
    /** Spec section 9: the interface says how knowledge files are processed. */
    /** The spec's note (text extraction, chunking, embeddings) in the owner's words. */
    processingNote: "Tala reads each file's text, splits it into passages and indexes them by meaning; the assistant then answers from them.",
  },
  code: {
    title: "Integration Code",
    description: "Add the assistant's chat widget to your website.",
    instructions: "Paste this code into your website's HTML, just before the closing </body> tag.",
    snippetLabel: "Integration code snippet",
    copy: "Copy",
    keyNote:
      "The snippet contains this assistant's publishable key, which only works for the widget. To replace it, use Regenerate Key and update the snippet.",
    searchTitle: "Test your knowledge base",
    searchHint: "See which passages of your documents the assistant would use to answer a question.",
    searchLabel: "Test your knowledge base",
    searchPlaceholder: "Ask something a visitor might ask",
    search: "Search",
    noResults: "Nothing in the knowledge base matches this question yet.",
    searchFailed: "The search failed",
    loadFailed: "The integration code could not be loaded.",
    resultsLabel: "Matching passages",
    belowFloor: "Not used in answers: under the relevance floor",
  },
  history: {
    title: "Chat History",
    description: (name: string) => `Conversations visitors had with ${name || "this assistant"}.`,
    refresh: "Refresh",
    export: "Export",
    empty: "No conversations yet. They appear here once visitors chat with the widget on your website.",
    sessionsLabel: "Chat sessions",
    sessionCount: (n: number) => `${n} ${n === 1 ? "conversation" : "conversations"}`,
    session: "Conversation id",
    messages: (n: number) => `${n} ${n === 1 ? "message" : "messages"}`,
    lastMessage: "Last message",
    referrer: "Referrer",
    directVisit: "Direct visit",
    pagination: "Chat history pages",
    pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
    previous: "Previous",
    next: "Next",
    openSession: (id: string) => `Open session ${id}`,
    /** A row whose visitor has not asked anything yet (the widget was opened, nothing sent). */
    noQuestion: "No question yet",
  },
  session: {
    /** The conversation's dialog is titled by the visitor's first question (`conversationTitle`); this names it when they asked nothing. */
    title: "Conversation",
    /** Its id, for support (the first characters; the whole id in the export). */
    conversationId: "Conversation id",
    startedAt: "Started",
    totalMessages: "Total messages",
    visitor: "Visitor",
    assistant: "Assistant",
    sources: "Sources",
    attachments: "Attachments",
    nonText: (type: string) => `[${type} content]`,
    noMessages: "This conversation has no messages.",
    /** A source chip's button: shows or hides the passage the answer drew on. */
    showPassage: (name: string) => `Passage from ${name}`,
    noPassage: "The passage was not kept for this answer.",
  },
  /**
   * One assistant's own page, /app/public-assistants/{id}: its tabs and the few words
   * the dialogs did not already have. E2E tests find controls by these.
   */
  page: {
    back: "All assistants",
    /** The card's link to the page. */
    open: "Open",
    openLabel: (name: string) => `Open ${name || "this assistant"}`,
    tabsLabel: "Assistant sections",
    tabs: { playground: "Playground", knowledge: "Knowledge", settings: "Settings", code: "Code", history: "History" },
    loadError: "This assistant could not be loaded.",
    notFound: "This assistant does not exist, or it belongs to another account.",
    documents: "Documents",
    deleteTitle: "Delete this assistant",
    deleteText: "Its documents, conversations and keys are deleted with it, and its widget stops answering.",
    sessionNotFound: "That conversation was not found.",
    npm: {
      title: "npm and React",
      text: "Prefer a build step? The @tala/widget package loads the same widget from this server.",
      npmLabel: "npm package example",
      reactLabel: "React component example",
    },
    playground: {
      description:
        "Chat with this assistant as a visitor would. These messages do not count against its limits and do not appear in its history.",
      left: (n: number) => `${n} test ${n === 1 ? "message" : "messages"} left this minute`,
    },
  },
  confirm: {
    cancel: "Cancel",
    delete: "Delete",
    regenerate: {
      title: "Regenerate API key?",
      description:
        "The current key stops working at once: the widget on your website stops answering until you paste the new integration code.",
      confirm: "Regenerate",
    },
  },
} as const;

/**
 * The widget's server messages: the `error` of a 4xx on /api/widget/*, and of a `message-error`
 * frame on the widget's socket and SSE stream. Chosen for Tala.
 */
export const widgetMessages = {
  sessionLimitReached: "You've reached the message limit for this conversation. Start a new conversation to keep chatting.",
  dailyLimitReached: "This assistant has reached its daily message limit. Please try again tomorrow.",
  unavailable: "This assistant is not available right now.",
  originNotAllowed: "This website is not allowed to use this assistant.",
  keyMissing: "This widget has no assistant key. Check the integration code.",
  sessionNotFound: "This conversation was not found. Start a new conversation.",
  tooManySessions: "Too many conversations were started from your network. Please try again later.",
  tooManyMessages: "You are sending messages too quickly. Please wait a moment and try again.",
  attachmentsNotAllowed: "This assistant does not accept attachments.",
  emptyMessage: "Write a message first.",
  messageTooLong: (max: number) => `A message can be at most ${max} characters long.`,
  tooManyFiles: (max: number) => `Attach at most ${max} files to one message.`,
  replyInProgress: "The assistant is still answering. Wait for it or stop it first.",
  replyFailed: "The assistant could not answer right now. Please try again.",
  /** The assistant's own Durable Object did not answer (503 with Retry-After). */
  assistantUnreachable: "The assistant could not be reached just now. Please try again in a few seconds.",
  invalidFrame: "This message could not be read. Please reload the page.",
  websocketOnly: "This address accepts WebSocket connections only.",
  secretKeyInPage:
    "A secret key (tala_sk_…) cannot be used by the widget: secret keys must never be put in a web page. Use the assistant's publishable key (tala_pk_…) from the integration code, and revoke this secret key in the dashboard.",
  networkDailyShareReached: "Too many messages were sent to this assistant from your network today. Please try again tomorrow.",
  /** Offline mode (no model configured): the answer is the best passages, labelled as excerpts. */
  offlineIntro: "I can't generate answers right now, but here is what the documents say:",
  offlineExcerpt: (index: number, name: string, excerpt: string) => `${index}. From "${name}":\n> ${excerpt.replace(/\n+/g, "\n> ")}`,
  offlineSources: (names: readonly string[]) => `Sources: ${names.join(", ")}`,
  offlineNothing:
    "I can't generate answers right now, and I found nothing in the documents about this question. Please try rephrasing it, or contact the website owner.",
  /** Offline, nothing found, and the owner set a contact line. */
  offlineNothingContact: (contactLine: string) =>
    `I can't generate answers right now, and I found nothing in the documents about this question. Please try rephrasing it, or contact the website's team: ${contactLine}`,
} as const;

/**
 * Curated answers in the dashboard: the Knowledge tab's section, the editor, and "Improve this
 * answer" in History and Insights. Chosen for Tala. E2E tests find controls by these.
 */
export const qaUi = {
  title: "Curated answers",
  description: "Answers you write yourself, for the questions that matter. When a visitor asks one of them, your answer wins.",
  emptyTitle: "No curated answers yet",
  emptyText:
    "A curated answer is a question, other ways visitors ask it, and the answer you want them to get. Use it to fix a wrong answer, or to give the exact words for prices, policies and anything that must not vary.",
  add: "Add answer",
  importCsv: "Import CSV",
  importHint: (maxRows: number, separator: string) =>
    `A CSV file with the columns question, answer, variants (variants separated by "${separator}"), up to ${maxRows.toLocaleString("en")} rows.`,
  importing: (percent: number) => (percent >= 100 ? "Importing…" : `Uploading… ${percent}%`),
  imported: (n: number) => `${n.toLocaleString("en")} imported`,
  importFailedRows: (n: number) => (n === 1 ? "1 row was not imported:" : `${n.toLocaleString("en")} rows were not imported:`),
  importLine: (line: number) => `Line ${line}`,
  importFailed: "The CSV file could not be imported.",
  dismiss: "Dismiss",
  exportCsv: "Export CSV",
  exportFileName: (assistantId: string) => `curated-answers-${assistantId}.csv`,
  exportFailed: "The curated answers could not be exported.",
  searchLabel: "Search curated answers",
  searchPlaceholder: "Search questions, variants and answers",
  count: (n: number) => (n === 1 ? "1 curated answer" : `${n.toLocaleString("en")} curated answers`),
  noMatches: (q: string) => `No curated answer matches "${q}".`,
  listLabel: "Curated answers",
  columns: { question: "Question", variants: "Variants", mode: "Mode", uses: "Uses", updated: "Updated", actions: "Actions" },
  variantCount: (n: number) => (n === 1 ? "1 variant" : `${n} variants`),
  usesCount: (n: number) => (n === 1 ? "used once" : `used ${n.toLocaleString("en")} times`),
  modes: {
    exact: { label: "Exact", choice: "This answer is the reply", help: "Sent word for word, without the model: it works even with no model configured." },
    guide: { label: "Guide", choice: "The assistant uses this answer", help: "Given to the model first, as the authority: it replies in its own words." },
  },
  edit: "Edit",
  editLabel: (question: string) => `Edit "${question}"`,
  delete: "Delete",
  deleteLabel: (question: string) => `Delete "${question}"`,
  deleteTitle: "Delete curated answer?",
  deleteConfirm: (question: string) => `Delete the curated answer to "${question}"? The assistant answers this question from its knowledge again.`,
  deleted: "Curated answer deleted.",
  deleteFailed: "The curated answer could not be deleted.",
  cancel: "Cancel",
  loadFailed: "The curated answers could not be loaded.",
  retry: "Try again",
  previous: "Previous",
  next: "Next",
  pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
  strictness: {
    label: "When to use a curated answer",
    levels: {
      strict: { label: "Strict", help: "Only when the question is nearly the same as yours or a variant. The fewest surprises." },
      balanced: { label: "Balanced", help: "When the question means the same in other words. Recommended." },
      loose: { label: "Loose", help: "Whenever the question is close. Answers more, with more risk of a wrong match." },
    },
    saved: "Strictness saved.",
    saveFailed: "The strictness could not be saved.",
  },
  editor: {
    addTitle: "Add curated answer",
    editTitle: "Edit curated answer",
    improveTitle: "Improve this answer",
    description: "Write the answer visitors should get to this question.",
    question: "Question",
    questionHint: "As a visitor would ask it.",
    variants: "Other ways to ask it",
    variantsHint: (max: number) => `Optional, up to ${max}. Different words for the same question.`,
    variantLabel: (n: number) => `Variant ${n}`,
    addVariant: "Add a variant",
    removeVariant: (n: number) => `Remove variant ${n}`,
    answer: "Answer",
    answerHint: "Markdown: **bold**, lists, [links](https://example.com).",
    counter: (n: number, max: number) => `${n.toLocaleString("en")} / ${max.toLocaleString("en")}`,
    mode: "How it is used",
    save: "Save",
    created: "Curated answer saved.",
    updated: "Curated answer updated.",
    saveFailed: "The curated answer could not be saved.",
  },
  /** "Improve this answer" in History and Insights. */
  improve: "Improve this answer",
  resolved: "Resolved",
  resolvedHelp: "A curated answer now answers this question.",
  openPair: "Open curated answer",
  pairNotFound: "That curated answer no longer exists.",
  insightsTitle: "Curated answers",
  insightsExact: "Replies given",
  insightsGuided: "Replies guided",
} as const;

/** The owner's Playground (POST /api/public-assistants/{id}/playground): errors of its body. Chosen for Tala. */
export const playgroundMessages = {
  tooManyTurns: (max: number) => `Send at most ${max} earlier messages of the conversation.`,
  historyTooLong: (max: number) => `The earlier messages can be at most ${max} characters in all.`,
  turnInvalid: 'Each earlier message needs a role ("user" or "assistant") and its text.',
} as const;

/**
 * The real widget inside the dashboard: the Playground tab's framed "your website" and
 * the Settings tab's live preview of unsaved settings. Chosen for Tala.
 */
export const playgroundUi = {
  /** The accessible name of the Playground's framed page, where the widget sits open. */
  stageLabel: "Playground: your widget on a page of your website",
  /** The accessible name of the Settings tab's preview. */
  previewLabel: "Widget preview",
  /** The address shown in the framed page's browser bar. */
  siteAddress: "your-website.com",
  previewTitle: "Preview",
  previewUnsaved: "Preview — not saved yet",
  previewHint: "Follows the form as you type. Its answers use the saved instructions and knowledge.",
  attachmentsNotSaved: "Attachments are allowed only once you save: until then the Playground refuses files.",
} as const;

/** An assistant's avatar or logo (PUT/DELETE /api/public-assistants/{id}/avatar) and its field in Settings. Chosen for Tala. */
export const avatarMessages = {
  tooLarge: (maxKb: number) => `The avatar must be at most ${maxKb} KB. Choose a smaller image.`,
  wrongType: "The avatar must be a PNG, JPEG or WebP image.",
  empty: "Choose an image file for the avatar.",
  label: "Avatar or logo",
  hint: (maxKb: number) => `Shown in the widget's header. PNG, JPEG or WebP, up to ${maxKb} KB; square works best.`,
  choose: "Upload image",
  replace: "Replace image",
  remove: "Remove",
  none: "No avatar: the widget shows its default mark.",
  current: "Current avatar",
  uploaded: "Avatar saved.",
  removed: "Avatar removed.",
  failed: "The avatar could not be saved.",
} as const;

/** The Settings tab's widget look (customization.theme / .language / .availabilityLine). Chosen for Tala. */
export const widgetLookUi = {
  theme: "Widget theme",
  themes: { auto: "Follow the visitor", light: "Light", dark: "Dark" },
  themeHint: "\"Follow the visitor\" uses their device's light or dark setting.",
  language: "Widget language",
  languages: { auto: "Visitor's language", en: "English", fr: "Français", ar: "العربية" },
  languageHint: "The widget's own buttons and notices. \"Visitor's language\" follows their browser (English, French or Arabic).",
  availabilityLine: "Availability line",
  availabilityLineHint: "Under the name in the widget's header, e.g. \"We usually reply within an hour\".",
  availabilityLinePlaceholder: "We usually reply within an hour",
  /** The Settings tab's groups. */
  appearanceTitle: "Appearance",
  appearanceText: "How the widget looks and greets visitors. The preview follows as you type.",
  limitsTitle: "Limits and budget",
  behaviourTitle: "Behaviour",
  installTitle: "Where it runs",
  /** A phone: the preview sits under a toggle. */
  showPreview: "Show preview",
  hidePreview: "Hide preview",
  /** The colour field's own check, before the server's. */
  colorInvalid: (value: string) => `"${value.slice(0, 40)}" is not a color. Write it as # and six hex digits, like #2962FF.`,
} as const;

/** The assistant page's first-hour checklist (schemas/first-hour.ts). Chosen for Tala. */
export const onboardingUi = {
  title: "Get your assistant live",
  progress: (done: number, total: number) => `${done} of ${total} done`,
  dismiss: "Hide checklist",
  restore: "Show setup checklist",
  steps: {
    knowledge: { title: "Add knowledge", text: "Upload documents, add a website or write curated answers.", action: "Add knowledge" },
    customise: { title: "Customise the widget", text: "Choose its color, name, welcome message and avatar.", action: "Open settings" },
    playground: { title: "Try it in the Playground", text: "Ask it what your visitors would ask.", action: "Open the Playground" },
    install: { title: "Install it on your site", text: "Copy the snippet and paste it before </body>.", action: "Get the code" },
    visitor: { title: "Welcome your first visitor", text: "Their conversation shows up in History.", action: "Open History" },
  },
  done: "Done",
  notDone: "Not done yet",
  allDone: "Your assistant is live. Nice work!",
} as const;

/** Create and Delete: what the owner must give, and what goes with an assistant. Chosen for Tala. */
export const assistantLifecycleUi = {
  nameRequired: "Give your assistant a name.",
  deleteTitle: (name: string) => `Delete "${name}"?`,
  deleteIntro: "This deletes the assistant for good, with:",
  deleteDocuments: (n: number) => `${n} ${n === 1 ? "document" : "documents"}`,
  deleteSources: (n: number) => `${n} ${n === 1 ? "website source" : "website sources"}`,
  deleteConversations: (n: number) => `${n} ${n === 1 ? "conversation" : "conversations"} with visitors`,
  deleteLeads: (n: number) => `${n} ${n === 1 ? "lead" : "leads"} visitors left`,
  deleteWebhooks: (n: number) => `${n} ${n === 1 ? "webhook" : "webhooks"} and their delivery logs`,
  deleteKeys: "its keys: the widget on your website stops answering",
  deleteCountsUnknown: "Some counts could not be loaded; everything the assistant owns is deleted.",
  typeName: (name: string) => `Type "${name}" to confirm`,
  typeNameMismatch: "The name does not match.",
} as const;

/** The owner's secret keys of an assistant (/api/public-assistants/{id}/secret-keys). Chosen for Tala. */
export const secretKeyMessages = {
  nameRequired: "Name is required: give the secret key a name, e.g. the server that uses it.",
  nameTooLong: (max: number) => `Name must be at most ${max} characters.`,
  nameMustBeText: "Name must be text.",
  tooManyKeys: (max: number) => `An assistant can have at most ${max} secret keys. Revoke one you no longer use, then create a new one.`,
} as const;

/**
 * The integration dialog's keys section: what each kind of key is for, and the secret keys list.
 * E2E tests find controls by these.
 */
export const secretKeyUi = {
  sectionTitle: "API keys",
  publishableTitle: "Publishable key (tala_pk_…)",
  publishableText:
    "The key inside the snippet above. It is safe to put in your web pages: it only works for the chat widget, only from your allowed origins when you set them, and each visitor's network is throttled.",
  secretTitle: "Secret keys (tala_sk_…)",
  secretText:
    "For your own server and the OpenAI-compatible API (POST /api/v1/chat/completions). Anyone with a secret key can use your assistant's daily limit: never put one in a web page or an app, keep it on your server.",
  openAiSampleLabel: "OpenAI-compatible API example",
  listLabel: "Secret keys",
  empty: "No secret keys yet.",
  nameLabel: "Key name",
  namePlaceholder: "e.g. Support backend",
  create: "Create secret key",
  creating: "Creating",
  created: "Created",
  lastUsed: "Last used",
  neverUsed: "Never used",
  revoke: "Revoke",
  revokeLabel: (name: string) => `Revoke secret key ${name}`,
  newKeyTitle: "Your new secret key",
  newKeyDone: "I have copied it",
  newKeyLabel: "New secret key",
  newKeyNote: "Copy it now and store it safely: you won't see it again. If you lose it, revoke it and create a new one.",
  copy: "Copy",
  copyLabel: (what: string) => `Copy ${what}`,
  loadFailed: "The secret keys could not be loaded.",
  createFailed: "The secret key could not be created",
  revokeFailed: "The secret key could not be revoked",
  revoked: "Secret key revoked",
  confirmRevoke: {
    title: "Revoke secret key?",
    description: (name: string) => `"${name}" stops working at once: servers that use it get 401 from their next request.`,
    confirm: "Revoke",
  },
} as const;

/** The `error.message` of POST /api/v1/chat/completions refusals (OpenAI-style bodies). Chosen for Tala. */
export const openAiCompatMessages = {
  missingKey: "You didn't provide an API key. Send a secret key as 'Authorization: Bearer tala_sk_…'.",
  invalidKey: "Incorrect API key provided. Use a secret key (tala_sk_…) created for the assistant in the Tala dashboard.",
  publishableKey:
    "This is the assistant's publishable key (tala_pk_…), which works for the website widget only. Use a secret key (tala_sk_…) created in the Tala dashboard (Get Code → Secret keys), and keep it on your server.",
  invalidJson: "We could not parse the JSON body of your request.",
  messagesRequired: "'messages' must be a non-empty array of { role, content } objects.",
  noUserMessage: "'messages' must contain at least one message with role 'user'.",
  /** A request field (`param`, OpenAI's name for it: "model", "messages[0].role") absent, of the wrong type, or not one of its values. */
  missingParameter: (param: string) => `Missing required parameter: '${param}'.`,
  invalidType: (param: string, expected: string) => `Invalid type for '${param}': expected ${expected}.`,
  invalidValue: (param: string, supported: readonly string[]) => `Invalid value for '${param}': supported values are ${supported.map((v) => `'${v}'`).join(", ")}.`,
  tooLong: (param: string, max: number) => `'${param}' can be at most ${max} characters long.`,
  invalidParameter: (param: string) => `Invalid value for '${param}'.`,
  modelNotFound: (id: string) => `The model '${id}' does not exist or you do not have access to it.`,
  tooManyMessages: (max: number) => `At most ${max} messages can be sent in one request.`,
  messageTooLong: (max: number) => `A message can be at most ${max} characters long.`,
  unavailable: widgetMessages.unavailable,
  dailyLimitReached: widgetMessages.dailyLimitReached,
  tooManyRequests: widgetMessages.tooManyMessages,
  modelFailed: "The model could not answer right now. Please try again.",
  assistantUnreachable: widgetMessages.assistantUnreachable,
  internal: "The server had an error while processing your request. Please try again.",
} as const;

/**
 * The chat screen (/app/new-chat, /app/history): chats sidebar, conversation, composer, guest quota.
 * Chosen for Tala; the spec's own toasts stay in realtimeMessages / successMessages. E2E tests find
 * controls by these.
 */
export const chatUi = {
  newChat: "New chat",
  chats: "Chats",
  openChats: "Open chats",
  closeChats: "Close chats",
  searchChats: "Search chats",
  noChatsTitle: "No chats yet",
  noChatsText: "Your conversations appear here, newest first.",
  noSearchResults: "No chats match your search.",
  loadMore: "Load more",
  listLoadFailed: "Your chats could not be loaded.",
  retry: "Try again",
  chatActions: (title: string) => `Actions for ${title}`,
  rename: "Rename",
  renameTitle: "Rename chat",
  titleLabel: "Title",
  titleRequired: "Give the chat a title.",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  deleteConfirm: {
    title: "Delete chat?",
    description: "This permanently deletes the chat and all its messages. It cannot be undone.",
  },
  chatRenamed: "Chat renamed",
  chatDeleted: "Chat deleted",
  renameFailed: "Failed to rename chat",
  deleteFailed: "Failed to delete chat",
  chatLoadFailed: "This chat could not be loaded.",
  greeting: "How can I help you today?",
  greetingHint: "Replies appear as they are written.",
  /** Shown where a keyboard is likely (not on touch screens, pointer: coarse). */
  keyboardHint: "Press Enter to send and Shift+Enter for a new line.",
  messagesLabel: "Messages",
  you: "You",
  thinking: "Thinking…",
  stopped: "Stopped",
  copyMessage: "Copy message",
  copyCode: "Copy code",
  copy: "Copy",
  regenerate: "Regenerate reply",
  retrySend: "Retry",
  scrollToLatest: "Scroll to the latest message",
  composerLabel: "Message",
  composerPlaceholder: (assistant: string) => `Message ${assistant}`,
  send: "Send message",
  stop: "Stop generating",
  attach: "Attach files",
  attachmentsLabel: "Attached files",
  removeAttachment: (name: string) => `Remove ${name}`,
  readingAttachment: "Reading…",
  attachmentUnreadableTitle: "File not attached",
  attachmentReadFailed: (file: string) => `${file} could not be read.`,
  tooManyAttachmentsTitle: "Too many files",
  connecting: "Connecting…",
  reconnecting: "Connection lost. Reconnecting…",
  disconnected: "Not connected.",
  reconnect: "Reconnect",
  inProject: "Project",
  removeProject: (name: string) => `Start this chat outside ${name}`,
  noProject: "No project",
  remainingMessages: (n: number) => `${n} ${n === 1 ? "message" : "messages"} left today`,
  /** When the network's shared pool is what limits the guest. */
  remainingOnNetwork: (n: number) => `${n} ${n === 1 ? "message" : "messages"} left today on your network (shared by its guests)`,
  guestQuotaReached: "You have used all of today's free guest messages.",
  guestQuotaCta: "Create a free account",
  guestQuotaAfterCta: "to keep chatting and keep your history.",
  /** An account whose e-mail is not verified: its messages left today, and what lifts the limit. */
  remainingUnverified: (n: number) => `${n} ${n === 1 ? "message" : "messages"} left today. Verify your e-mail to lift the limit.`,
  unverifiedQuotaReached: "You have used all of today's messages for an account whose e-mail is not verified.",
  unverifiedQuotaCta: "Verify your e-mail",
  unverifiedQuotaAfterCta: "to keep chatting with no daily limit.",
  guestSessionNote: "As a guest, your chats are kept for this browser session only.",
  /** Under a guest's chat list. */
  guestHistoryNote: "Guest chats stay with this browser session and are erased after a day without use.",
  guestHistoryCta: "Create a free account to keep them.",
} as const;

/**
 * Regenerate (and Retry of a failed reply): the chat's last reply written again in place, its
 * earlier versions browsable (‹ 1/2 ›). The refusals are the `error` of a message-error frame;
 * the rest are the dashboard's controls (E2E tests find them by these).
 */
export const regenerateMessages = {
  /** A regenerate frame named a reply that is not the chat's last (or not a reply at all). */
  notLastReply: "Only the last reply of a chat can be written again.",
  /** The reply has no question before it to answer again. */
  noQuestion: "This reply has no question to answer again.",
  versionsLabel: "Versions of this reply",
  previousVersion: "Previous version",
  nextVersion: "Next version",
  /** The version shown, of how many: "1/2". */
  versionOf: (shown: number, count: number) => `${shown}/${count}`,
} as const;

/** The Projects screens (/app/projects, /app/projects/{id}). Chosen for Tala. */
export const projectUi = {
  title: "Projects",
  description: "Group chats under shared instructions: every chat in a project sends them to the model as its system prompt.",
  newProject: "New project",
  createTitle: "New project",
  createDescription: "Give it a name and, if you like, instructions for every chat in it.",
  name: "Name",
  namePlaceholder: "Trip to Marrakech",
  instructions: "Instructions",
  instructionsHint: "Sent to the model as the system prompt of every chat in this project.",
  instructionsPlaceholder: "You help me plan a week in Marrakech. Answer briefly and suggest places off the beaten track.",
  noInstructions: "No instructions yet.",
  create: "Create project",
  save: "Save",
  saveInstructions: "Save instructions",
  cancel: "Cancel",
  rename: "Rename",
  renameTitle: "Rename project",
  delete: "Delete",
  deleteConfirm: {
    title: "Delete project?",
    description: "The project and its instructions are deleted. Its chats are kept in your history, outside any project.",
  },
  created: "Project created",
  renamed: "Project renamed",
  instructionsSaved: "Instructions saved",
  deleted: "Project deleted",
  createFailed: "Failed to create project",
  saveFailed: "Failed to save project",
  deleteFailed: "Failed to delete project",
  loadFailed: "Projects could not be loaded.",
  projectLoadFailed: "This project could not be loaded.",
  retry: "Try again",
  emptyTitle: "No projects yet",
  emptyText: "Create a project to keep related chats together and give them shared instructions.",
  listLabel: "Your projects",
  chatCount: (n: number) => `${n} ${n === 1 ? "chat" : "chats"}`,
  updated: (when: string) => `Updated ${when}`,
  projectActions: (name: string) => `Actions for ${name}`,
  newChatInProject: "New chat in this project",
  chatsTitle: "Chats",
  chatsLabel: "Chats in this project",
  noChats: "No chats in this project yet.",
  loadMore: "Load more",
  breadcrumb: "Projects",
} as const;

/** The Model section of Settings (GET /api/models, PUT /api/settings). Chosen for Tala. */
export const modelSettingsUi = {
  title: "Model",
  description: "The language model that writes the replies in your chats.",
  label: "Model",
  serverDefault: (model: string) => `Server default (${model})`,
  saved: "Model saved",
  saveFailed: "Failed to save the model",
  loadFailed: "The models could not be loaded.",
  offline: "No language model is configured on this server, so there is no model to choose.",
  single: (model: string) => `Your chats use ${model}, the only model this server offers.`,
} as const;

/**
 * Website sources (chosen for Tala): the server's errors on …/sources, and why a page
 * failed (shown on the page list, one sentence each).
 */
export const webSourceMessages = {
  urlRequired: "Enter the address of a web page, like https://example.com/help.",
  urlInvalid: "Enter a web address like https://example.com/help.",
  urlTooLong: (max: number) => `The address must be at most ${max} characters.`,
  urlCredentials: "The address must not contain a user name or password.",
  urlNotPublic: "That address is private, local or reserved: Tala only reads public websites.",
  urlUnresolvable: "That site could not be found. Check the address, or try again in a minute.",
  urlPort: "Tala reads websites on their usual ports only (80 for http, 443 for https).",
  /** A sync stopped before reading anything: the site's robots.txt did not answer (`detail`: why). */
  robotsUnavailable: (detail: string) => `The site's robots.txt could not be read (${detail.replace(/\.$/, "")}), so nothing was read or changed. Try again later.`,
  scopeInvalid: 'scope must be "page" or "site".',
  maxPagesRange: (max: number) => `maxPages must be a whole number from 1 to ${max}.`,
  scheduleInvalid: 'schedule must be "off", "daily" or "weekly".',
  tooManySources: (max: number) => `An assistant can have at most ${max} website sources. Remove one first.`,
  duplicateSource: "This address is already a source of this assistant. Sync it instead.",
  sourceNotFound: "Website source not found.",
  syncRunning: "This source is being synced already.",
  page: {
    httpStatus: (status: number) => `The server answered ${status}.`,
    notHtml: (type: string) => `Not a web page (${type.slice(0, 60) || "no content type"}).`,
    tooLarge: (megabytes: number) => `Larger than ${megabytes} MB.`,
    timeout: (seconds: number) => `No complete answer within ${seconds} seconds.`,
    blockedByRobots: "Blocked by the site's robots.txt.",
    notPublic: "Points to a private, local or reserved address.",
    tooManyRedirects: (max: number) => `More than ${max} redirects.`,
    redirectOffSite: "Redirects to another site.",
    unreachable: "The site could not be reached.",
    noText: "No readable text on the page.",
    duplicate: "Same text as another page of this source.",
    noindex: "The page asks not to be indexed (noindex).",
    indexFailed: "The page could not be indexed.",
  },
} as const;

/** The dashboard's website sources panel (chosen for Tala). E2E tests find controls by these. */
export const webSourceUi = {
  title: "Websites",
  description: "Tala reads the pages, keeps their main text and answers from it, linking the page.",
  urlLabel: "Website address",
  urlPlaceholder: "https://example.com/help",
  scopeLabel: "What to read",
  scopes: { page: "This page only", site: "The whole site" },
  maxPagesLabel: "Page limit",
  scheduleLabel: "Sync again",
  schedules: { off: "Only when I ask", daily: "Daily", weekly: "Weekly" },
  add: "Add website",
  adding: "Adding…",
  sync: "Sync now",
  remove: "Remove",
  removeConfirm: (url: string) => `Remove ${url}? Its pages leave the assistant's knowledge.`,
  pages: "Pages",
  empty: "No websites yet. Add your help center or documentation and the assistant answers from it.",
  progress: (done: number, found: number, failed: number) =>
    `${done} of ${found} pages read${failed ? `, ${failed} failed` : ""}`,
  status: { queued: "Waiting", crawling: "Reading…", ready: "Up to date", failed: "Failed" },
  lastSynced: (when: string) => `Synced ${when}`,
  neverSynced: "Not synced yet",
  added: "Website added: reading its pages in the background.",
  syncStarted: "Sync started.",
  removed: "Website removed.",
  pageStatus: { pending: "Waiting", indexed: "Indexed", unchanged: "Unchanged", failed: "Failed", removed: "Removed" },
  loadFailed: "The websites could not be loaded.",
  retry: "Try again",
} as const;

/** The Insights tab (chosen for Tala). */
export const insightsUi = {
  title: "Insights",
  period: (days: number) => `Last ${days} days`,
  conversations: "Conversations",
  messages: "Messages",
  chartLabel: (days: number, conversations: number, messages: number) =>
    `Conversations and messages per day over the last ${days} days: ${conversations} conversations, ${messages} messages in all.`,
  feedback: "Answer ratings",
  helpful: "Helpful",
  notHelpful: "Not helpful",
  noRatings: "No answer has been rated yet.",
  ratedAnswers: "Rated answers",
  gaps: "Questions without an answer in the knowledge",
  gapsHelp: "Nothing in the knowledge matched these questions: add a document or a page that answers them.",
  noGaps: "Every question found something in the knowledge.",
  topQuestions: "Most asked",
  noQuestions: "No questions in this period.",
  asked: (n: number) => (n === 1 ? "asked once" : `asked ${n} times`),
  openConversation: "Open conversation",
  unavailable: "Insights could not be loaded. Please try again.",
} as const;

/** Errors of the insights and feedback calls. */
export const insightsMessages = {
  daysInvalid: (periods: readonly number[]) => `days must be one of ${periods.join(", ")}.`,
  ratingInvalid: 'rating must be "up" or "down".',
  messageNotRatable: "Only the assistant's answers in this conversation can be rated.",
} as const;

/** Signed visitor identity: what the widget API answers, and the owner's identity-secret routes. Chosen for Tala. */
export const visitorIdentityMessages = {
  tokenInvalid:
    "The visitor's sign-in token is not valid for this assistant: it must be a JWT signed (HS256) with this assistant's identity secret. The visitor was not signed in.",
  tokenExpired: "The visitor's sign-in token has expired. Reload the page to sign in again.",
  tokenTooLong: (maxHours: number) => `The visitor's sign-in token must expire at most ${maxHours} hours after it was made ("exp").`,
  tokenClaims: 'The visitor\'s sign-in token needs "sub" (the site\'s user id, text) and "exp" (seconds since 1970).',
  noSecret: "This assistant does not accept signed visitors yet: create its identity secret in the dashboard first.",
  tokenRequired: "This conversation belongs to a signed-in visitor: sign in again to open it.",
  graceInvalid: (options: readonly number[]) => `The grace period must be one of ${options.join(", ")} hours.`,
  limitScopeInvalid: (scopes: readonly string[]) => `Limits count per one of: ${scopes.join(", ")}.`,
} as const;

/** The dashboard's Signed visitors section (Code tab) and the history's visitor column and filter. Chosen for Tala. */
export const visitorIdentityUi = {
  sectionTitle: "Signed visitors",
  intro:
    "When your site signs its users in, the widget can know who they are: they find their conversations on any device, you see who asked what, and limits can count per user. Your server signs each user into a token with this assistant's identity secret.",
  statusLabel: "Identity secret",
  none: "No identity secret yet: every visitor is anonymous.",
  current: (masked: string, createdAt: string) => `Current: ${masked}, created ${createdAt}`,
  previous: (masked: string, until: string) => `Previous: ${masked}, still accepted until ${until}`,
  create: "Create secret",
  rotate: "Rotate secret",
  working: "Working…",
  graceLabel: "Old secret keeps working for",
  graceOption: (hours: number) => (hours === 0 ? "No grace (stops now)" : hours < 24 ? `${hours} hour${hours === 1 ? "" : "s"}` : `${hours / 24} day${hours === 24 ? "" : "s"}`),
  endGrace: "End grace now",
  endGraceLabel: "Stop accepting the previous secret now",
  newSecretTitle: "Your new identity secret",
  newSecretLabel: "New identity secret",
  newSecretNote: "Copy it now and keep it on your server only: it is shown this once. Never put it in a web page.",
  newSecretDone: "I have copied it",
  howToTitle: "How to use it",
  howTo:
    'Your server makes a token for the signed-in user (HS256 JWT with "sub" = your user id, optional "name" and "email", and "exp" at most 24 hours ahead) and puts it on the snippet:',
  snippetLabel: "Snippet with a signed visitor",
  snippet: (host: string) => `<script src="${host}/widget.js" data-assistant-key="tala_pk_…" data-user-token="TOKEN_FROM_YOUR_SERVER" async></script>`,
  examplesTitle: "Signing examples: Node and Python, no library (also in Tala's README, \"Signed visitors\")",
  nodeExampleLabel: "Node signing example",
  pythonExampleLabel: "Python signing example",
  /** The README's examples, word for word (worker/crypto/readme-signing-examples.test.ts checks both). */
  nodeExample: `import { createHmac } from "node:crypto";

// TALA_IDENTITY_SECRET: the assistant's identity secret (tala_vs_…), on your server only.
export function talaUserToken(user) {
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { sub: String(user.id), name: user.name, email: user.email, exp: Math.floor(Date.now() / 1000) + 3600 };
  const data = \`\${b64({ alg: "HS256", typ: "JWT" })}.\${b64(claims)}\`;
  const signature = createHmac("sha256", process.env.TALA_IDENTITY_SECRET).update(data).digest("base64url");
  return \`\${data}.\${signature}\`;
}`,
  pythonExample: `import base64, hashlib, hmac, json, os, time

# TALA_IDENTITY_SECRET: the assistant's identity secret (tala_vs_...), on your server only.
def tala_user_token(user):
    b64 = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    claims = {"sub": str(user["id"]), "name": user.get("name"), "email": user.get("email"), "exp": int(time.time()) + 3600}
    data = b64({"alg": "HS256", "typ": "JWT"}) + "." + b64(claims)
    signature = hmac.new(os.environ["TALA_IDENTITY_SECRET"].encode(), data.encode(), hashlib.sha256).digest()
    return data + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()`,
  loadFailed: "The identity secret could not be loaded.",
  createFailed: "The identity secret could not be created",
  endGraceFailed: "The previous secret could not be stopped",
  graceEnded: "The previous secret no longer works.",
  confirmRotate: {
    title: "Rotate the identity secret?",
    description: (grace: string) =>
      `A new secret replaces the current one. Tokens signed with the current secret keep working for: ${grace}. Update your server with the new secret before then.`,
    confirm: "Rotate",
  },
  // History
  visitorColumn: "Signed-in visitor",
  anonymous: "Anonymous",
  filterLabel: "Signed-in visitor",
  filterHint: "The user id your site signs them in with.",
  filterPlaceholder: "member-77",
  filterApply: "Filter",
  filterClear: "Show everyone",
  filterActive: (user: string) => `Showing the conversations of signed-in visitor ${user}`,
  filterByUser: (who: string) => `Show only ${who}'s conversations`,
  detailVisitor: "Signed-in visitor",
  detailId: "User id",
  detailName: "Name",
  detailEmail: "E-mail",
} as const;

/** Proof-of-work before a widget session. Chosen for Tala. */
export const botDefenceMessages = {
  challengeRequired: "Checking your browser before the conversation starts…",
  proofRefused: "Your browser's check could not be verified. Reload the page and try again.",
  modeInvalid: (modes: readonly string[]) => `Bot defence must be one of: ${modes.join(", ")}.`,
} as const;

/** The owner's bot-defence counts on the Insights tab. Chosen for Tala. */
export const botDefenceUi = {
  title: "Bot defence",
  summary: (days: number, challenged: number, refused: number) =>
    `${challenged === 1 ? "1 conversation" : `${challenged} conversations`} challenged, ${refused} refused in the last ${days} days.`,
  modeAlways: "A browser check runs before every new conversation.",
  modeAuto: "A browser check runs only when new conversations spike from one address, network or browser.",
  help: "Challenged: a new conversation had to pass a small, invisible browser check first. Refused: the check failed (forged, expired, reused or from another address).",
} as const;

const messagesCount = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "message" : "messages"}`;

/** Monthly message budgets. Chosen for Tala. */
export const budgetMessages = {
  /** What a visitor sees when a paused assistant refuses a message. */
  budgetReached: "This assistant has answered all the messages it can this month. Please try again later.",
  limitInvalid: (min: number, max: number) => `A monthly budget must be a whole number of messages from ${min} to ${max}, or none.`,
  actionInvalid: (actions: readonly string[]) => `At 100 % the assistant must do one of: ${actions.join(", ")}.`,
  emailSubject: (name: string, percent: number) => `${name} has used ${percent}% of its monthly message budget`,
  /**
   * The count is the one the threshold was found at, which can pass the budget (a lowered budget,
   * or the all-assistants total arriving several messages at once): at or past it, the e-mail
   * names the budget ("used its 10 messages"), never "11 of 10".
   */
  emailBody: (name: string, used: number, limit: number, action: string) =>
    used >= limit
      ? `${name} has used its ${messagesCount(limit)} this month (UTC). ${action}`
      : `${name} has answered ${used.toLocaleString("en")} of its ${messagesCount(limit)} this month (UTC). ${action}`,
} as const;

/** Monthly budgets in the dashboard, and the e-mails' outcome sentences. Chosen for Tala. */
export const budgetUi = {
  /** The all-assistants budget, where an assistant's name would be in the e-mails ("Your account has used 80% of its …"). */
  allAssistantsName: "Your account",
  /** The last sentence of a budget e-mail: what happens at 100 %. */
  emailOutcome: (scope: "assistant" | "owner", action: "pause" | "continue", reached: boolean) => {
    const who = scope === "owner" ? "Your assistants" : "The assistant";
    if (action === "continue") {
      return reached
        ? `${who} keep${scope === "owner" ? "" : "s"} answering, as you chose. Change the budget in the dashboard if you want ${scope === "owner" ? "them" : "it"} to pause.`
        : `At 100 % ${who.toLowerCase()} will keep answering, as you chose.`;
    }
    return reached
      ? `${who} ${scope === "owner" ? "are" : "is"} paused until the month ends (UTC): visitors are told to try again later. Raise or remove the budget in the dashboard to resume now.`
      : `At 100 % ${who.toLowerCase()} will pause until the month ends (UTC), as you chose. Raise the budget in the dashboard to avoid it.`;
  },
  // Settings form, Limits tab
  monthlyBudget: "Monthly message budget",
  monthlyBudgetHint: (min: number, max: number) =>
    `Visitor messages per calendar month (UTC), ${min.toLocaleString("en")}–${max.toLocaleString("en")}. Leave empty for no budget. You get an e-mail at 80 % and 100 %.`,
  budgetAction: "At 100 %",
  budgetActions: { pause: "Pause the assistant", continue: "Keep answering" },
  /** The same choice for the all-assistants budget: every assistant pauses, not one. */
  ownerBudgetActions: { pause: "Pause all assistants", continue: "Keep answering" },
  botDefence: "Bot defence",
  botDefenceModes: { auto: "On spikes", always: "Always, before every conversation" },
  botDefenceHint: "Browsers solve a short check (a fraction of a second) before a conversation starts: only when new conversations spike, or every time.",
  visitorLimitScope: "Limits count per",
  visitorLimitScopes: { session: "Conversation", user: "Signed-in visitor" },
  visitorLimitScopeHint: "For visitors your site signs in: count the per-conversation limit across all of their conversations.",
  // Banners (Public Assistants page, an assistant's page)
  bannerWarning: (name: string, used: number, limit: number) =>
    `${name} has used ${used.toLocaleString("en")} of its ${limit.toLocaleString("en")} messages this month (${Math.floor((used / limit) * 100)} %).`,
  bannerPaused: (name: string, limit: number) => `${name} is paused: its monthly budget of ${messagesCount(limit)} is used up.`,
  bannerContinuing: (name: string, used: number, limit: number) =>
    `${name} has used its monthly budget (${used.toLocaleString("en")} of ${limit.toLocaleString("en")}) and keeps answering.`,
  ownerBannerWarning: (used: number, limit: number) =>
    `Your assistants have used ${used.toLocaleString("en")} of the ${messagesCount(limit)} of their shared monthly budget (${Math.floor((used / limit) * 100)} %).`,
  ownerBannerPaused: (limit: number) => `All your assistants are paused: their shared monthly budget of ${messagesCount(limit)} is used up.`,
  ownerBannerContinuing: (used: number, limit: number) =>
    `Your assistants have used their shared monthly budget (${used.toLocaleString("en")} of ${limit.toLocaleString("en")}) and keep answering.`,
  resumeAssistant: "To resume now, raise or remove its budget in its Limits settings; otherwise it resumes on the 1st (UTC).",
  resumeOwner: "To resume now, raise or remove the budget for all assistants; otherwise they resume on the 1st (UTC).",
  // Lowering a budget to this month's use or below: asked first
  lowerTitle: "Lower the budget below this month's use?",
  lowerText: (who: string | null, used: number, limit: number, action: "pause" | "continue") =>
    `${who === null ? "Your assistants have" : `${who} has`} answered ${messagesCount(used)} this month (UTC). With a budget of ${messagesCount(limit)} ${
      action === "pause"
        ? `${who === null ? "they pause" : "it pauses"} at once and ${who === null ? "refuse" : "refuses"} visitors until the month ends.`
        : `the budget is used up at once; ${who === null ? "they keep" : "it keeps"} answering, as you chose.`
    }`,
  lowerConfirm: "Lower the budget",
  /** An unnamed assistant in the question. */
  thisAssistant: "This assistant",
  lowerCancel: "Keep the current budget",
  // The all-assistants budget control
  ownerTitle: "Budget for all assistants",
  ownerLimit: "Messages per month, all assistants together",
  ownerHint: "Leave empty for no budget. Counted across every assistant, per calendar month (UTC).",
  ownerUsage: (used: number, limit: number | null) =>
    limit === null ? `${used.toLocaleString("en")} ${used === 1 ? "message" : "messages"} this month (no budget)` : `${used.toLocaleString("en")} of ${limit.toLocaleString("en")} messages this month`,
  save: "Save budget",
  saving: "Saving…",
  saved: "Budget saved.",
  loadFailed: "The budgets could not be loaded. Reload the page to try again.",
  /** 503 of GET/PUT /api/budgets when the owner's room does not answer. */
  unavailable: "Your budgets cannot be reached just now. Please try again in a moment.",
} as const;

/** Curated answers (Q&A pairs), text snippets and starter questions: the owner's corrections. */
export const qaMessages = {
  questionRequired: "Question is required.",
  questionTooLong: (max: number) => `Question must be at most ${max} characters.`,
  answerRequired: "Answer is required.",
  answerTooLong: (max: number) => `Answer must be at most ${max} characters.`,
  variantsList: "Variants must be a list of questions.",
  tooManyVariants: (max: number) => `A question can have at most ${max} variants.`,
  variantTooLong: (max: number) => `Each variant must be at most ${max} characters.`,
  modeInvalid: (modes: readonly string[]) => `Mode must be one of: ${modes.join(", ")}.`,
  strictnessInvalid: (levels: readonly string[]) => `Strictness must be one of: ${levels.join(", ")}.`,
  duplicateQuestion: (existing: string) => `This question is already answered by the pair "${existing}".`,
  tooManyPairs: (max: number) => `An assistant can have at most ${max} curated answers.`,
  notFound: "Curated answer not found.",
  importNotCsv: "Import a CSV file (.csv) with the columns question, answer, variants.",
  importTooLarge: (mb: number) => `The CSV file must be at most ${mb} MB.`,
  importTooManyRows: (max: number) => `The CSV file can have at most ${max} rows.`,
  importHeader: "The first row must name the columns: question,answer,variants.",
  importRowMalformed: "This row is not valid CSV (check its quotes).",
  /** The source a reply from a pair shows: the site's own answer, not a file. */
  sourceLabel: "Answer from the site",
  titleRequired: "Title is required.",
  titleTooLong: (max: number) => `Title must be at most ${max} characters.`,
  contentRequired: "Content is required.",
  contentTooLong: (max: number) => `Content must be at most ${max} characters.`,
  textNotFound: "Text not found.",
  starterQuestionsList: "Starter questions must be a list of questions.",
  tooManyStarterQuestions: (max: number) => `At most ${max} starter questions.`,
  starterQuestionTooLong: (max: number) => `Each starter question must be at most ${max} characters.`,
} as const;

/** Text snippets in the Knowledge tab: knowledge typed or pasted, edited in place. */
export const knowledgeTextUi = {
  add: "Add text",
  addTitle: "Add text",
  editTitle: "Edit text",
  description: "Type or paste knowledge your assistant should use, like a policy or an FAQ. Markdown headings and lists are kept.",
  titleLabel: "Title",
  titleHint: "Visitors see it as the answer's source.",
  contentLabel: "Text",
  /** The character counter under the text, against the limit. */
  counter: (used: number, max: number) => `${used.toLocaleString("en")} / ${max.toLocaleString("en")} characters`,
  save: "Save",
  cancel: "Cancel",
  edit: "Edit",
  editLabel: (title: string) => `Edit ${title}`,
  /** The type a text's row shows in the files table. */
  badge: "Text",
  loading: "Loading the text…",
  loadFailed: "The text could not be loaded. Please try again.",
  retry: "Try again",
  saveFailed: "The text could not be saved. Please try again.",
  added: "Text added",
  saved: "Text saved",
  /** 503 of PUT …/texts/{id}: the old vectors could not be removed, so nothing changed. */
  indexUnavailable: "The knowledge index could not be reached, so the text was not changed. Please try again in a minute.",
} as const;

/** A person taking over a visitor's conversation: errors and the texts the server writes (schemas/handoff.ts). */
export const handoffMessages = {
  notTakenOver: "This conversation is not taken over. Take it over before replying as a person.",
  /** An inbox row's title before the visitor's first message. */
  untitledConversation: "New conversation",
  /** The person's name when the owner's account has neither a name nor an address to show. */
  agentFallbackName: "Support",
  takenByAnother: (name: string) => `${name} is already answering this conversation.`,
  conversationNotFound: "Conversation not found.",
  contentRequired: "Message is required.",
  contentTooLong: (max: number) => `Message must be at most ${max} characters.`,
  typingInvalid: "typing must be true or false.",
  filterInvalid: (filters: readonly string[]) => `Filter must be one of: ${filters.join(", ")}.`,
  handoffOff: "This assistant does not offer talking to a person.",
  waitForPerson: (max: number) => `Please wait for a reply: you can send at most ${max} messages in a row until a person answers.`,
  emailInvalid: "Enter a valid e-mail address.",
  emailTooLong: (max: number) => `E-mail address must be at most ${max} characters.`,
  businessHoursTooLong: (max: number) => `Business hours must be at most ${max} characters.`,
  replyTimeTooLong: (max: number) => `Reply time must be at most ${max} characters.`,
  idleEndInvalid: (options: readonly number[]) => `Auto-end must be one of: ${options.join(", ")} minutes (0: never).`,
  emailAfterRange: (min: number, max: number) => `Ask for an e-mail after must be between ${min} and ${max} minutes.`,
  /**
   * The assistant's reply when a visitor asks for a person and the owner offers it (no model call),
   * in the visitor's language; the widget shows the "Talk to a person" action under it.
   */
  offerReply: {
    en: "I can put you in touch with a person from our team. Press “Talk to a person” below and they will reply here.",
    fr: "Je peux vous mettre en relation avec une personne de notre équipe. Appuyez sur « Parler à une personne » ci-dessous : elle vous répondra ici.",
    ar: "يمكنني وصلك بشخص من فريقنا. اضغط على «التحدث إلى شخص» أدناه وسيرد عليك هنا.",
  },
  /** E-mail to the owner when a visitor asks for a person (at most one per conversation per handoffLimits.emailIntervalMs). */
  ownerEmailSubject: (assistantName: string) => `A visitor asked for a person on ${assistantName}`,
  ownerEmailBody: (assistantName: string, question: string, link: string) =>
    `A visitor of ${assistantName} asked to talk to a person.\n\nTheir last message: ${question || "(none yet)"}\n\nOpen the conversation: ${link}`,
  /** E-mail to a visitor who left an address, when a person replied after they left. */
  visitorEmailSubject: (assistantName: string) => `${assistantName} replied to your message`,
  visitorEmailBody: (assistantName: string, agentName: string, reply: string) =>
    `${agentName} of ${assistantName} replied:\n\n${reply}\n\nOpen the chat on the site to continue the conversation.`,
} as const;

/**
 * The owner's live Inbox (dashboard: the assistant page's Inbox tab, the navigation badge, the
 * conversation view, takeover and reply), the "Talk to a person" settings and the Insights figures
 * of handoffs (schemas/handoff.ts). Chosen for Tala.
 */
export const inboxUi = {
  tab: "Inbox",
  title: "Inbox",
  intro: "Conversations as they happen. Take one over to answer as yourself; the assistant pauses for it until you hand it back.",
  filtersLabel: "Show conversations",
  filters: { "needs-person": "Needs a person", "with-person": "With a person", live: "Live now", all: "All" },
  filterCount: (label: string, n: number) => `${label}, ${n}`,
  listLabel: "Conversations",
  refresh: "Refresh the inbox",
  selectConversation: "Choose a conversation to read it and answer.",
  empty: {
    "needs-person": "Nobody is waiting for a person.",
    "with-person": "No conversation is with a person now.",
    live: "No visitor is on the site with the chat open.",
    all: "No conversation yet. They appear here as visitors write.",
  },
  loadError: "The inbox could not be loaded.",
  retry: "Try again",
  previous: "Previous",
  next: "Next",
  pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
  pagination: "Inbox pages",
  unread: (n: number) => (n === 1 ? "1 unread message" : `${n} unread messages`),
  live: "Live",
  noQuestion: "New conversation",
  anonymousVisitor: "Visitor",
  visitorFrom: (locale: string | undefined, page: string | undefined) => [locale, page].filter(Boolean).join(" · ") || "Visitor",
  previewBy: { user: "Visitor", assistant: "Assistant", agent: "You" },
  state: { none: "Assistant", requested: "Needs a person", taken: "With a person" } as Record<"none" | "requested" | "taken", string>,
  /** The live connection: on its HTTP fallback or reconnecting, the inbox reads again every few seconds. */
  polling: "Reconnecting… the inbox refreshes every few seconds meanwhile.",
  notifications: {
    enable: "Turn on desktop notifications",
    enableHint: "Get a notification when a visitor asks for a person, even in another tab.",
    denied: "Notifications are blocked for this site in your browser settings.",
    on: "Desktop notifications are on.",
    title: (assistant: string) => `A visitor asked for a person on ${assistant}`,
    body: (question: string) => question || "Open the conversation to answer.",
  },
  /** The navigation badge's words for screen readers. */
  badge: (n: number) => (n === 1 ? "1 conversation needs a person" : `${n} conversations need a person`),
  conversation: {
    label: "Conversation",
    messagesLabel: "Messages",
    back: "Back to the inbox",
    close: "Close conversation",
    loadError: "This conversation could not be loaded.",
    notFound: "This conversation no longer exists.",
    visitor: "Visitor",
    assistant: "Assistant",
    you: "You",
    person: (name: string) => `${name} (person)`,
    contactEmail: "E-mail left for the reply",
    signedVisitor: "Signed-in visitor",
    page: "Page",
    language: "Language",
    typing: "The visitor is typing…",
    replying: "The assistant is replying…",
    requested: "This visitor asked for a person.",
    requestedSince: (when: string) => `This visitor asked for a person at ${when}.`,
    taken: (name: string) => `${name} is answering. The assistant is paused for this conversation.`,
    none: "The assistant is answering this conversation.",
    takeOver: "Take over",
    takeOverHint: "The assistant stops answering this visitor until you hand the conversation back.",
    handBack: "Hand back to the assistant",
    takeoverFailed: "The conversation could not be taken over.",
    handBackFailed: "The conversation could not be handed back.",
    notTaken: "Take this conversation over to reply as yourself.",
    noMessages: "No message yet.",
  },
  composer: {
    label: "Your reply",
    placeholder: "Write as yourself. Markdown works: **bold**, lists, links.",
    write: "Write",
    preview: "Preview",
    previewEmpty: "Nothing to preview yet.",
    send: "Send",
    sending: "Sending…",
    counter: (n: number, max: number) => `${n} / ${max}`,
    tooLong: (max: number) => `Message must be at most ${max} characters.`,
    sendFailed: "Your reply was not sent. It is still in the box: try again.",
    retry: "Send again",
    hint: "Enter for a new line; Ctrl+Enter or ⌘+Enter sends.",
  },
  settings: {
    title: "Talk to a person",
    intro: "Let visitors ask for a person, and tell them when someone answers. You reply from the Inbox.",
    visitorAction: "Show “Talk to a person” in the widget",
    visitorActionHint: "Off by default. The assistant also offers it when a visitor asks for a person.",
    businessHours: "Business hours",
    businessHoursHint: "Shown to a visitor waiting for a person, e.g. “Mon–Fri, 9:00–18:00 CET”.",
    replyTime: "Reply time",
    replyTimeHint: "e.g. “We usually reply within an hour”.",
    idleEnd: "End a takeover after",
    idleEndHint: "With no message from either side; the assistant then answers again.",
    idleEndOption: (minutes: number) => (minutes === 0 ? "Never" : minutes < 60 ? `${minutes} minutes` : minutes === 60 ? "1 hour" : `${minutes / 60} hours`),
    emailAfter: "Ask for an e-mail after (minutes)",
    emailAfterHint: "If nobody takes over by then, an anonymous visitor is asked for an address for the reply.",
    emailOwner: "E-mail me when a visitor asks for a person",
    emailOwnerHint: "At most one e-mail per conversation every 10 minutes.",
    save: "Save",
    saved: "Talk to a person settings saved.",
    saveFailed: "The settings could not be saved.",
  },
  insights: {
    title: "People taking over",
    requested: "Requests for a person",
    taken: "Taken over",
    medianFirstReply: "Median time to first reply",
    day: "Day",
    none: "No handoff in this period.",
    noReply: "—",
    tableLabel: (days: number) => `Handoffs per day over the last ${days} days`,
    duration: (ms: number) => {
      const s = Math.round(ms / 1000);
      if (s < 60) return `${s} s`;
      const m = Math.round(s / 60);
      return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
    },
  },
  /** History: a person's message. */
  agentLabel: (name: string) => `${name} (person)`,
} as const;

/**
 * The owner's Leads tab (dashboard): the leads list, its search and CSV export, and the lead form
 * editor (schemas/leads.ts). Chosen for Tala.
 */
export const leadsUi = {
  tab: "Leads",
  title: "Leads",
  intro: "Contact details visitors left in the chat, newest first. Each one links to the conversation it came from.",
  searchLabel: "Search leads",
  searchPlaceholder: "Search names, e-mails, any value",
  count: (n: number) => (n === 1 ? "1 lead" : `${n.toLocaleString("en")} leads`),
  noMatches: (q: string) => `No lead matches “${q}”.`,
  listLabel: "Leads",
  loadFailed: "The leads could not be loaded.",
  exportCsv: "Export CSV",
  exportFailed: "The leads could not be exported.",
  exportFileName: (assistantId: string) => `leads-${assistantId}.csv`,
  exported: "Leads exported.",
  refresh: "Refresh the leads",
  loading: "Loading leads",
  columns: { date: "Date", contact: "Contact", details: "Details", trigger: "Form shown", conversation: "Conversation" },
  openConversation: "Open conversation",
  /** The link's name for screen readers: its visible words first, then whose it is. */
  openConversationOf: (who: string) => `Open conversation with ${who}`,
  anonymous: "Visitor",
  signedVisitor: "Signed-in visitor",
  /** What showed the form, in the owner's words (leadTriggers). */
  triggers: {
    "before-first-message": "Before the first message",
    "after-messages": "After a few messages",
    asked: "Asked to be contacted",
    unanswered: "When the assistant did not know",
    handoff: "While waiting for a person",
  } as Record<string, string>,
  emptyTitle: "No leads yet",
  emptyOff: "Leads arrive when visitors fill in your lead form in the chat. Turn the form on and choose when it shows.",
  emptyOn: "Your lead form is on. Leads appear here as visitors fill it in.",
  emptyAction: "Set up the lead form",
  previous: "Previous",
  next: "Next",
  pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
  pagination: "Lead pages",
  form: {
    title: "Lead form",
    intro: "Ask visitors for their details in the chat. The widget shows it in the visitor's language: English, French or Arabic.",
    loadFailed: "The lead form could not be loaded.",
    edit: "Edit form",
    hide: "Close editor",
    enabled: "Show the lead form",
    enabledHint: "Off: the widget never asks for details.",
    on: "On",
    off: "Off",
    /** The card's line while the editor is closed: the fields, and when the form shows. */
    summary: (fields: string, when: string) => `${fields} · Shown ${when}.`,
    summaryNever: (fields: string) => `${fields} · Never shown: choose when in the editor.`,
    summaryOr: (items: readonly string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`),
    summaryWhen: {
      beforeFirst: "before the first message",
      after: (n: number) => (n === 1 ? "after the first message" : `after ${n} messages`),
      asked: "when a visitor asks to be contacted",
      unanswered: "when the assistant does not know",
    },
    fieldsTitle: "Fields",
    fieldsHint: (max: number) => `Up to ${max} fields. Name, e-mail, phone and company use the widget's own label unless you write one.`,
    kinds: { name: "Name", email: "E-mail", phone: "Phone", company: "Company", text: "Text" } as Record<string, string>,
    kindHint: { name: "", email: "Checked as an e-mail address.", phone: "Checked as a phone number.", company: "", text: "Free text: give it a label." } as Record<string, string>,
    addField: "Add field",
    addFieldLabel: "Kind of field to add",
    fieldsFull: (max: number) => `The form has ${max} fields, the most it can have.`,
    required: "Required",
    requiredOf: (label: string) => `${label} required`,
    moveUp: (label: string) => `Move ${label} up`,
    moveDown: (label: string) => `Move ${label} down`,
    remove: (label: string) => `Remove ${label}`,
    fieldLegend: (n: number, label: string) => `Field ${n}: ${label}`,
    /** The language whose texts are edited (and previewed). */
    languageLabel: "Texts in",
    languages: { en: "English", fr: "Français", ar: "العربية" } as Record<string, string>,
    labelIn: (language: string) => `Label (${language})`,
    introLabel: (language: string) => `Intro line (${language})`,
    thanksLabel: (language: string) => `Thank-you line (${language})`,
    textsHint: "Empty: the widget's default in that language.",
    whenTitle: "When it shows",
    whenHint: "Any that apply. A conversation that already sent its details is not asked again.",
    beforeFirst: "Before the first message",
    beforeFirstModes: { off: "No", optional: "Yes, the visitor may skip it", required: "Yes, required before the visitor can write" } as Record<string, string>,
    afterMessages: "After this many visitor messages",
    afterMessagesHint: "Once per conversation. 0: never.",
    whenAsked: "When the visitor asks to be contacted",
    whenAskedHint: "e.g. “Can someone call me back?”, in English, French or Arabic.",
    whenUnanswered: "When the assistant does not know",
    whenUnansweredHint: "Offered under an answer that found nothing in the knowledge.",
    emailOwner: "E-mail me each lead",
    emailOwnerHint: (max: number) => `To your account's address; at most ${max} e-mails an hour.`,
    save: "Save lead form",
    saved: "Lead form saved.",
    saveFailed: "The lead form could not be saved.",
    unsaved: "Unsaved changes",
    preview: "Preview",
    previewHint: "As a visitor sees it in the chat.",
    previewOff: "The form is off: visitors do not see it.",
  },
  /** Insights: leads per day, beside conversations and messages. */
  insights: {
    leads: "Leads",
    chartLabel: (days: number, leads: number) => `Leads over the last ${days} days: ${leads}.`,
  },
} as const;

/** The owner's Webhooks tab (dashboard): endpoints, their secrets and deliveries (schemas/webhooks.ts). Chosen for Tala. */
export const webhooksUi = {
  tab: "Webhooks",
  title: "Webhooks",
  intro: "Send what happens in this assistant's conversations to your own systems (a CRM, Zapier, Make, n8n) as it happens. Every request is signed with the endpoint's secret.",
  loadFailed: "The webhooks could not be loaded.",
  listLabel: "Webhook endpoints",
  add: "Add endpoint",
  addFull: (max: number) => `An assistant has at most ${max} endpoints.`,
  emptyTitle: "No endpoint yet",
  emptyText: "Add the address of a server that accepts POST requests, and choose the events it receives.",
  /** One line per event type (webhookLimits.events, and the test event). */
  events: {
    "conversation.started": "A visitor starts a conversation.",
    "message.answered": "The assistant answered a visitor's message (both texts, once the reply is saved).",
    "lead.created": "A visitor left their details in the lead form.",
    "feedback.created": "A visitor rated an answer.",
    "handoff.requested": "A visitor asked to talk to a person.",
    "webhook.test": "A test event sent from this page.",
  } as Record<string, string>,
  state: { on: "On", off: "Off", disabled: "Disabled" },
  failingSince: (when: string) => `Failing since ${when}`,
  lastDelivery: "Last delivery",
  lastOk: (status: string, when: string) => `${status} · ${when}`,
  lastFailed: (status: string, when: string) => `Failed (${status}) · ${when}`,
  noDelivery: "No delivery yet",
  noStatus: "no response",
  secretHint: (hint: string) => `Secret ${hint}`,
  actionsOf: (url: string) => `Actions for ${url}`,
  edit: "Edit",
  turnOn: "Turn on",
  turnOff: "Turn off",
  turnedOn: "Endpoint turned on.",
  turnedOff: "Endpoint turned off.",
  toggleFailed: "The endpoint could not be changed.",
  test: "Send test event",
  testSent: "Test event sent: it appears in the deliveries.",
  testFailed: "The test event could not be sent.",
  rotate: "Rotate secret",
  rotateTitle: "Rotate the signing secret?",
  rotateConfirm: (url: string) => `The current secret of ${url} stops working at once: update your server with the new one.`,
  rotateFailed: "The secret could not be rotated.",
  delete: "Delete",
  deleteTitle: "Delete this endpoint?",
  deleteConfirm: (url: string) => `Tala stops sending events to ${url} and forgets its deliveries. This cannot be undone.`,
  deleted: "Endpoint deleted.",
  deleteFailed: "The endpoint could not be deleted.",
  cancel: "Cancel",
  form: {
    addTitle: "Add endpoint",
    editTitle: "Edit endpoint",
    url: "Endpoint URL",
    urlPlaceholder: "https://example.com/hooks/tala",
    urlHint: "An https:// address of your server that accepts POST requests.",
    description: "Description",
    descriptionHint: "Optional: what this endpoint is for.",
    events: "Events",
    create: "Add endpoint",
    save: "Save changes",
    saved: "Endpoint saved.",
    createFailed: "The endpoint could not be added.",
    saveFailed: "The endpoint could not be saved.",
  },
  secret: {
    createdTitle: "Endpoint added: its signing secret",
    rotatedTitle: "The new signing secret",
    label: "Signing secret",
    note: "Copy it now and keep it on your server: you will not see it again. Your server checks each request's Tala-Signature with it.",
    copy: "Copy",
    copyLabel: "Copy the signing secret",
    copied: "Secret copied.",
    done: "I have copied it",
  },
  deliveries: {
    show: "Deliveries",
    showOf: (url: string) => `Deliveries of ${url}`,
    title: "Recent deliveries",
    refresh: "Refresh deliveries",
    loadFailed: "The deliveries could not be loaded.",
    empty: "No delivery yet. Send a test event to try the endpoint.",
    columns: { event: "Event", status: "Status", http: "HTTP", duration: "Duration", attempts: "Attempts", time: "Time" },
    statuses: { pending: "Pending", retrying: "Retrying", delivered: "Delivered", failed: "Failed" } as Record<string, string>,
    noResponse: "—",
    durationMs: (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`),
    attempts: (n: number) => (n === 1 ? "1 attempt" : `${n} attempts`),
    nextAttempt: (when: string) => `Next attempt ${when}`,
    details: "Details",
    detailsOf: (type: string, when: string) => `Details of ${type} at ${when}`,
    response: (bytes: number) => `Response (first ${Math.round(bytes / 1024)} KB)`,
    emptyResponse: "Empty response.",
    error: "Error",
    eventId: "Event id",
    resend: "Resend",
    resent: "Delivery queued again.",
    resendFailed: "The delivery could not be resent.",
  },
  verify: {
    title: "Verify signatures",
    text: (header: string, idHeader: string, toleranceSeconds: number) =>
      `Each request carries ${header}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint's secret>. Compute it over the raw body, compare in constant time, refuse a t more than ${Math.round(toleranceSeconds / 60)} minutes away from your clock, and skip any ${idHeader} you already handled: retries and resends keep it.`,
    readme: "Examples in Node and Python: Tala's README, section “Webhooks”.",
  },
} as const;

/** Lead capture (schemas/leads.ts): validation of the owner's form and of a visitor's submission, the owner's e-mail. Chosen for Tala. */
export const leadMessages = {
  formMustBeObject: "Lead form must be an object.",
  tooManyFields: (max: number) => `A lead form has at most ${max} fields.`,
  fieldsRequired: "Add at least one field to the lead form.",
  fieldKindInvalid: (kinds: readonly string[]) => `Field kind must be one of: ${kinds.join(", ")}.`,
  fieldKeyInvalid: "Field key must be name, email, phone, company or text1 to text6, matching its kind.",
  duplicateField: (key: string) => `The lead form has the field "${key}" twice.`,
  labelRequired: "A text field needs a label in at least one language.",
  labelTooLong: (max: number) => `Field label must be at most ${max} characters.`,
  introTooLong: (max: number) => `Intro line must be at most ${max} characters.`,
  thanksTooLong: (max: number) => `Thank-you line must be at most ${max} characters.`,
  beforeFirstMessageInvalid: (modes: readonly string[]) => `Before the first message must be one of: ${modes.join(", ")}.`,
  afterMessagesRange: (min: number, max: number) => `After how many messages must be a whole number between ${min} and ${max} (0: never).`,
  mustBeBoolean: (field: string) => `${field} must be true or false.`,
  /** A visitor's submission. */
  formOff: "This assistant does not collect contact details.",
  fieldsMustBeObject: "fields must be an object of the form's field keys and their values.",
  unknownField: (key: string) => `"${key}" is not a field of this form.`,
  valueRequired: (label: string) => `${label} is required.`,
  valueTooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  valueMustBeText: (label: string) => `${label} must be text.`,
  emailInvalid: "Enter a valid e-mail address.",
  phoneInvalid: "Enter a valid phone number.",
  /** The server's refusals of a submitted e-mail or phone name the field by its label (the English label, or the kind's). */
  emailInvalidFor: (label: string) => `${label} must be a valid e-mail address.`,
  phoneInvalidFor: (label: string, min: number, max: number) => `${label} must be a valid phone number (${min} to ${max} digits).`,
  /** A field's label when the owner gave none in English: the kind's own. */
  defaultLabels: { name: "Name", email: "E-mail", phone: "Phone", company: "Company", text: "Text" } as const,
  /**
   * The assistant's reply, with no model call, when a visitor asks to be contacted and the form
   * shows then (`whenAsked`): the widget shows the form under it (`offersLeadForm`).
   */
  offerReply: {
    en: "Leave your details below and we'll get back to you.",
    fr: "Laissez vos coordonnées ci-dessous et nous vous recontacterons.",
    ar: "اترك بياناتك أدناه وسنعاود التواصل معك.",
  },
  tooManyLeads: (max: number) => `This conversation already sent its details ${max} times.`,
  leadNotFound: "Lead not found.",
  searchTooLong: (max: number) => `Search must be at most ${max} characters.`,
  pageInvalid: "Page must be a whole number of at least 1.",
  /** The CSV export's columns besides the form's fields (each field's column is its label). */
  csvColumns: { createdAt: "Date (UTC)", trigger: "Shown", referrer: "Page", locale: "Language", visitorId: "Signed visitor", visitorName: "Signed visitor's name", visitorEmail: "Signed visitor's e-mail", sessionId: "Conversation" },
  /** One line of the owner's e-mail per value. */
  ownerEmailLine: (label: string, value: string) => `${label}: ${value}`,
  /** E-mail to the owner for each new lead (when on; at most leadLimits.maxOwnerEmailsPerHour per assistant). */
  ownerEmailSubject: (assistantName: string) => `New lead from ${assistantName}`,
  ownerEmailBody: (assistantName: string, lines: string, link: string) =>
    `A visitor of ${assistantName} left their details:\n\n${lines}\n\nOpen the conversation: ${link}`,
} as const;

/** Signed webhooks (schemas/webhooks.ts): the owner's endpoints and what their deliveries say. Chosen for Tala. */
export const webhookMessages = {
  urlRequired: "Endpoint URL is required.",
  urlTooLong: (max: number) => `Endpoint URL must be at most ${max} characters.`,
  urlInvalid: "Endpoint URL must be a full web address, like https://example.com/hooks/tala.",
  httpsOnly: "Endpoint URL must start with https://.",
  urlNotAllowed: "Endpoint URL must be a public address: private, loopback, link-local and metadata addresses are refused.",
  urlHasCredentials: "Endpoint URL must not contain a user name or password.",
  eventsRequired: "Choose at least one event.",
  eventInvalid: (events: readonly string[]) => `Events must be among: ${events.join(", ")}.`,
  descriptionTooLong: (max: number) => `Description must be at most ${max} characters.`,
  tooMany: (max: number) => `An assistant has at most ${max} webhook endpoints.`,
  enabledInvalid: "enabled must be true or false.",
  webhookNotFound: "Webhook not found.",
  deliveryNotFound: "Delivery not found.",
  /** What a delivery record says when no HTTP status came back. */
  timedOut: (seconds: number) => `No response within ${seconds} seconds.`,
  networkError: "The endpoint could not be reached.",
  redirectRefused: "The endpoint redirected to an address that is not allowed.",
  tooManyRedirects: (max: number) => `The endpoint redirected more than ${max} times.`,
  /** On the endpoint's row and in the e-mail. */
  disabledReason: (hours: number) => `Disabled: every delivery failed for ${hours} hours.`,
  /** `data.message` of the `webhook.test` event. */
  testEventMessage: "A test event from Tala: your endpoint received it.",
  /** A delivery's error when it was dropped because its endpoint was deleted or turned off before it went. */
  endpointOff: "The endpoint was turned off before this delivery was sent.",
  disabledEmailSubject: (assistantName: string) => `A webhook of ${assistantName} was disabled`,
  disabledEmailBody: (assistantName: string, url: string, hours: number, link: string) =>
    `Every delivery to ${url} failed for ${hours} hours, so Tala stopped sending to it.\n\nFix the endpoint, then turn it on again in ${assistantName}'s Webhooks: ${link}`,
} as const;

/** Teams (schemas/team.ts): workspaces, members, invitations, the audit log. Chosen for Tala. */
export const teamMessages = {
  /** 403 on an owner route: the caller is a member, but their role lacks the permission (named). */
  forbidden: (permission: string, role: string) => `Your role (${role}) does not allow this: it needs “${permission}”.`,
  /** The permissions' names in that sentence and in the dashboard. */
  permissionNames: {
    "assistants.read": "see assistants",
    "assistants.manage": "manage assistants",
    "inbox.reply": "answer in the inbox",
    "history.read": "read conversations",
    "leads.read": "read leads",
    "insights.read": "read insights",
    "qa.manage": "edit curated answers",
    "privacy.manage": "delete and export visitors' data",
    "team.manage": "manage the team",
    "team.admins": "manage admins and ownership",
    "audit.read": "read the audit log",
  } as Record<string, string>,
  roleNames: { owner: "Owner", admin: "Admin", agent: "Agent", viewer: "Viewer" } as Record<string, string>,
  workspaceNotFound: "Workspace not found, or you are not a member of it.",
  workspaceHeaderInvalid: "X-Workspace-Id must be a workspace id.",
  defaultWorkspaceName: (name: string) => `${name}'s workspace`,
  workspaceNameRequired: "Workspace name is required.",
  workspaceNameTooLong: (max: number) => `Workspace name must be at most ${max} characters.`,
  emailRequired: "E-mail is required.",
  emailInvalid: "Enter a valid email address.",
  roleInvalid: (roles: readonly string[]) => `Role must be one of: ${roles.join(", ")}.`,
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  alreadyInvited: (email: string) => `${email} already has a pending invitation. Revoke it to send a new one.`,
  cannotInviteSelf: "You are already in this workspace.",
  tooManyMembers: (max: number) => `A workspace has at most ${max} members.`,
  tooManyInvitations: (max: number) => `A workspace has at most ${max} pending invitations.`,
  invitationsThrottled: "Too many invitations sent in the last hour. Try again later.",
  invitationNotFound: "Invitation not found.",
  codeRequired: "Invitation code is required.",
  codeInvalid: "This invitation code is not valid. Check the e-mail, or ask for a new invitation.",
  codeExpired: "This invitation has expired. Ask the workspace's owner for a new one.",
  codeRevoked: "This invitation was revoked. Ask the workspace's owner for a new one.",
  codeUsed: "This invitation was already accepted.",
  acceptThrottled: "Too many wrong invitation codes. Try again in an hour.",
  wrongAccount: (email: string) => `This invitation is for ${email}. Sign in with that e-mail to accept it.`,
  emailNotVerified: "Verify your e-mail before accepting an invitation.",
  memberNotFound: "Member not found.",
  ownerRoleFixed: "The owner's role cannot be changed: transfer ownership instead.",
  cannotRemoveOwner: "The owner cannot be removed from their workspace.",
  transferTargetNotAdmin: "Ownership can only be transferred to an admin of the workspace.",
  /** 409 on DELETE /api/auth/account: an owner of a workspace with other members hands it over first. */
  transferBeforeDeleting: (workspaces: readonly string[]) =>
    `You own ${workspaces.join(", ")}, which other people work in. Transfer ownership to an admin (Team settings) before deleting your account.`,
  pageInvalid: "page must be a whole number from 1.",
  actionInvalid: (actions: readonly string[]) => `action must be one of: ${actions.join(", ")}.`,
  invitationEmailSubject: (workspace: string) => `You are invited to ${workspace} on Tala`,
  invitationEmailBody: (inviter: string, workspace: string, role: string, code: string, link: string, days: number) =>
    `${inviter} invited you to ${workspace} on Tala as ${role}.\n\nAccept the invitation: ${link}\n\nOr enter this code in Tala: ${code}\n\nThe invitation is valid for ${days} days. If you did not expect it, ignore this e-mail.`,
} as const;

/** Privacy (schemas/privacy.ts): retention, one visitor's deletion and export, the widget's notice. Chosen for Tala. */
export const privacyMessages = {
  retentionInvalid: (options: readonly number[]) => `Retention must be one of ${options.join(", ")} days, or null to keep conversations.`,
  retentionLeadsInvalid: "retentionIncludesLeads must be true or false.",
  noticeTooLong: (max: number) => `Privacy notice must be at most ${max} characters.`,
  noticeUrlTooLong: (max: number) => `Privacy policy link must be at most ${max} characters.`,
  noticeUrlInvalid: "Privacy policy link must be a full web address starting with https://.",
  visitorNotFound: "No conversation or lead of this visitor was found.",
  visitorIdInvalid: "Visitor id must be a signed visitor's id or a conversation's id.",
  conversationIdInvalid: (max: number) => `Conversation id must be 1 to ${max} characters.`,
} as const;

/** The dashboard's words for teams: the workspace switcher, the Team page, the audit log, accepting an invitation. */
export const teamUi = {
  switcher: {
    /** The button's accessible name: the workspace on screen and the caller's role in it (its visible words, after "Workspace:"). */
    prefix: "Workspace:",
    label: (workspace: string, role: string) => `Workspace: ${workspace} ${role}`,
    menuLabel: "Workspaces",
    manageTeam: "Manage team",
    removedNotice: (workspace: string) => `You are no longer a member of ${workspace}. You are back in your own workspace.`,
    switched: (workspace: string) => `Now working in ${workspace}.`,
  },
  roleHints: {
    owner: "Everything, including admins, ownership and the workspace's name.",
    admin: "Everything but managing admins and ownership.",
    agent: "Inbox, History, Leads and curated answers.",
    viewer: "Read-only: History, Insights and Leads.",
  } as Record<string, string>,
  page: {
    title: "Team",
    description: (workspace: string) => `Who works in ${workspace}, and what each person may do.`,
    loadError: "Could not load the team.",
    retry: "Try again",
    tabsLabel: "Team sections",
    membersTab: "Members",
    auditTab: "Audit log",
    yourRole: (role: string) => `Your role: ${role}`,
  },
  workspaceName: {
    title: "Workspace name",
    label: "Name",
    save: "Save name",
    saved: "Workspace name saved.",
    failed: "Could not save the workspace's name.",
  },
  members: {
    title: "Members",
    count: (n: number) => `${n} ${n === 1 ? "member" : "members"}`,
    listLabel: "Members of this workspace",
    name: "Name",
    email: "E-mail",
    role: "Role",
    joined: "Joined",
    actions: "Actions",
    you: "you",
    roleOf: (name: string) => `Role of ${name}`,
    remove: "Remove",
    removeOf: (name: string) => `Remove ${name}`,
    leave: "Leave workspace",
    roleChanged: (name: string, role: string) => `${name} is now ${role}.`,
    roleFailed: "Could not change the role.",
    removed: (name: string) => `${name} was removed from the workspace.`,
    removeFailed: "Could not remove the member.",
    left: (workspace: string) => `You left ${workspace}.`,
    leaveFailed: "Could not leave the workspace.",
    confirmRemove: {
      title: (name: string) => `Remove ${name}?`,
      description: (name: string, workspace: string) =>
        `${name} loses access to ${workspace} and its assistants at once, open pages included. What they did stays in the audit log.`,
      confirm: "Remove member",
    },
    confirmLeave: {
      title: (workspace: string) => `Leave ${workspace}?`,
      description: "You lose access to its assistants at once. To come back you need a new invitation.",
      confirm: "Leave workspace",
    },
    cancel: "Cancel",
  },
  invitations: {
    title: "Pending invitations",
    listLabel: "Pending invitations",
    empty: "No pending invitation.",
    email: "E-mail",
    role: "Role",
    expires: "Expires",
    invitedBy: (name: string) => `Invited by ${name}`,
    revoke: "Revoke",
    revokeOf: (email: string) => `Revoke the invitation of ${email}`,
    revoked: (email: string) => `The invitation of ${email} was revoked.`,
    revokeFailed: "Could not revoke the invitation.",
  },
  inviteDialog: {
    open: "Invite someone",
    title: "Invite someone",
    description: (workspace: string, days: number) =>
      `They get an e-mail with a link and a code to join ${workspace}. The invitation is valid for ${days} days.`,
    email: "E-mail",
    emailPlaceholder: "name@example.com",
    role: "Role",
    send: "Send invitation",
    cancel: "Cancel",
    sent: (email: string) => `Invitation sent to ${email}.`,
    failed: "Could not send the invitation.",
  },
  transfer: {
    title: "Transfer ownership",
    text: "The new owner gets every right, including admins and ownership; you stay as an admin.",
    noAdmins: "Ownership can only go to an admin: make someone an admin first.",
    to: "New owner",
    choose: "Choose an admin",
    open: "Transfer ownership…",
    confirmTitle: (name: string) => `Make ${name} the owner?`,
    confirmText: (name: string, workspace: string) => `${name} becomes the owner of ${workspace}; you become an admin. Only the new owner can give it back.`,
    typeToConfirm: (name: string) => `Type ${name} to confirm`,
    confirm: "Transfer ownership",
    done: (name: string) => `${name} is now the owner.`,
    failed: "Could not transfer ownership.",
  },
  audit: {
    title: "Audit log",
    description: "Who did what in this workspace, newest first. Entries are kept for a year.",
    listLabel: "Audit log entries",
    filterActor: "Person",
    anyone: "Everyone",
    filterAction: "Action",
    anyAction: "All actions",
    empty: "Nothing recorded yet.",
    emptyFiltered: "No entry matches these filters.",
    loadError: "Could not load the audit log.",
    count: (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`,
    pagination: "Audit log pages",
    pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
    previous: "Previous",
    next: "Next",
    /** The actor when Tala itself did it (retention). */
    system: "Tala",
    assistant: (name: string) => `Assistant: ${name}`,
    /** Each action's name in the filter. */
    actionNames: {
      "member.invited": "Member invited",
      "invitation.revoked": "Invitation revoked",
      "invitation.accepted": "Invitation accepted",
      "member.role_changed": "Role changed",
      "member.removed": "Member removed",
      "member.left": "Member left",
      "ownership.transferred": "Ownership transferred",
      "assistant.created": "Assistant created",
      "assistant.deleted": "Assistant deleted",
      "assistant.access_changed": "Access settings changed",
      "assistant.retention_changed": "Retention changed",
      "api_key.regenerated": "Publishable key regenerated",
      "secret_key.created": "Secret key created",
      "secret_key.revoked": "Secret key revoked",
      "identity_secret.created": "Identity secret created",
      "identity_secret.revoked": "Identity secret revoked",
      "webhook.created": "Webhook added",
      "webhook.deleted": "Webhook deleted",
      "webhook.secret_rotated": "Webhook secret rotated",
      "conversation.deleted": "Conversation deleted",
      "visitor.deleted": "Visitor's data deleted",
      "visitor.exported": "Visitor's data exported",
      "chats.exported": "Conversations exported",
      "leads.exported": "Leads exported",
    } as Record<string, string>,
    /**
     * An entry in words: who, what, to what ("Nadia removed amina@example.com"). `d` holds the
     * entry's small facts (a role from and to, counts); a missing one is simply left out.
     */
    sentences: {
      "member.invited": (who: string, target: string, role: string) => `${who} invited ${target}${role ? ` as ${role}` : ""}`,
      "invitation.revoked": (who: string, target: string) => `${who} revoked the invitation of ${target}`,
      "invitation.accepted": (who: string, target: string, role: string) => `${who} joined${role ? ` as ${role}` : ""}${target && target !== who ? ` (${target})` : ""}`,
      "member.role_changed": (who: string, target: string, from: string, to: string) =>
        `${who} changed the role of ${target}${from ? ` from ${from}` : ""}${to ? ` to ${to}` : ""}`,
      "member.removed": (who: string, target: string) => `${who} removed ${target}`,
      "member.left": (who: string) => `${who} left the workspace`,
      "ownership.transferred": (who: string, target: string) => `${who} transferred ownership to ${target}`,
      "assistant.created": (who: string, target: string) => `${who} created the assistant ${target}`,
      "assistant.deleted": (who: string, target: string) => `${who} deleted the assistant ${target}`,
      "assistant.access_changed": (who: string, target: string) => `${who} changed who may use ${target}`,
      "assistant.retention_changed": (who: string, target: string, retention: string) => `${who} set ${target} to ${retention || "its new retention"}`,
      "api_key.regenerated": (who: string, target: string) => `${who} regenerated the publishable key ${target}`,
      "secret_key.created": (who: string, target: string) => `${who} created the secret key ${target}`,
      "secret_key.revoked": (who: string, target: string) => `${who} revoked the secret key ${target}`,
      "identity_secret.created": (who: string, target: string) => `${who} created the identity secret ${target}`,
      "identity_secret.revoked": (who: string, target: string) => `${who} revoked the identity secret ${target}`,
      "webhook.created": (who: string, target: string) => `${who} added the webhook ${target}`,
      "webhook.deleted": (who: string, target: string) => `${who} deleted the webhook ${target}`,
      "webhook.secret_rotated": (who: string, target: string) => `${who} rotated the secret of the webhook ${target}`,
      "conversation.deleted": (who: string, target: string) => `${who} deleted the conversation ${target}`,
      "visitor.deleted": (who: string, target: string, count: string) => `${who} deleted the data of visitor ${target}${count ? ` (${count})` : ""}`,
      "visitor.exported": (who: string, target: string) => `${who} exported the data of visitor ${target}`,
      "chats.exported": (who: string, target: string) => `${who} exported the conversations${target ? ` of ${target}` : ""}`,
      "leads.exported": (who: string, target: string) => `${who} exported the leads${target ? ` of ${target}` : ""}`,
    },
    conversations: (n: number) => `${n} ${n === 1 ? "conversation" : "conversations"}`,
    retentionDays: (days: number | null) => (days === null ? "keep conversations" : `keep conversations ${days} days`),
  },
  invite: {
    title: "Join a workspace",
    description: "Accept the invitation you received by e-mail to work in someone's workspace.",
    signedInAs: (email: string) => `Signed in as ${email}.`,
    codeLabel: "Invitation code",
    codeHint: "From the invitation e-mail. Case, spaces and dashes do not matter.",
    fromLink: "Your invitation's code is filled in. Accept it to join the workspace with the role it gives you.",
    accept: "Accept invitation",
    accepted: (workspace: string, role: string) => `You joined ${workspace} as ${role}.`,
    failed: "Could not accept the invitation.",
    wrongAccount: "Sign out and sign in with the invited e-mail",
    verifyEmail: "Verify your e-mail",
    openWorkspace: "Open the workspace's assistants",
  },
} as const;

/** The dashboard's words for privacy: the Settings tab's Privacy group and History's delete and export. */
export const privacyUi = {
  group: {
    title: "Privacy",
    text: "How long visitors' conversations are kept, and the notice the widget shows them.",
    retentionLabel: "Keep visitors' conversations",
    retentionOption: (days: number | null) => (days === null ? "Keep" : `${days} days`),
    /** What the chosen retention does, in a sentence. */
    retentionExplain: (days: number | null, leads: boolean) =>
      days === null
        ? "Conversations are kept until you delete them."
        : `Every day, conversations with no message for ${days} days are deleted with their messages, attachments and ratings${
            leads ? ", and their leads" : "; their leads are kept"
          }. Insights' daily counts stay.`,
    retentionLeads: "Also delete their leads",
    retentionLeadsHint: "Leads captured in a deleted conversation go with it.",
    noticeLabel: "Privacy notice",
    noticeHint: "A short line under the widget's message box, e.g. how you use conversations.",
    noticePlaceholder: "Conversations are stored for 30 days to answer you.",
    urlLabel: "Privacy policy link",
    urlHint: "The widget links the notice to this page (https://…).",
    urlPlaceholder: "https://example.com/privacy",
  },
  conversation: {
    title: "Privacy",
    deleteConversation: "Delete conversation",
    confirmDeleteConversation: {
      title: "Delete this conversation?",
      description: "Its messages, attachments and rating are deleted for good. Insights' daily counts stay.",
      confirm: "Delete conversation",
    },
    conversationDeleted: "Conversation deleted.",
    deleteConversationFailed: "Could not delete the conversation.",
    exportVisitor: "Export visitor's data",
    exported: "Visitor's data exported.",
    exportFailed: "Could not export the visitor's data.",
    exportFileName: (visitorId: string) => `visitor-${visitorId.replace(/[^\w.-]+/g, "_").slice(0, 80)}.json`,
    deleteVisitor: "Delete visitor's data",
    confirmDeleteVisitor: {
      title: "Delete everything of this visitor?",
      description: (who: string, conversations: number | null, leads: boolean) =>
        `${who}: ${
          conversations === null ? "every conversation" : `${conversations} ${conversations === 1 ? "conversation" : "conversations"}`
        }${leads ? " and their leads" : " and its lead"} will be deleted for good, attachments included.`,
      confirm: "Delete visitor's data",
    },
    visitorDeleted: (c: { deletedConversations: number; deletedMessages: number; deletedLeads: number; deletedFiles: number }) =>
      `Deleted ${c.deletedConversations} ${c.deletedConversations === 1 ? "conversation" : "conversations"}, ${c.deletedMessages} ${
        c.deletedMessages === 1 ? "message" : "messages"
      }, ${c.deletedLeads} ${c.deletedLeads === 1 ? "lead" : "leads"} and ${c.deletedFiles} ${c.deletedFiles === 1 ? "file" : "files"}.`,
    deleteVisitorFailed: "Could not delete the visitor's data.",
    signedVisitor: (name: string) => `Signed-in visitor ${name}`,
    anonymousVisitor: "This anonymous visitor",
    anonymousHint: "An anonymous visitor is known by this conversation only.",
    cancel: "Cancel",
  },
} as const;
