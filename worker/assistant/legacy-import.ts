import { InsightsStore } from "./insights-store";

/**
 * The move of one assistant's legacy D1 rows (visitor_sessions, visitor_messages, and
 * knowledge_files / knowledge_chunks: `importLegacyKnowledge`) into its own
 * Durable Object, run once, on the object's first use, before any data call is served
 * (assistant/hub-gate.ts awaits it; not inside blockConcurrencyWhile, whose 30 s would reset
 * the object in the middle of a large move). Paged and idempotent: a page of sessions and their
 * messages is copied (INSERT OR IGNORE, one transaction in the object), then deleted from D1;
 * an interrupted move resumes where it stopped and never duplicates a row. When no legacy row
 * is left the object writes its `imported` marker, and never reads those D1 tables again.
 *
 * Counters: a session's message counter (the RateLimiter `widget-session:<id>` object) is carried
 * as the number of visitor messages the session holds (each admitted message saved one); today's
 * assistant-wide count is read from the RateLimiter `widget-daily:<assistantId>` object when it
 * answers. The per-network daily shares are not carried (their keys are IPs the D1 rows do not
 * hold): for the rest of the UTC day of the move, a network may send its share once more.
 */

const SESSIONS_PER_PAGE = 50;
const MESSAGES_PER_PAGE = 500;

type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;

interface LegacySession {
  id: string;
  referrer: string;
  origin: string;
  user_agent: string;
  locale: string;
  message_count: number;
  started_at: number;
  last_message_at: number | null;
}

interface LegacyMessage {
  id: string;
  session_id: string;
  role: string;
  content_type: string;
  content: string;
  files: string;
  sources: string;
  created_at: number;
}

/** Moves every legacy session (and its messages) of `assistantId` from D1 into `storage`. Returns how many sessions moved. */
export async function importLegacyVisitorRows(db: D1Database, storage: SqlHost, assistantId: string): Promise<number> {
  let moved = 0;
  for (;;) {
    const { results: sessions } = await db
      .prepare("SELECT * FROM visitor_sessions WHERE assistant_id = ?1 ORDER BY id LIMIT ?2")
      .bind(assistantId, SESSIONS_PER_PAGE)
      .all<LegacySession>();
    if (!sessions.length) return moved;
    for (const session of sessions) {
      const messages: LegacyMessage[] = [];
      let after = "";
      for (;;) {
        const { results } = await db
          .prepare("SELECT * FROM visitor_messages WHERE session_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3")
          .bind(session.id, after, MESSAGES_PER_PAGE)
          .all<LegacyMessage>();
        messages.push(...results);
        if (results.length < MESSAGES_PER_PAGE) break;
        after = results[results.length - 1]!.id;
      }
      copySession(storage, session, messages);
    }
    // Copied (committed in the object) before deleted from D1: an interruption here re-copies, harmlessly.
    const ids = sessions.map((s) => s.id);
    const placeholders = ids.map((_, i) => `?${i + 1}`).join(", ");
    await db.batch([
      db.prepare(`DELETE FROM visitor_messages WHERE session_id IN (${placeholders})`).bind(...ids),
      db.prepare(`DELETE FROM visitor_sessions WHERE id IN (${placeholders})`).bind(...ids),
    ]);
    moved += sessions.length;
  }
}

function copySession(storage: SqlHost, s: LegacySession, messages: LegacyMessage[]) {
  const { sql } = storage;
  const counted = messages.filter((m) => m.role === "user").length;
  storage.transactionSync(() => {
    const inserted = sql.exec(
      `INSERT OR IGNORE INTO visitor_sessions (id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at, counted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      s.id,
      s.referrer ?? "",
      s.origin ?? "",
      s.user_agent ?? "",
      s.locale ?? "",
      s.message_count ?? 0,
      s.started_at,
      s.last_message_at ?? null,
      counted,
    ).toArray().length > 0;
    for (const m of messages) {
      sql.exec(
        `INSERT OR IGNORE INTO visitor_messages (id, session_id, role, content_type, content, files, sources, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        m.id,
        m.session_id,
        m.role,
        m.content_type ?? "text",
        m.content,
        m.files ?? "[]",
        m.sources ?? "[]",
        m.created_at,
      );
    }
    // A session new to this object (a re-copied one was counted when it first landed): the
    // insights' day counts, as the 0005 migration's backfill counts sessions already stored.
    if (inserted) new InsightsStore(storage).countImportedSession(messages.filter((m) => m.role === "user").map((m) => Number(m.created_at)));
  });
}

