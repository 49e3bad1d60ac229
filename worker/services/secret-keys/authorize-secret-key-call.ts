import { and, eq, isNull, lt, or } from "drizzle-orm";
import { assistantSecretKey, normalizeOrigin, openAiCompatMessages } from "../../../contract";
import { hashApiKey, isSecretKeyShaped } from "../../crypto/api-key";
import { assistantSecretKeys, publicAssistants } from "../../db/schema";
import { AppError, unauthorized } from "../../http/errors";
import { afterResponse, type ServiceContext } from "../context";
import { toPublicAssistantRecord, type PublicAssistantRecord } from "../public-assistants/to-public-assistant";
import { OriginNotAllowedError, originAllowed } from "../widget/authorize-widget-call";

export interface SecretKeyCaller {
  assistant: PublicAssistantRecord;
  secretKey: { id: string; lastUsedAt: number | null };
}

/** A /v1 caller's key before any lookup: its hash and the caller's normalised Origin ("" for a server). 401 when it is not shaped like a secret key. */
export async function presentedSecretKey(input: { key: string; origin: string | undefined }): Promise<{ keyHash: string; origin: string }> {
  if (!isSecretKeyShaped(input.key)) throw unauthorized(openAiCompatMessages.invalidKey);
  return { keyHash: await hashApiKey(input.key), origin: input.origin ? (normalizeOrigin(input.origin) ?? input.origin) : "" };
}

/**
 * Who may call the OpenAI-compatible API: a secret key in use (unknown or revoked → 401), of an
 * active assistant (403), read from D1. The route reads it once per isolate and key
 * (secret-key-directory.ts): the assistant's own object checks the key against its copy on every
 * call, and a revoke settles that copy before it answers, so a revoked key is refused from the
 * next request either way. A publishable key is refused by the route before this (its own 401 message).
 *
 * Origin: server-side callers send none. A browser's Origin must be on the assistant's allowlist
 * when it has one (the same rule as before secret keys existed); without an allowlist it is
 * allowed, as OpenAI allows it. Secret keys are not meant for pages either way: the dashboard
 * and the docs say so.
 */
export async function authorizeSecretKeyCall({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { key: string; origin: string | undefined };
}): Promise<SecretKeyCaller> {
  const { keyHash, origin } = await presentedSecretKey(input);
  const [row] = await ctx.db
    .select({ assistant: publicAssistants, keyId: assistantSecretKeys.id, lastUsedAt: assistantSecretKeys.lastUsedAt })
    .from(assistantSecretKeys)
    .innerJoin(publicAssistants, eq(publicAssistants.id, assistantSecretKeys.assistantId))
    .where(and(eq(assistantSecretKeys.keyHash, keyHash), isNull(assistantSecretKeys.revokedAt)))
    .limit(1);
  if (!row) throw unauthorized(openAiCompatMessages.invalidKey);
  const assistant = toPublicAssistantRecord(row.assistant);
  if (!assistant.isActive) throw new AppError("FORBIDDEN", openAiCompatMessages.unavailable);
  if (!originAllowed(assistant, origin, "when-present")) throw new OriginNotAllowedError();
  return { assistant, secretKey: { id: row.keyId, lastUsedAt: row.lastUsedAt } };
}

/**
 * Records that the key was used, at most once per `assistantSecretKey.lastUsedIntervalMs` (the
 * condition is in the UPDATE, so simultaneous calls write once), off the response path
 * (`afterResponse`: the request's waitUntil; a failed write is logged, never thrown). No write at
 * all when the time known (`secretKey.lastUsedAt`, which this moves: the isolate's
 * secret-key-directory.ts entry) is recent enough.
 */
export function touchSecretKey(ctx: ServiceContext, secretKey: SecretKeyCaller["secretKey"], now = Date.now()): Promise<void> {
  const staleBefore = now - assistantSecretKey.lastUsedIntervalMs;
  if (secretKey.lastUsedAt !== null && secretKey.lastUsedAt >= staleBefore) return Promise.resolve();
  secretKey.lastUsedAt = now;
  return afterResponse(
    ctx,
    "secret-key-touch-failed",
    () =>
      ctx.db
        .update(assistantSecretKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(assistantSecretKeys.id, secretKey.id), or(isNull(assistantSecretKeys.lastUsedAt), lt(assistantSecretKeys.lastUsedAt, staleBefore)))),
    { keyId: secretKey.id },
  );
}
