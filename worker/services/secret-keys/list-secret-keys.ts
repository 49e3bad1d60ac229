import { and, desc, eq, isNull } from "drizzle-orm";
import type { SecretKey } from "../../../contract";
import { assistantSecretKeys } from "../../db/schema";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { toSecretKey } from "./secret-key-rows";

/** GET …/secret-keys: the assistant's keys in use, newest first (404 for another owner's assistant). */
export async function listSecretKeys({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string } }): Promise<SecretKey[]> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const rows = await ctx.db
    .select()
    .from(assistantSecretKeys)
    .where(and(eq(assistantSecretKeys.assistantId, assistant.id), isNull(assistantSecretKeys.revokedAt)))
    .orderBy(desc(assistantSecretKeys.createdAt), desc(assistantSecretKeys.id));
  return rows.map(toSecretKey);
}
