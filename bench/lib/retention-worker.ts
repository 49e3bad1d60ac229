// The retention bench's object: the assistant's own SQLite schema (every migration) and the real
// deletion (worker/assistant/privacy-store.ts, as the `retention` alarm job of
// worker/assistant/hub-privacy.ts runs it) in a Durable Object under Miniflare. The bench seeds
// it in bulk (conversations, their messages, leads, Insights' questions linking them, webhook
// events) with SQL that generates the rows inside the object, then asks for one batch per RPC and
// times each from Node. Bundled by bench/retention.mjs; nothing here ships.
import { DurableObject } from "cloudflare:workers";
import { migrateAssistantStorage } from "../../worker/assistant/storage-migrations";
import { PrivacyStore } from "../../worker/assistant/privacy-store";
import { privacyLimits } from "../../contract";

type Op =
  | { op: "seed"; from: number; count: number; messagesPer: number; startedAt: number; spreadMs: number; leadEvery: number }
  | { op: "links"; questions: number; sessions: number }
  | { op: "batch"; cutoff: number; limit: number; leads: boolean }
  | { op: "noop" }
  | { op: "dropIndexes" }
  | { op: "plans"; cutoff: number }
  | { op: "stats" }
  | { op: "limits" };

const QUESTION = "When are you open on Sundays, and do you ship to Morocco? I ordered a zephyrboard last week.";
const ANSWER = "We are open every day from 9:00 to 18:00, Sundays included, and we ship to Morocco in 3 to 5 working days. Your order is on its way.";

