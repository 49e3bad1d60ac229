/**
 * The schema of a public assistant's own Durable Object storage (AssistantHub, SQLite), as an
 * append-only list. The object applies the migrations it has not seen, in order, each in one
 * transaction; a stored history that is not a prefix of this list (an entry renamed or removed) is
 * refused rather than guessed at (the runner: durable-objects/storage-migrations.ts, shared with
 * the chat rooms). Add entries; never edit one.
 */
import { applyStorageMigrations, type StorageMigration } from "../durable-objects/storage-migrations";

export const assistantStorageMigrations: readonly StorageMigration[] = [
  {
    id: "0001_config_sessions_counters",
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE assistant_copy (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        record TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        loaded_at INTEGER NOT NULL
      );
      CREATE TABLE visitor_sessions (
        id TEXT PRIMARY KEY,
        referrer TEXT NOT NULL DEFAULT '',
        origin TEXT NOT NULL DEFAULT '',
        user_agent TEXT NOT NULL DEFAULT '',
        locale TEXT NOT NULL DEFAULT '',
        message_count INTEGER NOT NULL DEFAULT 0,
        started_at INTEGER NOT NULL,
        last_message_at INTEGER,
        counted INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX visitor_sessions_activity_idx ON visitor_sessions (coalesce(last_message_at, started_at), id);
      CREATE INDEX visitor_sessions_started_idx ON visitor_sessions (started_at, id);
      CREATE TABLE visitor_messages (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES visitor_sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        content_type TEXT NOT NULL DEFAULT 'text',
        content TEXT NOT NULL,
        files TEXT NOT NULL DEFAULT '[]',
        sources TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL
      );
      CREATE INDEX visitor_messages_session_idx ON visitor_messages (session_id, created_at, id);
      CREATE TABLE daily_counts (day INTEGER PRIMARY KEY, count INTEGER NOT NULL);
      CREATE TABLE network_daily_counts (
        day INTEGER NOT NULL,
        network TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (day, network)
      );
    `,
  },
  {
    id: "0002_knowledge",
    sql: `
      CREATE TABLE knowledge_files (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        mime_type TEXT NOT NULL,
        r2_key TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'processing',
        error TEXT,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        uploaded_at INTEGER NOT NULL
      );
      CREATE TABLE knowledge_chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        file_id TEXT NOT NULL REFERENCES knowledge_files(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        heading TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        token_count INTEGER NOT NULL,
        embedding BLOB,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX knowledge_chunks_file_idx ON knowledge_chunks (file_id, id);
      CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(heading, content, content='knowledge_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER knowledge_chunks_ai AFTER INSERT ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts(rowid, heading, content) VALUES (new.id, new.heading, new.content);
      END;
      CREATE TRIGGER knowledge_chunks_ad AFTER DELETE ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts, rowid, heading, content) VALUES ('delete', old.id, old.heading, old.content);
      END;
      CREATE TRIGGER knowledge_chunks_au AFTER UPDATE OF heading, content ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts, rowid, heading, content) VALUES ('delete', old.id, old.heading, old.content);
        INSERT INTO knowledge_chunks_fts(rowid, heading, content) VALUES (new.id, new.heading, new.content);
      END;
    `,
  },
  {
    // One pending marker per owner write (assistant-copy.ts), replacing the one shared deadline
    // that the first write's refresh cleared for every write.
    id: "0003_config_pending",
    sql: `
      CREATE TABLE config_pending (token TEXT PRIMARY KEY, until INTEGER NOT NULL);
      INSERT INTO config_pending (token, until) SELECT 'shared', CAST(value AS INTEGER) FROM meta WHERE key = 'config_unsettled_until';
      DELETE FROM meta WHERE key = 'config_unsettled_until';
    `,
  },
  {
    // Objects that moved their legacy knowledge before the move recorded its greatest chunk id:
    // the moved chunks kept their D1 created_at, older than the move's marker; newer ones were
    // written here afterwards (knowledge/vectors.ts deletes a bare Vectorize id only up to it).
    id: "0004_legacy_max_chunk_id",
    sql: `
      INSERT OR IGNORE INTO meta (key, value)
      SELECT 'legacy_max_chunk_id', CAST(m AS TEXT) FROM (
        SELECT max(id) AS m FROM knowledge_chunks
        WHERE created_at < (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'imported')
      ) WHERE m IS NOT NULL;
    `,
  },
  {
    // Insights for owners (assistant/insights-store.ts): a visitor's rating on an
    // answer's own row (last rating wins; the history shows it), per-UTC-day counts, and the
    // questions visitors asked (bounded; day rows pruned). Day counts are backfilled from the
    // history already stored, so existing assistants keep their charts; questions and gaps
    // count from this migration on (the question's retrieval result was never stored).
    id: "0005_insights",
    sql: `
      ALTER TABLE visitor_messages ADD COLUMN rating TEXT;
      ALTER TABLE visitor_messages ADD COLUMN rated_at INTEGER;
      CREATE INDEX visitor_messages_rated_idx ON visitor_messages (rated_at) WHERE rated_at IS NOT NULL;
      CREATE TABLE insight_days (
        day INTEGER PRIMARY KEY,
        conversations INTEGER NOT NULL DEFAULT 0,
        messages INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE insight_questions (
        id INTEGER PRIMARY KEY,
        normalized TEXT NOT NULL UNIQUE,
        wording TEXT NOT NULL,
        asked INTEGER NOT NULL DEFAULT 0,
        last_asked_at INTEGER NOT NULL,
        last_gap_at INTEGER,
        last_was_gap INTEGER NOT NULL DEFAULT 0,
        session_ids TEXT NOT NULL DEFAULT '[]',
        gap_session_ids TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX insight_questions_eviction_idx ON insight_questions (asked, last_asked_at);
      CREATE TABLE insight_question_days (
        day INTEGER NOT NULL,
        question_id INTEGER NOT NULL,
        asked INTEGER NOT NULL DEFAULT 0,
        gaps INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (day, question_id)
      ) WITHOUT ROWID;
      CREATE INDEX insight_question_days_question_idx ON insight_question_days (question_id);
      INSERT INTO insight_days (day, conversations, messages)
      SELECT day, sum(conversations), sum(messages) FROM (
        SELECT CAST(created_at / 86400000 AS INTEGER) AS day, 0 AS conversations, count(*) AS messages
        FROM visitor_messages WHERE role = 'user' GROUP BY 1
        UNION ALL
        SELECT CAST(first_at / 86400000 AS INTEGER) AS day, count(*) AS conversations, 0 AS messages
        FROM (SELECT min(created_at) AS first_at FROM visitor_messages WHERE role = 'user' GROUP BY session_id) GROUP BY 1
      ) GROUP BY day;
    `,
  },
  {
    // Website sources: each source's pages, their crawl state, and the knowledge file
    // a page is indexed as (knowledge_files.source_id / url: a web page, not an uploaded file).
    id: "0006_web_sources",
    sql: `
      CREATE TABLE web_sources (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL UNIQUE,
        scope TEXT NOT NULL,
        max_pages INTEGER NOT NULL,
        schedule TEXT NOT NULL,
        status TEXT NOT NULL,
        sync_id TEXT,
        last_sync_id TEXT,
        robots TEXT,
        follow_links INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER NOT NULL DEFAULT 0,
        active_at INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at INTEGER NOT NULL,
        last_synced_at INTEGER,
        next_sync_at INTEGER
      );
      CREATE TABLE web_pages (
        id TEXT PRIMARY KEY,
        source_id TEXT NOT NULL REFERENCES web_sources(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        error TEXT,
        etag TEXT,
        last_modified TEXT,
        content_hash TEXT,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        fetched_at INTEGER,
        changed_at INTEGER,
        seen_sync TEXT,
        done_sync TEXT,
        found_at INTEGER NOT NULL,
        UNIQUE (source_id, url)
      );
      CREATE INDEX web_pages_work_idx ON web_pages (source_id, seen_sync, done_sync, found_at);
      CREATE INDEX web_pages_hash_idx ON web_pages (source_id, content_hash);
      ALTER TABLE knowledge_files ADD COLUMN source_id TEXT;
      ALTER TABLE knowledge_files ADD COLUMN url TEXT;
    `,
  },
  {
    // Signed visitor identity: the assistant's identity secrets (sealed with
    // ENCRYPTION_KEY: the current one, and the rotated-out one until its grace ends), and who a
    // verified visitor's session belongs to (the token's sub, name, e-mail).
    id: "0007_visitor_identity",
    sql: `
      CREATE TABLE identity_secrets (
        slot TEXT PRIMARY KEY CHECK (slot IN ('current', 'previous')),
        sealed TEXT NOT NULL,
        masked TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER
      );
      ALTER TABLE visitor_sessions ADD COLUMN visitor_sub TEXT;
      ALTER TABLE visitor_sessions ADD COLUMN visitor_name TEXT;
      ALTER TABLE visitor_sessions ADD COLUMN visitor_email TEXT;
      CREATE INDEX visitor_sessions_sub_idx ON visitor_sessions (visitor_sub, started_at) WHERE visitor_sub IS NOT NULL;
    `,
  },
  {
    // Bot defence (assistant/bot-defence-store.ts): new sessions and messages per
    // address / network / user agent in one-minute buckets (the spike window), the challenges
    // already spent (until they expire), and per UTC day the sessions challenged and refused.
    id: "0008_bot_defence",
    sql: `
      CREATE TABLE defence_counts (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (kind, key, bucket)
      ) WITHOUT ROWID;
      CREATE INDEX defence_counts_bucket_idx ON defence_counts (bucket);
      CREATE TABLE spent_challenges (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX spent_challenges_expiry_idx ON spent_challenges (expires_at);
      CREATE TABLE defence_days (
        day INTEGER PRIMARY KEY,
        challenged INTEGER NOT NULL DEFAULT 0,
        refused INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    // Monthly message budgets (worker/budgets/): the visitor messages admitted per UTC
    // month (the current and the previous month are kept), and the budget e-mails: a threshold
    // told for a month is recorded in the step that reaches it, then sent (retried by the alarm).
    id: "0009_budgets",
    sql: `
      CREATE TABLE budget_months (month TEXT PRIMARY KEY, used INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
      CREATE TABLE budget_notices (
        scope TEXT NOT NULL,
        month TEXT NOT NULL,
        percent INTEGER NOT NULL,
        budget INTEGER NOT NULL,
        used INTEGER NOT NULL,
        action TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        lease_until INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (scope, month, percent)
      ) WITHOUT ROWID;
      CREATE INDEX budget_notices_pending_idx ON budget_notices (status, next_at);
    `,
  },
  {
    // The assistant's secret keys in use (id and hash, JSON) beside its publishable key's hash, so
    // /v1 checks a caller's key here instead of in D1 (assistant/assistant-copy.ts). NULL: a copy
    // stored before this, which the object reads again from D1 at its next use.
    id: "0010_secret_keys",
    sql: `ALTER TABLE assistant_copy ADD COLUMN secret_keys TEXT;`,
  },
  {
    // The per-IP message throttle's counters an earlier version leased to this object (dropped by 0012).
    id: "0011_ip_message_leases",
    sql: `
      CREATE TABLE ip_message_leases (
        ip TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        reset_at INTEGER NOT NULL,
        lease_end INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // The per-IP message throttle is on the Rate Limiting binding (services/ip-throttle.ts): the
    // table of 0011 goes, with the addresses it held.
    id: "0012_drop_ip_message_leases",
    sql: `DROP TABLE IF EXISTS ip_message_leases;`,
  },
  {
    // Text snippets: knowledge the owner typed in the dashboard, a file record of kind 'text'
    // (its title is the name, its content the R2 object at r2_key) that can be edited in place.
    id: "0013_knowledge_texts",
    sql: `ALTER TABLE knowledge_files ADD COLUMN kind TEXT NOT NULL DEFAULT 'file';`,
  },
  {
    // Curated answers (Q&A pairs, qa-store.ts): each pair, and each of its phrasings (the question,
    // then its variants) with its normalised text (duplicates are refused on it) and, when an
    // embedder is configured, its vector; `qa_state` counts the writes, so the turn's in-memory
    // matcher (hub-qa.ts) knows when to rebuild. The replies curated answers gave, per day.
    id: "0014_qa_pairs",
    sql: `
      CREATE TABLE qa_pairs (
        id TEXT PRIMARY KEY,
        question TEXT NOT NULL,
        variants TEXT NOT NULL DEFAULT '[]',
        answer TEXT NOT NULL,
        mode TEXT NOT NULL,
        uses INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX qa_pairs_created_idx ON qa_pairs (created_at DESC, id DESC);
      CREATE TABLE qa_phrasings (
        pair_id TEXT NOT NULL REFERENCES qa_pairs (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        normalized TEXT NOT NULL,
        embedding BLOB,
        PRIMARY KEY (pair_id, ordinal)
      ) WITHOUT ROWID;
      CREATE INDEX qa_phrasings_normalized_idx ON qa_phrasings (normalized);
      CREATE TABLE qa_state (id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL);
      INSERT INTO qa_state (id, revision) VALUES (1, 0);
      ALTER TABLE insight_days ADD COLUMN curated_exact INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE insight_days ADD COLUMN curated_guided INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    // A person taking over (handoff-store.ts): each session's handoff state and its times (the
    // episode's start for the first reply's time, the last message of either side for the idle
    // end), the person (author JSON, the owner's user id), the address a visitor left, the owner's
    // last read (unread counts) and the e-mails' throttle times; a person's messages (role
    // 'agent') carry their author, an offer of a person its flag; the owners watching the inbox;
    // per day the handoffs requested and taken, and the first replies' durations (a median).
    // Existing sessions read as never handed off and already read.
    id: "0015_handoff",
    sql: `
      ALTER TABLE visitor_sessions ADD COLUMN handoff_state TEXT NOT NULL DEFAULT 'none';
      ALTER TABLE visitor_sessions ADD COLUMN handoff_since INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN handoff_requested_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN handoff_taken_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN handoff_active_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN handoff_first_reply_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN handoff_offered_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN agent_author TEXT;
      ALTER TABLE visitor_sessions ADD COLUMN agent_user_id TEXT;
      ALTER TABLE visitor_sessions ADD COLUMN contact_email TEXT;
      ALTER TABLE visitor_sessions ADD COLUMN owner_read_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE visitor_sessions ADD COLUMN owner_emailed_at INTEGER;
      ALTER TABLE visitor_sessions ADD COLUMN visitor_emailed_at INTEGER;
      UPDATE visitor_sessions SET owner_read_at = coalesce(last_message_at, started_at);
      CREATE INDEX visitor_sessions_handoff_idx ON visitor_sessions (handoff_state, handoff_active_at) WHERE handoff_state != 'none';
      ALTER TABLE visitor_messages ADD COLUMN author TEXT;
      ALTER TABLE visitor_messages ADD COLUMN offers_handoff INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE inbox_watchers (
        room TEXT NOT NULL,
        session_id TEXT NOT NULL DEFAULT '',
        until INTEGER NOT NULL,
        PRIMARY KEY (room, session_id)
      ) WITHOUT ROWID;
      ALTER TABLE insight_days ADD COLUMN handoffs_requested INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE insight_days ADD COLUMN handoffs_taken INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE insight_first_replies (
        day INTEGER NOT NULL,
        session_id TEXT NOT NULL,
        ms INTEGER NOT NULL,
        PRIMARY KEY (day, session_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Lead capture (lead-store.ts): each lead a visitor left, its values as JSON (each field's key,
    // kind, label and value as asked), a lower-cased search text of every value, what showed the
    // form, the session's page and locale and the signed visitor when there was one, and when the
    // owner was e-mailed about it (the hourly throttle); newest first and per session; every field
    // key ever stored with its latest label (the export's header). A reply
    // that offered the form carries its flag; insights count leads per day.
    id: "0016_leads",
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        fields TEXT NOT NULL,
        search TEXT NOT NULL,
        trigger TEXT,
        referrer TEXT NOT NULL DEFAULT '',
        locale TEXT NOT NULL DEFAULT '',
        visitor_sub TEXT,
        visitor_name TEXT,
        visitor_email TEXT,
        owner_emailed_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX leads_created_idx ON leads (created_at DESC, id DESC);
      CREATE INDEX leads_session_idx ON leads (session_id);
      CREATE INDEX leads_emailed_idx ON leads (owner_emailed_at) WHERE owner_emailed_at IS NOT NULL;
      CREATE TABLE lead_keys (key TEXT PRIMARY KEY, kind TEXT NOT NULL, label TEXT NOT NULL) WITHOUT ROWID;
      ALTER TABLE visitor_messages ADD COLUMN offers_lead_form INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE insight_days ADD COLUMN leads INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    // Signed webhooks (webhook-store.ts, hub-webhooks.ts): the owner's endpoints (the secret
    // sealed, its hint, the failing streak, why the server turned one off, the newest outcome);
    // the outbox of recorded events not yet fanned out to deliveries (bounded, oldest dropped);
    // the events' bodies the deliveries send (kept while a delivery refers to them); each
    // delivery's attempts and its last response (at most webhookLimits.deliveriesKept per endpoint).
    id: "0017_webhooks",
    sql: `
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        events TEXT NOT NULL,
        secret_sealed TEXT NOT NULL,
        secret_hint TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        disabled_reason TEXT,
        failing_since INTEGER,
        last_at INTEGER,
        last_ok INTEGER,
        last_status INTEGER,
        disabled_emailed_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE webhook_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL,
        endpoints TEXT NOT NULL
      );
      CREATE TABLE webhook_events (
        event_id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        endpoint_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL,
        queued INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        first_attempt_at INTEGER,
        last_attempt_at INTEGER,
        next_attempt_at INTEGER,
        response_status INTEGER,
        duration_ms INTEGER,
        response TEXT NOT NULL DEFAULT '',
        error TEXT
      );
      CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);
      CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
      CREATE INDEX webhook_deliveries_unqueued_idx ON webhook_deliveries (queued) WHERE queued = 0;
    `,
  },
  {
    // Privacy (privacy-store.ts): a conversation's or a visitor's deletion and the retention pass
    // find what points at a conversation by index: a first reply's duration (kept, its link to the
    // conversation dropped) and a signed visitor's leads. Sessions by last activity, messages and
    // leads by session already have theirs (0001, 0016).
    id: "0018_privacy",
    sql: `
      CREATE INDEX insight_first_replies_session_idx ON insight_first_replies (session_id);
      CREATE INDEX leads_visitor_idx ON leads (visitor_sub) WHERE visitor_sub IS NOT NULL;
    `,
  },
  {
    // Webhooks (webhook-store.ts): the outbox alarm's sweep and its next due time read only the
    // unfinished deliveries handed to the queue, by due time. An endpoint down for a day can hold
    // many (finished ones alone are pruned), and the sweep runs on every outbox alarm.
    id: "0019_webhook_sweep",
    sql: `
      CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (coalesce(next_attempt_at, created_at))
        WHERE queued = 1 AND status IN ('pending', 'retrying');
    `,
  },
];

/** Applies the pending migrations to `storage` (synchronous: call before any other query). */
export const migrateAssistantStorage = (storage: Pick<DurableObjectStorage, "sql" | "transactionSync">) =>
  applyStorageMigrations(storage, assistantStorageMigrations, "assistant");
