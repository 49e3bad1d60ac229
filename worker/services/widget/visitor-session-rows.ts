import { and, asc, desc, eq, sql } from "drizzle-orm";
import { widget, widgetMessages, type WidgetMessage, type WidgetSource } from "../../../contract";
import { writeBatch } from "../../db/client";
import { visitorMessages, visitorSessions } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { ServiceContext } from "../context";
import { toVisitorMessage } from "../visitor-sessions/to-visitor-session";

export type VisitorSessionRow = typeof visitorSessions.$inferSelect;
type MessageRow = typeof visitorMessages.$inferSelect;

/**
 * A session lives `widget.sessionCounterWindowMs` from its start: as long as its message counter.
 * An older one is not resumed or answered (the widget starts a new conversation).
 */
export const isSessionOpen = (row: Pick<VisitorSessionRow, "startedAt">, now = Date.now()) =>
  now - row.startedAt < widget.sessionCounterWindowMs;

/** The assistant's open session with this id, or null (unknown, another assistant's, closed). */
export async function findVisitorSession(ctx: ServiceContext, input: { assistantId: string; sessionId: string }): Promise<VisitorSessionRow | null> {
  const [row] = await ctx.db
    .select()
    .from(visitorSessions)
    .where(and(eq(visitorSessions.id, input.sessionId), eq(visitorSessions.assistantId, input.assistantId)))
    .limit(1);
  return row && isSessionOpen(row) ? row : null;
}

/** As findVisitorSession; a missing session is a 404 with the widget's message. */
export async function requireVisitorSession(ctx: ServiceContext, input: { assistantId: string; sessionId: string }): Promise<VisitorSessionRow> {
  const row = await findVisitorSession(ctx, input);
  if (!row) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  return row;
}

/** A stored visitor message in the widget's shape; sources only when the owner shows them. */
export function toWidgetMessage(row: MessageRow, showSources: boolean): WidgetMessage {
  const stored = toVisitorMessage(row);
  const sources = (stored.sources ?? []).map((s) => ({ fileId: s.fileId, name: s.name, excerpt: s.excerpt ?? "" }));
  return {
    id: row.id,
    chatId: row.sessionId,
    role: row.role,
    content: { type: "text", data: row.content },
    files: stored.files,
    timestamp: row.createdAt,
    status: "complete",
    error: null,
    ...(showSources && row.role === "assistant" && sources.length ? { sources } : {}),
  };
}

/** The session's messages, oldest first (all of them, or the last `limit`). */
export async function listSessionMessages(ctx: ServiceContext, sessionId: string, limit?: number): Promise<MessageRow[]> {
  if (limit === undefined) {
    return ctx.db.select().from(visitorMessages).where(eq(visitorMessages.sessionId, sessionId)).orderBy(asc(visitorMessages.createdAt), asc(visitorMessages.id));
  }
  const rows = await ctx.db
    .select()
    .from(visitorMessages)
    .where(eq(visitorMessages.sessionId, sessionId))
    .orderBy(desc(visitorMessages.createdAt), desc(visitorMessages.id))
    .limit(limit);
  return rows.reverse();
}

export interface NewVisitorMessage {
  /** Chosen by the caller when frames already named it (the answer's `thinking`). */
  id?: string;
  sessionId: string;
  role: "user" | "assistant";
  content: string;
  files: { name: string }[];
  sources: WidgetSource[];
  at: number;
}

/**
 * Saves one message and moves the session's counters (message_count, last_message_at) in one
 * batch, so the owner's history never shows a message its session does not count.
 */
export async function saveVisitorMessage(ctx: ServiceContext, input: NewVisitorMessage): Promise<MessageRow> {
  const row: MessageRow = {
    id: input.id ?? crypto.randomUUID(),
    sessionId: input.sessionId,
    role: input.role,
    contentType: "text",
    content: input.content,
    files: JSON.stringify(input.files),
    sources: JSON.stringify(input.sources),
    createdAt: input.at,
  };
  await writeBatch(ctx.db, [
    ctx.db.insert(visitorMessages).values(row),
    ctx.db
      .update(visitorSessions)
      .set({
        messageCount: sql`${visitorSessions.messageCount} + 1`,
        lastMessageAt: sql`max(coalesce(${visitorSessions.lastMessageAt}, 0), ${input.at})`,
      })
      .where(eq(visitorSessions.id, input.sessionId)),
  ]);
  return row;
}
