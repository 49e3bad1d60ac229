import { and, eq } from "drizzle-orm";
import type { PublicAssistant, PublicAssistantChanges } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "./find-public-assistant";
import { getPublicAssistant } from "./get-public-assistant";
import { mergeConfig, mergeIntegration, readConfig, readIntegration } from "./to-public-assistant";

/**
 * Merges the body over the assistant's current settings (config, customization and integration
 * field by field) and saves it. The API key does not change.
 */
export async function updatePublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; changes: PublicAssistantChanges };
}): Promise<PublicAssistant> {
  const current = await requirePublicAssistant({ ctx, input });
  const { changes } = input;
  const set: Partial<typeof publicAssistants.$inferInsert> = { updatedAt: Math.max(Date.now(), current.updatedAt) };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.isActive !== undefined) set.isActive = changes.isActive;
  if (changes.instructions !== undefined) set.instructions = changes.instructions;
  if (changes.showSources !== undefined) set.showSources = changes.showSources;
  if (changes.allowedOrigins !== undefined) set.allowedOrigins = JSON.stringify(changes.allowedOrigins);
  if (changes.config !== undefined) set.config = JSON.stringify(mergeConfig(readConfig(current.config), changes.config));
  if (changes.integration !== undefined) {
    set.integration = JSON.stringify(mergeIntegration(readIntegration(current.integration), changes.integration));
  }
  const updated = await ctx.db
    .update(publicAssistants)
    .set(set)
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, input.userId)))
    .returning({ id: publicAssistants.id });
  // Deleted between the read and the write.
  if (updated.length === 0) throw notFound();
  return getPublicAssistant({ ctx, input });
}
