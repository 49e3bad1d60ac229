import { sql } from "drizzle-orm";
import { assistantSecretKey, secretKeyMessages, type CreatedSecretKeyResponse } from "../../../contract";
import { generateSecretKey, hashApiKey, maskSecretKey } from "../../crypto/api-key";
import { assistantSecretKeys as T } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { toSecretKey } from "./secret-key-rows";

const isForeignKeyViolation = (error: unknown) => {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (/FOREIGN KEY constraint failed/i.test(e.message)) return true;
  }
  return false;
};

/**
 * POST …/secret-keys: a new secret key for the owner's assistant. The answer is the only place
 * the key's value ever appears; Tala keeps its SHA-256 and a masked form. The cap on keys in use
 * is checked inside the INSERT itself (one statement), so simultaneous creations cannot pass it.
 */
export async function createSecretKey({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; name: string };
}): Promise<CreatedSecretKeyResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const key = generateSecretKey();
  const row = { id: crypto.randomUUID(), name: input.name, masked: maskSecretKey(key), createdAt: Date.now(), lastUsedAt: null };
  const keyHash = await hashApiKey(key);
  let changes: number;
  try {
    const result = await ctx.db.run(sql`
      INSERT INTO ${T} (${sql.identifier(T.id.name)}, ${sql.identifier(T.assistantId.name)}, ${sql.identifier(T.name.name)},
        ${sql.identifier(T.keyHash.name)}, ${sql.identifier(T.masked.name)}, ${sql.identifier(T.createdAt.name)})
      SELECT ${row.id}, ${assistant.id}, ${row.name}, ${keyHash}, ${row.masked}, ${row.createdAt}
      WHERE (SELECT COUNT(*) FROM ${T} WHERE ${T.assistantId} = ${assistant.id} AND ${T.revokedAt} IS NULL) < ${assistantSecretKey.maxPerAssistant}`);
    changes = result.meta.changes ?? 0;
  } catch (error) {
    // The assistant was deleted between the owner check and the insert.
    if (isForeignKeyViolation(error)) throw notFound();
    throw error;
  }
  if (!changes) throw new AppError("CONFLICT", secretKeyMessages.tooManyKeys(assistantSecretKey.maxPerAssistant));
  return { secretKey: toSecretKey(row), key };
}
