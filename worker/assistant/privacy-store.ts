import { insightsLimits, type VisitorDeletion } from "../../contract";
import { toLead, type LeadCursor, type SavedLead } from "./lead-store";

/**
 * Deleting visitors' conversations in the assistant's own object's SQLite, and finding one
 * visitor's (privacy: schemas/privacy.ts). Synchronous, like every store of the object; no import
 * from `cloudflare:workers`.
 *
 * A conversation's deletion (`deleteConversations`, one transaction) removes its session row (its
 * handoff state is columns of it), its messages (with their ratings and the names of the files the
 * visitor attached: the widget sends a file's text to the model and stores only its name, so
 * nothing of a visitor is in R2), its inbox watch leases, the webhook events about it not yet
 * sent (outbox rows, kept bodies and their deliveries), the links Insights keep to it (a question's
 * conversations; a first reply's duration stays, unlinked), and, when asked, its leads. Day counts
 * stay: they hold no personal data. A question only the deleted conversations asked goes with its
 * day counts (its wording is what a visitor typed); one others asked too stays, unlinked from them.
 *
 * Lists of ids go to SQLite as one JSON parameter (`json_each`), never one parameter per id.
 * Every lookup is by index: sessions by last activity (0001), by signed visitor (0007), messages
 * and leads by session (0001, 0016), first replies and leads by visitor (0018).
 */

type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;

/** What a deletion removed (the shape of `visitorDeletion`). */
export type DeletionCounts = VisitorDeletion;

export const noDeletion = (): DeletionCounts => ({ deletedConversations: 0, deletedMessages: 0, deletedLeads: 0, deletedFiles: 0 });

export function addCounts(a: DeletionCounts, b: DeletionCounts): DeletionCounts {
  return {
    deletedConversations: a.deletedConversations + b.deletedConversations,
    deletedMessages: a.deletedMessages + b.deletedMessages,
    deletedLeads: a.deletedLeads + b.deletedLeads,
    deletedFiles: a.deletedFiles + b.deletedFiles,
  };
}

/**
 * Who `visitorId` names: a signed visitor (some conversation or lead carries it as their `sub`),
 * else the anonymous visitor of the conversation with that id.
 */
export type VisitorKind = "signed" | "anonymous";

