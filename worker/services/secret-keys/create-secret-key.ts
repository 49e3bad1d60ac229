import { eq, getTableName, sql } from "drizzle-orm";
import { assistantAudit, auditInsertWhen } from "../team/audit";
import { assistantSecretKey, secretKeyMessages, type CreatedSecretKeyResponse } from "../../../contract";
import { generateSecretKey, hashApiKey, maskSecretKey } from "../../crypto/api-key";
import { publicAssistants as A, assistantSecretKeys as T } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { nextUpdatedAt } from "../public-assistants/to-public-assistant";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";
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
 * The assistant's own object holds the keys in use (its copy, which /v1 checks): it is told
 * before the write and refreshed after it, as for any owner change (revoke-widget-sockets.ts),
 * and the assistant's `updatedAt` moves with the key, so no slower read puts back an older list.
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
  const token = await assistantChanging({ ctx, input });
  let changes: number;
  try {
    // One D1 batch (drizzle cannot batch a raw statement with parameters): the capped INSERT and the assistant's new updatedAt.
    const d1 = ctx.env.DB;
    const keysTable = getTableName(T);
    const bump = ctx.db.update(A).set({ updatedAt: nextUpdatedAt() }).where(eq(A.id, assistant.id)).toSQL();
    // Recorded only when the capped INSERT landed; the key by its name and mask, never the key.
    const audit = auditInsertWhen(
      ctx,
      assistantAudit(ctx, assistant, "secret_key.created", { target: `${row.name} (${row.masked})` }),
      sql`EXISTS (SELECT 1 FROM ${T} WHERE id = ${row.id})`,
    ).toSQL();
    const [inserted] = await d1.batch([
      d1
        .prepare(
          `INSERT INTO ${keysTable} (${T.id.name}, ${T.assistantId.name}, ${T.name.name}, ${T.keyHash.name}, ${T.masked.name}, ${T.createdAt.name})
           SELECT ?1, ?2, ?3, ?4, ?5, ?6
           WHERE (SELECT COUNT(*) FROM ${keysTable} WHERE ${T.assistantId.name} = ?2 AND ${T.revokedAt.name} IS NULL) < ?7`,
        )
        .bind(row.id, assistant.id, row.name, keyHash, row.masked, row.createdAt, assistantSecretKey.maxPerAssistant),
      d1.prepare(bump.sql).bind(...bump.params),
      d1.prepare(audit.sql).bind(...audit.params),
    ]);
    changes = inserted?.meta.changes ?? 0;
  } catch (error) {
    // The assistant was deleted between the owner check and the insert.
    if (isForeignKeyViolation(error)) throw notFound();
    throw error;
  } finally {
    // Whatever the write did, the object reads D1 again (this write's marker goes).
    await revokeWidgetSockets({ ctx, input: { assistantId: assistant.id, token } });
  }
  if (!changes) throw new AppError("CONFLICT", secretKeyMessages.tooManyKeys(assistantSecretKey.maxPerAssistant));
  return { secretKey: toSecretKey(row), key };
}
