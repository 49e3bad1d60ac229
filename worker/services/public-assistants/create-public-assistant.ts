import { publicAssistantDefaults, type PublicAssistant, type PublicAssistantChanges } from "../../../contract";
import { generateApiKey, hashApiKey, maskApiKey } from "../../crypto/api-key";
import { publicAssistants } from "../../db/schema";
import { writeBatch } from "../../db/client";
import type { ServiceContext } from "../context";
import { assistantAudit, auditInsert } from "../team/audit";
import { encryptApiKey } from "./api-key-encryption";
import { defaultConfig, defaultIntegration, mergeConfig, mergeIntegration, toPublicAssistant } from "./to-public-assistant";

/**
 * Creates an assistant with a fresh API key; anything the body leaves out takes the spec's
 * defaults (section 3). The key is stored only encrypted, hashed and masked. Throws 503 when
 * the server has no encryption secret (production without ENCRYPTION_KEY).
 */
export async function createPublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; body: PublicAssistantChanges };
}): Promise<PublicAssistant> {
  const { body } = input;
  const id = crypto.randomUUID();
  const apiKey = generateApiKey();
  const now = Date.now();
  const row = {
    id,
    userId: input.userId,
    name: body.name ?? publicAssistantDefaults.name,
    description: body.description ?? publicAssistantDefaults.description,
    isActive: body.isActive ?? publicAssistantDefaults.isActive,
    apiKeyHash: await hashApiKey(apiKey),
    apiKeyEncrypted: await encryptApiKey(ctx.env, id, apiKey),
    apiKeyMasked: maskApiKey(apiKey),
    config: JSON.stringify(mergeConfig(defaultConfig(), body.config)),
    integration: JSON.stringify(mergeIntegration(defaultIntegration(), body.integration)),
    instructions: body.instructions ?? "",
    allowedOrigins: JSON.stringify(body.allowedOrigins ?? []),
    showSources: body.showSources ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await writeBatch(ctx.db, [ctx.db.insert(publicAssistants).values(row), auditInsert(ctx, assistantAudit(ctx, row, "assistant.created", { target: row.name }))]);
  return toPublicAssistant(row, [], 0);
}