export class BenchRetention extends DurableObject {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    migrateAssistantStorage(ctx.storage);
  }

  override async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as Op;
    const sql = this.ctx.storage.sql;
    switch (body.op) {
      case "seed": {
        // Sessions from..from+count-1 (`s<i>`), activity spread over spreadMs after startedAt, each
        // with messagesPer messages alternating question and answer (a file's name on the first),
        // and a lead every leadEvery sessions.
        const last = body.from + body.count - 1;
        this.ctx.storage.transactionSync(() => {
          sql.exec(
            `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < CAST(? AS INTEGER))
             INSERT INTO visitor_sessions (id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at, counted)
             SELECT 's' || i, 'https://shop.example/help', 'https://shop.example', 'Mozilla/5.0 bench', 'en-US', CAST(? AS INTEGER), CAST(? AS INTEGER) + (i * 7919) % CAST(? AS INTEGER), CAST(? AS INTEGER) + (i * 7919) % CAST(? AS INTEGER) + CAST(? AS INTEGER), CAST(? AS INTEGER) FROM n`,
            body.from,
            last,
            body.messagesPer,
            body.startedAt,
            body.spreadMs,
            body.startedAt,
            body.spreadMs,
            body.messagesPer * 1000,
            body.messagesPer / 2,
          );
          sql.exec(
            `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < CAST(? AS INTEGER))
             INSERT INTO visitor_messages (id, session_id, role, content, files, sources, created_at, rating)
             SELECT 's' || (i / CAST(? AS INTEGER)) || '-m' || (i % CAST(? AS INTEGER)), 's' || (i / CAST(? AS INTEGER)), CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
               CASE WHEN i % 2 = 0 THEN ? ELSE ? END,
               CASE WHEN i % CAST(? AS INTEGER) = 0 THEN '[{"name":"invoice.pdf"}]' ELSE '[]' END, '[]',
               CAST(? AS INTEGER) + ((i / CAST(? AS INTEGER)) * 7919) % CAST(? AS INTEGER) + (i % CAST(? AS INTEGER)) * 1000,
               CASE WHEN i % 7 = 1 THEN 'up' ELSE NULL END
             FROM n`,
            body.from * body.messagesPer,
            (last + 1) * body.messagesPer - 1,
            body.messagesPer,
            body.messagesPer,
            body.messagesPer,
            QUESTION,
            ANSWER,
            body.messagesPer,
            body.startedAt,
            body.messagesPer,
            body.spreadMs,
            body.messagesPer,
          );
          sql.exec(
            `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < CAST(? AS INTEGER))
             INSERT INTO leads (id, session_id, created_at, fields, search, referrer, locale)
             SELECT 'l' || i, 's' || i, CAST(? AS INTEGER) + (i * 7919) % CAST(? AS INTEGER), '[{"key":"email","kind":"email","label":"E-mail","value":"visitor@example.com"}]', 'visitor@example.com', 'https://shop.example/help', 'en-US'
             FROM n WHERE i % CAST(? AS INTEGER) = 0`,
            body.from,
            last,
            body.startedAt,
            body.spreadMs,
            body.leadEvery,
          );
        });
        return Response.json({ sessions: body.count });
      }
      case "links": {
        // Insights' questions (up to insightsLimits.maxTrackedQuestions), each linking 5 conversations, and webhook events about some.
        this.ctx.storage.transactionSync(() => {
          sql.exec(
            `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < CAST(? AS INTEGER) - 1)
             INSERT INTO insight_questions (normalized, wording, asked, last_asked_at, session_ids, gap_session_ids)
             SELECT 'q' || i, 'Question ' || i, 5, 0, json_array('s' || (i * 5 % CAST(? AS INTEGER)), 's' || ((i * 5 + 1) % CAST(? AS INTEGER)), 's' || ((i * 5 + 2) % CAST(? AS INTEGER)), 's' || ((i * 5 + 3) % CAST(? AS INTEGER)), 's' || ((i * 5 + 4) % CAST(? AS INTEGER))), '[]' FROM n`,
            body.questions,
            body.sessions,
            body.sessions,
            body.sessions,
            body.sessions,
            body.sessions,
          );
          sql.exec(
            `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999)
             INSERT INTO webhook_events (event_id, type, created_at, body)
             SELECT 'e' || i, 'message.answered', 0, json_object('id', 'e' || i, 'type', 'message.answered', 'data', json_object('sessionId', 's' || (i * 37 % CAST(? AS INTEGER)), 'answer', CAST(? AS INTEGER))) FROM n`,
            body.sessions,
            ANSWER,
          );
        });
        return Response.json({ ok: true });
      }
      case "batch": {
        const store = new PrivacyStore(this.ctx.storage);
        const ids = store.inactiveBefore(body.cutoff, body.limit);
        const deleted = store.deleteConversations(ids, { leads: body.leads });
        return Response.json({ selected: ids.length, ...deleted });
      }
      case "noop":
        return Response.json({});
      case "limits":
        return Response.json(privacyLimits);
      case "dropIndexes":
        sql.exec("DROP INDEX IF EXISTS visitor_messages_session_idx");
        sql.exec("DROP INDEX IF EXISTS visitor_sessions_activity_idx");
        return Response.json({ dropped: true });
      case "plans": {
        const plan = (q: string, ...args: SqlStorageValue[]) =>
          sql
            .exec(`EXPLAIN QUERY PLAN ${q}`, ...args)
            .toArray()
            .map((r) => String(r.detail));
        const ids = '["s1","s2"]';
        return Response.json({
          select: plan("SELECT id FROM visitor_sessions WHERE coalesce(last_message_at, started_at) < ? ORDER BY coalesce(last_message_at, started_at), id LIMIT 200", body.cutoff),
          messages: plan("DELETE FROM visitor_messages WHERE session_id IN (SELECT value FROM json_each(?))", ids),
          leads: plan("DELETE FROM leads WHERE session_id IN (SELECT value FROM json_each(?))", ids),
          firstReplies: plan("UPDATE insight_first_replies SET session_id = 'x' WHERE session_id IN (SELECT value FROM json_each(?))", ids),
        });
      }
      case "stats": {
        const n = (table: string) => Number(sql.exec(`SELECT count(*) AS n FROM ${table}`).one().n);
        return Response.json({ sessions: n("visitor_sessions"), messages: n("visitor_messages"), leads: n("leads"), databaseBytes: this.ctx.storage.sql.databaseSize });
      }
    }
  }
}

export default {
  async fetch(request: Request, env: { RETENTION: DurableObjectNamespace }) {
    const url = new URL(request.url);
    return env.RETENTION.get(env.RETENTION.idFromName(url.searchParams.get("object") ?? "bench")).fetch(request);
  },
};
