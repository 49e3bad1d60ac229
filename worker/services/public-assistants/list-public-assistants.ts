import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { KnowledgeFile, PublicAssistant } from "../../../contract";
import { knowledgeFiles, publicAssistants, visitorSessions } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toKnowledgeFile, toPublicAssistant } from "./to-public-assistant";

/**
 * The owner's assistants (newest first) with their files and session counts, in one D1 batch of
 * three queries. Files and counts are joined on the owner rather than listed by id, so the number
 * of assistants never meets D1's bound-parameter limit. With `assistantId`, that one only.
 */
export async function loadPublicAssistants(ctx: ServiceContext, userId: string, assistantId?: string): Promise<PublicAssistant[]> {
  const owned: SQL[] = [eq(publicAssistants.userId, userId)];
  if (assistantId) owned.push(eq(publicAssistants.id, assistantId));
  const where = and(...owned);
  const [rows, files, sessions] = await ctx.db.batch([
    ctx.db.select().from(publicAssistants).where(where).orderBy(desc(publicAssistants.createdAt), desc(publicAssistants.id)),
    ctx.db
      .select({
        assistantId: knowledgeFiles.assistantId,
        id: knowledgeFiles.id,
        name: knowledgeFiles.name,
        size: knowledgeFiles.size,
        uploadedAt: knowledgeFiles.uploadedAt,
        status: knowledgeFiles.status,
        error: knowledgeFiles.error,
        chunkCount: knowledgeFiles.chunkCount,
      })
      .from(knowledgeFiles)
      .innerJoin(publicAssistants, eq(knowledgeFiles.assistantId, publicAssistants.id))
      .where(where)
      .orderBy(desc(knowledgeFiles.uploadedAt), desc(knowledgeFiles.id)),
    ctx.db
      .select({ assistantId: visitorSessions.assistantId, total: count() })
      .from(visitorSessions)
      .innerJoin(publicAssistants, eq(visitorSessions.assistantId, publicAssistants.id))
      .where(where)
      .groupBy(visitorSessions.assistantId),
  ]);
  const filesByAssistant = new Map<string, KnowledgeFile[]>();
  for (const file of files) {
    const list = filesByAssistant.get(file.assistantId) ?? [];
    list.push(toKnowledgeFile(file));
    filesByAssistant.set(file.assistantId, list);
  }
  const sessionCounts = new Map(sessions.map((s) => [s.assistantId, Number(s.total)]));
  return rows.map((row) => toPublicAssistant(row, filesByAssistant.get(row.id) ?? [], sessionCounts.get(row.id) ?? 0));
}

/** GET /api/public-assistants: the owner's assistants, newest first, keys masked. */
export async function listPublicAssistants({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<PublicAssistant[]> {
  return loadPublicAssistants(ctx, input.userId);
}
