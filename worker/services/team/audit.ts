import { sql, type SQL } from "drizzle-orm";
import type { AuditAction, User } from "../../../contract";
import { auditLog } from "../../db/schema";
import type { ServiceContext } from "../context";

/** Who did it, as the audit log keeps them (their e-mail and name as they were then). */
export interface AuditActor {
  userId: string;
  email: string;
  name: string;
}

export const auditActor = (user: Pick<User, "id" | "email" | "firstName" | "lastName">): AuditActor => ({
  userId: user.id,
  email: user.email,
  name: `${user.firstName} ${user.lastName}`.trim(),
});

export interface AuditInput {
  workspaceId: string;
  /** null: Tala itself (the retention pass). */
  actor: AuditActor | null;
  action: AuditAction;
  assistant?: { id: string; name: string } | null;
  /** What it was done to, in words: an e-mail, a key's name, a conversation's id. Never a secret. */
  target?: string;
  details?: Record<string, string | number | boolean | null>;
  at?: number;
}

const MAX_TARGET_CHARS = 300;
const MAX_DETAILS_CHARS = 2_000;

/** The row `entry` becomes (bounded: a long target or details are cut, never refused). */
export function auditRow(entry: AuditInput) {
  const details = JSON.stringify(entry.details ?? {});
  return {
    id: crypto.randomUUID(),
    workspaceId: entry.workspaceId,
    at: entry.at ?? Date.now(),
    actorId: entry.actor?.userId ?? null,
    actorEmail: entry.actor?.email ?? "",
    actorName: entry.actor?.name ?? "",
    action: entry.action,
    assistantId: entry.assistant?.id ?? null,
    assistantName: entry.assistant?.name ?? "",
    target: (entry.target ?? "").slice(0, MAX_TARGET_CHARS),
    details: details.length <= MAX_DETAILS_CHARS ? details : "{}",
  };
}

/** The insert of `entry`, to batch with the write it records (one round trip, both or neither). */
export const auditInsert = (ctx: ServiceContext, entry: AuditInput) => ctx.db.insert(auditLog).values(auditRow(entry));

/**
 * The insert of `entry` for a batch whose write may change nothing (a conditional UPDATE, a
 * capped INSERT): written only when `condition` holds once the write ran. `target` may be SQL
 * reading the row the write touched (a key's name and mask).
 */
export function auditInsertWhen(ctx: ServiceContext, entry: AuditInput, condition: SQL, target?: SQL) {
  const r = auditRow(entry);
  return ctx.db
    .insert(auditLog)
    .select(
      sql`SELECT ${r.id}, ${r.workspaceId}, ${r.at}, ${r.actorId}, ${r.actorEmail}, ${r.actorName}, ${r.action}, ${r.assistantId}, ${r.assistantName}, ${target ?? r.target}, ${r.details} WHERE ${condition}`,
    );
}

/** The signed-in user a guarded request acts for (http/team-guard.ts); null for a direct caller (a test, an object). */
export const requestActor = (ctx: ServiceContext): AuditActor | null => (ctx.access ? auditActor(ctx.access.user) : null);

/** An entry about `assistant`, in its workspace (its `user_id`), by the request's user. */
export const assistantAudit = (
  ctx: ServiceContext,
  assistant: { id: string; name: string; userId: string },
  action: AuditAction,
  rest: Pick<AuditInput, "target" | "details"> = {},
): AuditInput => ({ workspaceId: assistant.userId, actor: requestActor(ctx), action, assistant: { id: assistant.id, name: assistant.name }, ...rest });

/**
 * Records `entry` after the change it describes already happened (a deletion in an object, an
 * export): a failure to write is logged, never thrown, as the change cannot be undone.
 */
export async function recordAudit(ctx: ServiceContext, entry: AuditInput): Promise<void> {
  try {
    await auditInsert(ctx, entry);
  } catch (error) {
    console.error(JSON.stringify({ event: "audit-write-failed", action: entry.action, workspaceId: entry.workspaceId, error: String(error) }));
  }
}
