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
  debugErrorTitle: "Debug Error",
  debugFailed: "Failed to run debug",
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
  debugTitle: "Debug Information",
  debugStats: (total: number, assistant: number) =>
    `Total chats in database: ${total}. This assistant's chats: ${assistant}.`,
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
  getStarted: "Get Started - It's Free",
  signIn: "Sign In",
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
  internal: "Something went wrong on our side. Please try again.",
  emailSendFailed: "We could not send the email right now. Please try again in a minute.",
} as const;