const CHUNKS_PER_PAGE = 200;

/**
 * Moves the assistant's legacy D1 knowledge (knowledge_files, knowledge_chunks with their local
 * embedding blobs; the hub's FTS5 triggers index them as they land) into `storage`, keeping chunk
 * ids (vectors already in Vectorize are named by them). Paged like the visitor rows so every
 * attempt makes progress, however large the base: each page of chunks is copied (INSERT OR IGNORE,
 * one transaction in the object), then deleted from D1; an interrupted move resumes with the
 * chunks left and never duplicates one. File records are copied first on every attempt and
 * deleted from D1 only once none of their chunks is left there (D1's chunks reference them).
 * Returns files moved.
 */
export async function importLegacyKnowledge(db: D1Database, storage: SqlHost, assistantId: string): Promise<number> {
  const { sql } = storage;
  const { results: files } = await db.prepare("SELECT * FROM knowledge_files WHERE assistant_id = ?1").bind(assistantId).all<Record<string, unknown>>();
  if (!files.length) return 0;
  storage.transactionSync(() => {
    for (const f of files) {
      sql.exec(
        `INSERT OR IGNORE INTO knowledge_files (id, name, size, mime_type, r2_key, status, error, chunk_count, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        String(f.id),
        String(f.name),
        Number(f.size),
        String(f.mime_type),
        String(f.r2_key),
        String(f.status),
        f.error === null || f.error === undefined ? null : String(f.error),
        Number(f.chunk_count ?? 0),
        Number(f.uploaded_at),
      );
    }
  });
  for (;;) {
    // No cursor: the pages already moved are gone from D1.
    const { results: chunks } = await db
      .prepare("SELECT * FROM knowledge_chunks WHERE assistant_id = ?1 ORDER BY id LIMIT ?2")
      .bind(assistantId, CHUNKS_PER_PAGE)
      .all<Record<string, unknown>>();
    if (!chunks.length) break;
    copyChunks(storage, chunks);
    // Copied (committed in the object) before deleted from D1: an interruption here re-copies, harmlessly.
    await db
      .prepare("DELETE FROM knowledge_chunks WHERE assistant_id = ?1 AND id IN (SELECT value FROM json_each(?2))")
      .bind(assistantId, JSON.stringify(chunks.map((c) => Number(c.id))))
      .run();
  }
  await db.prepare("DELETE FROM knowledge_files WHERE assistant_id = ?1").bind(assistantId).run();
  return files.length;
}

function copyChunks(storage: SqlHost, chunks: Record<string, unknown>[]) {
  const { sql } = storage;
  storage.transactionSync(() => {
    for (const c of chunks) {
      sql.exec(
        `INSERT OR IGNORE INTO knowledge_chunks (id, file_id, ordinal, heading, content, token_count, embedding, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        Number(c.id),
        String(c.file_id),
        Number(c.ordinal),
        String(c.heading ?? ""),
        String(c.content),
        Number(c.token_count),
        legacyBlob(c.embedding),
        Number(c.created_at),
      );
    }
    // Vectorize holds these chunks' vectors under their bare (global) id: only ids up to this
    // one may be deleted by it (knowledge/vectors.ts).
    sql.exec(
      "INSERT INTO meta (key, value) VALUES ('legacy_max_chunk_id', ?) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
      String(Math.max(...chunks.map((c) => Number(c.id)))),
    );
  });
}

/** D1 hands a blob over as an ArrayBuffer, a typed array or a number[]: as an ArrayBuffer, or null. */
function legacyBlob(value: unknown): ArrayBuffer | null {
  if (value instanceof ArrayBuffer) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice().buffer;
  if (Array.isArray(value)) return Uint8Array.from(value as number[]).buffer;
  return null;
}
