import {
  acceptedExtensions,
  auth,
  guestQuota,
  guestSession,
  publicAssistantLimits,
  storageKeys,
  throttles,
  upload,
} from "../../contract";

const minutes = (ms: number) => Math.round(ms / 60_000);
const days = (ms: number) => Math.round(ms / 86_400_000);

/**
 * The numbers the FAQ, privacy policy and terms quote, as {{name}} placeholders, taken from the
 * contract so that a changed limit or lifetime changes the published text with it.
 */
export const policyValues: Record<string, string | number> = {
  codeTtlMinutes: minutes(auth.codeTtlMs),
  codeMaxAttempts: auth.codeMaxAttempts,
  tokenTtlDays: days(auth.tokenTtlMs),
  passwordMinLength: auth.passwordMinLength,
  loginThrottleMinutes: minutes(throttles.login.windowMs),
  guestIdleHours: Math.round(guestSession.idleTtlMs / 3_600_000),
  longestCounterHours: Math.round(Math.max(guestQuota.windowMs, ...Object.values(throttles).map((t) => t.windowMs)) / 3_600_000),
  maxUploadMb: upload.maxFileBytes / 1024 / 1024,
  acceptedTypes: acceptedExtensions.join(", "),
  perSessionMin: publicAssistantLimits.maxMessagesPerSession.min,
  perSessionMax: publicAssistantLimits.maxMessagesPerSession.max,
  perSessionDefault: publicAssistantLimits.maxMessagesPerSession.default,
  dailyLimitMin: publicAssistantLimits.dailyLimit.min,
  dailyLimitMax: publicAssistantLimits.dailyLimit.max,
  dailyLimitDefault: publicAssistantLimits.dailyLimit.default,
  themeKey: storageKeys.theme,
  tokenKey: storageKeys.token,
  firebaseTokenKey: storageKeys.firebaseToken,
  guestKey: storageKeys.guestSessionId,
  returnToKey: storageKeys.returnTo,
};
