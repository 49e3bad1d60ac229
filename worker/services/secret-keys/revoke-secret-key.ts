import { and, eq, isNull } from "drizzle-orm";
import { assistantSecretKeys } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * DELETE …/secret-keys/:keyId: the key is refused from the next request (every call reads the
 * key's row; nothing caches it). Another owner's, another assistant's, an unknown or an already
 * revoked key is a 404.
 */
export async function revokeSecretKey({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; keyId: string };
}): Promise<void> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const result = await ctx.db
    .update(assistantSecretKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(assistantSecretKeys.id, input.keyId), eq(assistantSecretKeys.assistantId, assistant.id), isNull(assistantSecretKeys.revokedAt)));
  if (!result.meta.changes) throw notFound();
}
