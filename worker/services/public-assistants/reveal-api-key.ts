import type { ServiceContext } from "../context";
import { decryptApiKey } from "./api-key-encryption";
import { requirePublicAssistant } from "./find-public-assistant";

/** The assistant's full API key, decrypted for its owner (GET …/raw-api-key). */
export async function revealApiKey({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string } }): Promise<string> {
  const row = await requirePublicAssistant({ ctx, input });
  return decryptApiKey(ctx.env, row.id, row.apiKeyEncrypted);
}