/** The export's cursor over a visitor's conversations (oldest first). */
export type SessionCursor = { startedAt: number; id: string };

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const IDS = "(SELECT value FROM json_each(?))";
/** Whether a stored webhook body is about one of the listed conversations (every event's `data.sessionId`). */
const ABOUT = `json_valid(body) AND json_extract(body, '$.data.sessionId') IN ${IDS}`;
/** A JSON list of conversation ids without the listed ones (Insights' links). */
const WITHOUT = (column: string) => `(SELECT json_group_array(value) FROM json_each(${column}) WHERE value NOT IN ${IDS})`;
const MENTIONS = (column: string) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN ${IDS})`;

export class PrivacyStore {
  constructor(private readonly storage: SqlHost) {}

  private get sql() {
    return this.storage.sql;
  }

  /** Up to `limit` conversations whose last activity (last message, else start) is before `cutoff`, least recent first. */
  inactiveBefore(cutoff: number, limit: number): string[] {
    return this.sql
      .exec("SELECT id FROM visitor_sessions WHERE coalesce(last_message_at, started_at) < ? ORDER BY coalesce(last_message_at, started_at), id LIMIT ?", cutoff, limit)
      .toArray()
      .map((r) => String(r.id));
  }

  /** Whether `visitorId` is a signed visitor's `sub` here, or else an anonymous conversation's id. */
  visitorKind(visitorId: string): VisitorKind {
    const signed =
      this.sql.exec("SELECT 1 FROM visitor_sessions WHERE visitor_sub = ? LIMIT 1", visitorId).toArray().length > 0 ||
      this.sql.exec("SELECT 1 FROM leads WHERE visitor_sub = ? LIMIT 1", visitorId).toArray().length > 0;
    return signed ? "signed" : "anonymous";
  }

  /** Whether anything of the visitor is stored: a conversation or a lead. */
  hasVisitor(visitorId: string, kind: VisitorKind = this.visitorKind(visitorId)): boolean {
    if (kind === "signed") return true;
    return (
      this.sql.exec("SELECT 1 FROM visitor_sessions WHERE id = ? LIMIT 1", visitorId).toArray().length > 0 ||
      this.sql.exec("SELECT 1 FROM leads WHERE session_id = ? LIMIT 1", visitorId).toArray().length > 0
    );
  }

  /** Up to `limit` of the visitor's conversations (any order: the deletion's batch). */
  visitorSessionIds(visitorId: string, kind: VisitorKind, limit: number): string[] {
    const rows =
      kind === "signed"
        ? this.sql.exec("SELECT id FROM visitor_sessions WHERE visitor_sub = ? LIMIT ?", visitorId, limit)
        : this.sql.exec("SELECT id FROM visitor_sessions WHERE id = ? LIMIT ?", visitorId, limit);
    return rows.toArray().map((r) => String(r.id));
  }

  /** The visitor's conversations oldest first after `after`, at most `limit` (the export's page). */
  visitorSessionsAfter(visitorId: string, kind: VisitorKind, after: SessionCursor | null, limit: number): SessionCursor[] {
    const column = kind === "signed" ? "visitor_sub" : "id";
    const rows = after
      ? this.sql.exec(
          `SELECT id, started_at FROM visitor_sessions WHERE ${column} = ? AND (started_at > ? OR (started_at = ? AND id > ?)) ORDER BY started_at, id LIMIT ?`,
          visitorId,
          after.startedAt,
          after.startedAt,
          after.id,
          limit,
        )
      : this.sql.exec(`SELECT id, started_at FROM visitor_sessions WHERE ${column} = ? ORDER BY started_at, id LIMIT ?`, visitorId, limit);
    return rows.toArray().map((r) => ({ id: String(r.id), startedAt: num(r.started_at) }));
  }

  /**
   * The visitor's leads newest first after `after`, at most `limit`: a signed visitor's (every
   * lead saved with their `sub`), or those left in the anonymous visitor's conversation.
   */
  visitorLeadsAfter(visitorId: string, kind: VisitorKind, after: LeadCursor | null, limit: number): { leads: SavedLead[]; next: LeadCursor | null } {
    const column = kind === "signed" ? "visitor_sub" : "session_id";
    const rows = after
      ? this.sql.exec(
          `SELECT * FROM leads WHERE ${column} = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?`,
          visitorId,
          after.createdAt,
          after.createdAt,
          after.id,
          limit,
        )
      : this.sql.exec(`SELECT * FROM leads WHERE ${column} = ? ORDER BY created_at DESC, id DESC LIMIT ?`, visitorId, limit);
    const leads = rows.toArray().map(toLead);
    const last = leads.at(-1);
    return { leads, next: last && leads.length === limit ? { createdAt: last.createdAt, id: last.id } : null };
  }

  /**
   * The visitor's leads no conversation of theirs still holds (a conversation retention removed
   * while it kept leads): a signed visitor's by `sub`, an anonymous one's by the conversation's id.
   */
  deleteVisitorLeads(visitorId: string, kind: VisitorKind): number {
    const column = kind === "signed" ? "visitor_sub" : "session_id";
    return this.storage.transactionSync(() => {
      const n = num(this.sql.exec(`SELECT count(*) AS n FROM leads WHERE ${column} = ?`, visitorId).one().n);
      if (n) this.sql.exec(`DELETE FROM leads WHERE ${column} = ?`, visitorId);
      return n;
    });
  }

  /**
   * Deletes these conversations and everything that points at them (the file's header), in one
   * transaction; with `leads`, their leads too. Unknown ids are skipped: deleting twice removes
   * nothing the second time.
   */
  deleteConversations(ids: readonly string[], options: { leads: boolean }): DeletionCounts {
    if (!ids.length) return noDeletion();
    const list = JSON.stringify(ids);
    return this.storage.transactionSync(() => {
      const messages = this.sql
        .exec(
          `SELECT count(*) AS n, coalesce(sum(CASE WHEN json_valid(files) THEN json_array_length(files) ELSE 0 END), 0) AS files
           FROM visitor_messages WHERE session_id IN ${IDS}`,
          list,
        )
        .one();
      if (num(messages.n)) this.sql.exec(`DELETE FROM visitor_messages WHERE session_id IN ${IDS}`, list);
      const sessions = num(this.sql.exec(`SELECT count(*) AS n FROM visitor_sessions WHERE id IN ${IDS}`, list).one().n);
      if (sessions) this.sql.exec(`DELETE FROM visitor_sessions WHERE id IN ${IDS}`, list);
      let leads = 0;
      if (options.leads) {
        leads = num(this.sql.exec(`SELECT count(*) AS n FROM leads WHERE session_id IN ${IDS}`, list).one().n);
        if (leads) this.sql.exec(`DELETE FROM leads WHERE session_id IN ${IDS}`, list);
      }
      this.sql.exec(`DELETE FROM inbox_watchers WHERE session_id IN ${IDS}`, list);
      // The duration stays in the day's median; only its link to the conversation goes.
      this.sql.exec(`UPDATE insight_first_replies SET session_id = 'deleted-' || lower(hex(randomblob(12))) WHERE session_id IN ${IDS}`, list);
      // Questions no other conversation asked (every linked one deleted, and the list never cut
      // short at its bound, or it holds every ask): their wording and day counts go.
      const only = `${MENTIONS("session_ids")} AND NOT EXISTS (SELECT 1 FROM json_each(session_ids) WHERE value NOT IN ${IDS})
        AND NOT EXISTS (SELECT 1 FROM json_each(gap_session_ids) WHERE value NOT IN ${IDS})
        AND (json_array_length(session_ids) < ? OR asked <= json_array_length(session_ids))`;
      const orphans = JSON.stringify(this.sql.exec(`SELECT id FROM insight_questions WHERE ${only}`, list, list, list, insightsLimits.sessionsPerQuestion).toArray().map((r) => r.id));
      this.sql.exec(`DELETE FROM insight_question_days WHERE question_id IN ${IDS}`, orphans);
      this.sql.exec(`DELETE FROM insight_questions WHERE id IN ${IDS}`, orphans);
      this.sql.exec(
        `UPDATE insight_questions SET session_ids = ${WITHOUT("session_ids")}, gap_session_ids = ${WITHOUT("gap_session_ids")}
         WHERE ${MENTIONS("session_ids")} OR ${MENTIONS("gap_session_ids")}`,
        list,
        list,
        list,
        list,
      );
      this.sql.exec(`DELETE FROM webhook_outbox WHERE ${ABOUT}`, list);
      this.sql.exec(`DELETE FROM webhook_deliveries WHERE event_id IN (SELECT event_id FROM webhook_events WHERE ${ABOUT})`, list);
      this.sql.exec(`DELETE FROM webhook_events WHERE ${ABOUT}`, list);
      return { deletedConversations: sessions, deletedMessages: num(messages.n), deletedLeads: leads, deletedFiles: num(messages.files) };
    });
  }
}
