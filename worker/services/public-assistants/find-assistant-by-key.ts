import { eq } from "drizzle-orm";
import { hashApiKey, isApiKeyShaped } from "../../crypto/api-key";
import { publicAssistants } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toPublicAssistantRecord, type PublicAssistantRecord } from "./to-public-assistant";

/**
 * The assistant an API key belongs to, or null for an unknown, malformed or replaced key. Looks
 * up the key's SHA-256, never the key itself. Inactive assistants are returned too (check
 * `isActive`): the caller decides what a visitor of a switched-off assistant sees.
 * For the widget, the HTTP widget API and the OpenAI-compatible endpoint.
 */
export async function findAssistantByKey(ctx: ServiceContext, key: string): Promise<PublicAssistantRecord | null> {
  const candidate = key.trim();
  if (!isApiKeyShaped(candidate)) return null;
  const [row] = await ctx.db
    .select()
    .from(publicAssistants)
    .where(eq(publicAssistants.apiKeyHash, await hashApiKey(candidate)))
    .limit(1);
  return row ? toPublicAssistantRecord(row) : null;
}
