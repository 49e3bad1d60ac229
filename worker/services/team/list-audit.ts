import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import { teamLimits, type AuditAction, type AuditEntry, type AuditResponse } from "../../../contract";
import { auditLog } from "../../db/schema";
import type { RequestAccess, ServiceContext } from "../context";

type Details = AuditEntry["details"];

function readDetails(json: string): Details {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const out: Details = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * GET /api/team/audit?page=&actor=&action=: the workspace's entries newest first,
 * `auditPageSize` a page, filtered by who did it (a user id) and what. Entries past
 * `auditRetentionMs` are not shown even before the daily pass deletes them.
 */
export async function listAudit({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { access: RequestAccess; page: number; actor?: string | undefined; action?: AuditAction | undefined };
}): Promise<AuditResponse> {
  const size = teamLimits.auditPageSize;
  const where: SQL[] = [eq(auditLog.workspaceId, input.access.workspaceId), sql`${auditLog.at} >= ${Date.now() - teamLimits.auditRetentionMs}`];
  if (input.actor) where.push(eq(auditLog.actorId, input.actor));
  if (input.action) where.push(eq(auditLog.action, input.action));
  const [rows, counted] = await ctx.db.batch([
    ctx.db
      .select()
      .from(auditLog)
      .where(and(...where))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(size)
      .offset((input.page - 1) * size),
    ctx.db.select({ n: sql<number>`count(*)` }).from(auditLog).where(and(...where)),
  ]);
  const total = Number(counted[0]?.n ?? 0);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actorId === null ? null : { userId: r.actorId, email: r.actorEmail, name: r.actorName },
      action: r.action as AuditAction,
      assistant: r.assistantId === null ? null : { id: r.assistantId, name: r.assistantName },
      target: r.target,
      details: readDetails(r.details),
    })),
    total,
    page: input.page,
    totalPages: Math.max(1, Math.ceil(total / size)),
  };
}

/** Rows deleted per statement, and statements per pass: a pass stays short whatever the backlog. */
const PRUNE_BATCH = 500;
const PRUNE_BATCHES = 20;

/**
 * The daily pass (worker/index.ts `scheduled`): deletes entries older than `auditRetentionMs`,
 * at most `PRUNE_BATCH` × `PRUNE_BATCHES` a run (a larger backlog goes over the next days).
 * Returns how many went.
 */
export async function pruneAudit({ ctx, input = {} }: { ctx: ServiceContext; input?: { now?: number } }): Promise<number> {
  const cutoff = (input.now ?? Date.now()) - teamLimits.auditRetentionMs;
  let deleted = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const gone = await ctx.db
      .delete(auditLog)
      .where(sql`${auditLog.id} IN (SELECT id FROM ${auditLog} WHERE ${lt(auditLog.at, cutoff)} LIMIT ${PRUNE_BATCH})`)
      .returning({ id: auditLog.id });
    deleted += gone.length;
    if (gone.length < PRUNE_BATCH) break;
  }
  return deleted;
}
