import { DurableObject } from "cloudflare:workers";
import {
  widget,
  type ChatHistoryResponse,
  type VisitorSession,
  type WidgetMessage,
  type WidgetRemaining,
  type WidgetSessionResponse,
  type WidgetSocketClose,
  type WidgetSource,
} from "../../contract";
import { AssistantCopyStore, loadAssistantFromD1, unsettledMs, widgetAccess, type AccessDenied, type AssistantCopy, type AssistantState } from "../assistant/assistant-copy";
import { knowledgeOps, localKnowledgeIndex, type KnowledgeOp } from "../assistant/hub-knowledge-index";
import { KnowledgeStore } from "../assistant/knowledge-store";
import { importLegacyKnowledge, importLegacyVisitorRows } from "../assistant/legacy-import";
import { migrateAssistantStorage } from "../assistant/storage-migrations";
import { VisitorStore, type VisitorSessionRow } from "../assistant/visitor-store";
import type { Env } from "../env";
import { IndexVectorStore, VectorizeStore, embeddingProviderFromEnv, hybridSearch, type KnowledgeFileRecord } from "../knowledge";
import { retryAfterSeconds } from "../services/rate-limit";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { toVisitorMessage, toVisitorSession } from "../services/visitor-sessions/to-visitor-session";
import { attachmentsRefusal, ipRefusal, toMessageAdmission, type MessageRefusal } from "../services/widget/admit-visitor-message";
import { toWidgetMessage } from "../services/widget/visitor-session-rows";
import { consumeIpMessage, consumeIpSession, legacyDailyCount } from "../services/widget/widget-limits";
import { getWidgetRoom } from "../widget/get-widget-room";
import { OpenSessions } from "../widget/open-sessions";
import { retrievalQuery, type HistoryTurn, type Passage } from "../widget/prompt";

/** How many visitor rooms a revocation closes at once. */
const closeConcurrency = 50;
/** How many of the oldest registrations a full hub checks before it refuses a new socket. */
const sweepSize = 20;
const USER_AGENT_CHARS = 512;

export interface BeginTurnInput {
  assistantId: string;
  /** The publishable key's hash and the caller's normalised Origin: checked against the copy. */
  keyHash: string;
  origin: string;
  sessionId: string;
  /** The caller's network (clientIp): the per-IP throttle and the network's daily share. */
  ip: string;
  message: { content: string; files: { name: string }[] };
}

export type BeginTurnResult =
  | { outcome: "denied"; denied: AccessDenied }
  | { outcome: "no-session" }
  | { outcome: "refused"; refusal: MessageRefusal; limits?: { maxMessagesPerSession: number; dailyLimit: number } }
  | {
      outcome: "admitted";
      assistant: PublicAssistantRecord;
      session: { id: string; startedAt: number; locale: string };
      /** The session's last turns before this message, oldest first. */
      history: HistoryTurn[];
      /** The visitor's message as saved (echo it as `new-message`). */
      saved: WidgetMessage;
      remaining: WidgetRemaining;
      /** The passages for the question (hybrid search next to the index); null when retrieval failed. */
      passages: Passage[] | null;
    };

export interface StartSessionInput {
  assistantId: string;
  visitorSessionId?: string | undefined;
  referrer: string;
  locale: string;
  origin: string;
  userAgent: string;
  ip: string;
}

/**
 * One public assistant's own Durable Object (named by the assistant's id, SQLite-backed), reached
 * through `getAssistantHub(env, assistantId)`. It owns the assistant's visitor sessions and
 * messages and its message counters (assistant/visitor-store.ts), a persisted copy of the
 * assistant's settings and key hash (assistant/assistant-copy.ts: D1 stays the directory of
 * record), and the set of visitor rooms with a socket open (widget/open-sessions.ts), so a
 * revocation fans out from here and open sockets close within a second.
 *
 * A visitor turn is two short RPCs: `beginTurn` (authorise, check the session, admit against the
 * counters, read the history, save the visitor's message) and `finishTurn` (save the answer).
 * The model streams in the caller (WidgetRoom, the SSE route, /v1), never here, so a popular
 * assistant's object only ever runs short local-SQLite work.
 *
 * Every data RPC passes through `open`: the storage schema (append-only migrations), the copy of
 * the assistant, and, once, the move of the assistant's legacy D1 rows (assistant/legacy-import.ts).
 */
export class AssistantHub extends DurableObject<Env> {
  private sessions = new OpenSessions(this.ctx.storage);
  private migrated = false;
  /** The copy of the assistant, read from SQLite once and then kept in memory (assistant-copy.ts). */
  private copies = new AssistantCopyStore(this.ctx.storage);

  // ── Visitor turns ─────────────────────────────────────────────────────────────────────────────

  /**
   * Before the model: the key, active flag and origin against the copy; the session (open, this
   * assistant's); attachments; the per-IP throttle; then the session's, the network's and the
   * day's counters in one synchronous check-and-increment; the history; the visitor's message saved.
   */
  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    const opened = await this.open(input.assistantId);
    const denied = widgetAccess(opened?.assistant ?? "missing", input.keyHash, input.origin);
    if (denied || !opened) return { outcome: "denied", denied: denied ?? "unavailable" };
    const { store } = opened;
    const { record } = opened.assistant;
    if (!store.openSession(input.sessionId)) return { outcome: "no-session" };
    const attachments = attachmentsRefusal(input.message.files.length, record.config.allowAttachments);
    if (attachments) return { outcome: "refused", refusal: attachments };
    const ip = await consumeIpMessage(this.env, input.ip);
    const limits = { maxMessagesPerSession: record.config.maxMessagesPerSession, dailyLimit: record.config.dailyLimit };
    const throttled = ipRefusal(ip);
    if (throttled) return { outcome: "refused", refusal: throttled };
    // From here to the save, nothing awaits: the counters and the history are one atomic step.
    const session = store.openSession(input.sessionId);
    if (!session) return { outcome: "no-session" };
    const admission = toMessageAdmission(store.admit({ sessionId: session.id, network: input.ip, ...limits }));
    if (!admission.ok) return { outcome: "refused", refusal: admission, limits };
    const history = store.messages(session.id, widget.historyMessages).map((m) => ({ role: m.role, content: m.content }));
    const saved = store.saveMessage({
      sessionId: session.id,
      role: "user",
      content: input.message.content,
      files: input.message.files.map((f) => ({ name: f.name })),
      sources: [],
      at: Date.now(),
    });
    const passages = await this.retrieve(input.assistantId, retrievalQuery(input.message.content, history));
    return {
      outcome: "admitted",
      assistant: record,
      session: { id: session.id, startedAt: session.startedAt, locale: session.locale },
      history,
      saved: toWidgetMessage(saved, record.showSources),
      remaining: admission.remaining,
      passages,
    };
  }

  /** After the model: saves the answer with its sources (kept for the owner whatever the visitor sees). Null: the session is gone. */
  async finishTurn(input: { assistantId: string; sessionId: string; messageId: string; content: string; sources: WidgetSource[]; askedAt: number }): Promise<WidgetMessage | null> {
    const opened = await this.open(input.assistantId);
    if (!opened || !opened.store.session(input.sessionId)) return null;
    const reply = opened.store.saveMessage({
      id: input.messageId,
      sessionId: input.sessionId,
      role: "assistant",
      content: input.content,
      files: [],
      sources: input.sources,
      at: Math.max(Date.now(), input.askedAt + 1),
    });
    return toWidgetMessage(reply, opened.assistant.record.showSources);
  }

  /** A socket connected (WidgetRoom.onConnect): may it stay, and what is left to send. */
  async socketOpened(input: { assistantId: string; keyHash: string; origin: string; sessionId: string }): Promise<
    { denied: AccessDenied } | { denied: null; remaining: WidgetRemaining | null; limits: { maxMessagesPerSession: number; dailyLimit: number } }
  > {
    const opened = await this.open(input.assistantId);
    const denied = widgetAccess(opened?.assistant ?? "missing", input.keyHash, input.origin);
    if (denied || !opened) return { denied: denied ?? "unavailable" };
    const { config } = opened.assistant.record;
    const limits = { maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit };
    const session = opened.store.openSession(input.sessionId);
    return { denied: null, remaining: session ? opened.store.remaining({ sessionId: session.id, ...limits }) : null, limits };
  }

  /**
   * POST /api/widget/sessions: resumes `visitorSessionId` when it is an open session here, else
   * starts one (the per-IP session throttle counts only a new one). The caller authorised the key.
   */
  async startSession(
    input: StartSessionInput,
  ): Promise<{ ok: true; created: boolean; session: WidgetSessionResponse } | { ok: false; retryAfter: number } | { ok: false; unavailable: true }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, unavailable: true };
    const { store } = opened;
    if (input.visitorSessionId) {
      const existing = store.openSession(input.visitorSessionId);
      if (existing) return { ok: true, created: false, session: this.widgetSession(store, opened.assistant, existing) };
    }
    const throttle = await consumeIpSession(this.env, input.ip);
    if (!throttle.allowed) return { ok: false, retryAfter: retryAfterSeconds(throttle) };
    const row = {
      id: crypto.randomUUID(),
      referrer: input.referrer,
      origin: input.origin,
      userAgent: input.userAgent.slice(0, USER_AGENT_CHARS),
      locale: input.locale,
      startedAt: Date.now(),
    };
    store.createSession(row);
    return { ok: true, created: true, session: this.widgetSession(store, opened.assistant, store.session(row.id)!) };
  }

  /** GET /api/widget/sessions/:id: the open session with its messages and what is left, or null. */
  async getSession(input: { assistantId: string; sessionId: string }): Promise<WidgetSessionResponse | null> {
    const opened = await this.open(input.assistantId);
    const row = opened?.store.openSession(input.sessionId);
    return opened && row ? this.widgetSession(opened.store, opened.assistant, row) : null;
  }

  /** Whether this is an open session of the assistant (the socket route checks before the room). */
  async hasOpenSession(input: { assistantId: string; sessionId: string }): Promise<boolean> {
    const opened = await this.open(input.assistantId);
    return Boolean(opened?.store.openSession(input.sessionId));
  }

  /**
   * /v1/chat/completions: one message against the assistant's day (no session, no network
   * share), then, with `query`, the passages for it (null when retrieval failed).
   */
  async admitApiCall(input: { assistantId: string; query?: string }): Promise<{ ok: true; passages: Passage[] | null } | { ok: false; retryAfter: number }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, retryAfter: 60 };
    const { config } = opened.assistant.record;
    const result = opened.store.admit({ maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit });
    if (result.allowed) return { ok: true, passages: input.query === undefined ? [] : await this.retrieve(input.assistantId, input.query) };
    return { ok: false, retryAfter: result.daily ? retryAfterSeconds(result.daily) : 60 };
  }

  // ── The owner's view (the caller checked ownership in D1) ────────────────────────────────────

  /** A page of the visitor history, newest activity first. */
  async listSessions(input: { assistantId: string; page: number; limit: number }): Promise<ChatHistoryResponse> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { sessions: [], totalPages: 1, currentPage: input.page, total: 0 };
    const total = opened.store.countSessions();
    return {
      sessions: this.withMessages(opened.store, opened.store.sessionsByActivity(input.page, input.limit)),
      totalPages: Math.max(1, Math.ceil(total / input.limit)),
      currentPage: input.page,
      total,
    };
  }

  /** Sessions oldest first after the cursor, with their messages (the export's pages). */
  async exportPage(input: { assistantId: string; after: { startedAt: number; id: string } | null; limit: number }): Promise<{ sessions: VisitorSession[]; next: { startedAt: number; id: string } | null }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { sessions: [], next: null };
    const rows = opened.store.sessionsAfter(input.after, input.limit);
    const last = rows[rows.length - 1];
    return { sessions: this.withMessages(opened.store, rows), next: last ? { startedAt: last.startedAt, id: last.id } : null };
  }

  async countSessions(input: { assistantId: string }): Promise<number> {
    const opened = await this.open(input.assistantId);
    return opened ? opened.store.countSessions() : 0;
  }

  // ── Knowledge (file records, chunks, FTS5, local vectors) ──────────────────────────────────────

  /** One `KnowledgeIndex` operation (assistant/hub-knowledge-index.ts); chunks arrive in batches. */
  async knowledge(assistantId: string, op: KnowledgeOp, args: unknown[]): Promise<unknown> {
    if (!knowledgeOps.includes(op)) throw new Error(`unknown knowledge operation ${String(op)}`);
    const opened = await this.open(assistantId);
    if (!opened) throw new Error("assistant not found");
    const store = new KnowledgeStore(this.ctx.storage) as unknown as Record<KnowledgeOp, (...a: unknown[]) => unknown>;
    return store[op](...args);
  }

  /** The assistant's knowledge files, newest first. */
  async knowledgeFiles(input: { assistantId: string }): Promise<KnowledgeFileRecord[]> {
    const opened = await this.open(input.assistantId);
    return opened ? new KnowledgeStore(this.ctx.storage).files() : [];
  }

  /** Adds a file record (processing); false when one with this id exists (or the assistant is gone). */
  async addKnowledgeFile(input: { assistantId: string; file: Omit<KnowledgeFileRecord, "status" | "error" | "chunkCount"> }): Promise<boolean> {
    const opened = await this.open(input.assistantId);
    return opened ? new KnowledgeStore(this.ctx.storage).addFile(input.file) : false;
  }

  /** Removes a file record and its chunks (vectors and the R2 object are the caller's). */
  async removeKnowledgeFile(input: { assistantId: string; fileId: string }): Promise<void> {
    const opened = await this.open(input.assistantId);
    if (opened) new KnowledgeStore(this.ctx.storage).removeFile(input.fileId);
  }

  /** What the owner's assistant card shows: its files and how many visitor sessions it has. */
  async cardStats(input: { assistantId: string }): Promise<{ files: KnowledgeFileRecord[]; sessions: number }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { files: [], sessions: 0 };
    return { files: new KnowledgeStore(this.ctx.storage).files(), sessions: opened.store.countSessions() };
  }

  // ── The copy of the assistant, revocation, erasure ───────────────────────────────────────────

  /** Before an owner's D1 write that changes the assistant: the copy is re-read from D1 until `configChanged`. */
  async configChanging(): Promise<void> {
    this.migrate();
    this.copies.markUnsettled(Date.now() + unsettledMs);
  }

  /**
   * After the owner's D1 write: the copy is read again from D1 and trusted; then, with `revoke`,
   * the open widget sockets close (see `revoke`). Returns how many sockets were closed.
   */
  async configChanged(input: { assistantId: string; revoke?: { close: WidgetSocketClose; allowedOrigins?: readonly string[] } }): Promise<number> {
    this.migrate();
    this.copies.write(await loadAssistantFromD1(this.env.DB, input.assistantId), true);
    this.copies.settle();
    return input.revoke ? this.revoke(input.revoke.close, input.revoke.allowedOrigins) : 0;
  }

  /** The assistant was deleted: its sockets close and its storage is erased. */
  async erase(close: WidgetSocketClose): Promise<number> {
    const closed = await this.revoke(close);
    await this.ctx.storage.deleteAll();
    this.migrated = false;
    this.copies = new AssistantCopyStore(this.ctx.storage);
    this.sessions = new OpenSessions(this.ctx.storage);
    return closed;
  }

  /** What this object stores (tests, and proof that an erased assistant left nothing). Does not open or import. */
  async footprint(): Promise<{ sessions: number; messages: number; files: number; chunks: number }> {
    const tables = new Set(this.ctx.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => String(r.name)));
    return {
      ...(tables.has("visitor_sessions") ? new VisitorStore(this.ctx.storage, "").footprint() : { sessions: 0, messages: 0 }),
      ...(tables.has("knowledge_files") ? new KnowledgeStore(this.ctx.storage).footprint() : { files: 0, chunks: 0 }),
    };
  }

  /**
   * A visitor session's room has a socket open (called on every connection). False when the hub
   * is full even after forgetting rooms that no longer have a socket: the room then closes the
   * socket and its widget goes on over HTTP.
   */
  async register(sessionId: string): Promise<boolean> {
    if ((await this.sessions.register(sessionId)) !== "full") return true;
    await this.forgetIdleRooms((await this.sessions.entries()).slice(0, sweepSize));
    return (await this.sessions.register(sessionId)) !== "full";
  }

  /** A visitor session's room closed its last socket. */
  async unregister(sessionId: string): Promise<void> {
    await this.sessions.unregister(sessionId);
  }

  /**
   * Closes the open widget sockets of this assistant with `close`; with `allowedOrigins`, only
   * those whose origin the list no longer allows. A room left with no socket is forgotten (unless
   * it registered again meanwhile). A room that cannot be reached stays registered (its next frame
   * is refused anyway: the copy was refreshed first). Returns how many sockets were closed.
   */
  async revoke(close: WidgetSocketClose, allowedOrigins?: readonly string[]): Promise<number> {
    const entries = await this.sessions.entries();
    let closed = 0;
    for (let i = 0; i < entries.length; i += closeConcurrency) {
      const batch = entries.slice(i, i + closeConcurrency);
      const results = await Promise.allSettled(batch.map(([id]) => getWidgetRoom(this.env, id).closeAll(close, allowedOrigins)));
      for (const [j, result] of results.entries()) {
        const [sessionId, stamp] = batch[j]!;
        if (result.status === "rejected") {
          console.error(JSON.stringify({ event: "widget-socket-revocation-failed", sessionId, error: String(result.reason) }));
          continue;
        }
        closed += result.value.closed;
        if (result.value.open === 0) await this.sessions.unregister(sessionId, stamp);
      }
    }
    return closed;
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────

  private migrate() {
    if (this.migrated) return;
    migrateAssistantStorage(this.ctx.storage);
    this.migrated = true;
  }

  /**
   * The gate of every data RPC: the schema, the assistant's copy (null: the assistant no longer
   * exists), and the one-time move of its legacy D1 rows, which nothing else overtakes.
   */
  private async open(assistantId: string): Promise<{ store: VisitorStore; assistant: AssistantCopy } | null> {
    this.migrate();
    const assistant = await this.assistant(assistantId);
    if (assistant === "missing") return null;
    if (!this.imported()) {
      await this.ctx.blockConcurrencyWhile(async () => {
        if (this.imported()) return;
        const moved = await importLegacyVisitorRows(this.env.DB, this.ctx.storage, assistantId);
        const files = await importLegacyKnowledge(this.env.DB, this.ctx.storage, assistantId);
        const today = await legacyDailyCount(this.env, assistantId, assistant.record.config.dailyLimit);
        if (today) new VisitorStore(this.ctx.storage, assistantId).carryDailyCount(today);
        this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('imported', ?)", String(Date.now()));
        if (moved || files) console.log(JSON.stringify({ event: "assistant-legacy-rows-moved", assistantId, sessions: moved, files }));
      });
    }
    return { store: new VisitorStore(this.ctx.storage, assistantId), assistant };
  }

  /** Hybrid search next to the index (BM25 here; vectors from Vectorize or the chunks' blobs). Null when it failed. */
  private async retrieve(assistantId: string, query: string): Promise<Passage[] | null> {
    try {
      const index = localKnowledgeIndex(new KnowledgeStore(this.ctx.storage));
      const vectors = this.env.VECTORIZE ? new VectorizeStore(this.env.VECTORIZE, { scopedIds: true }) : new IndexVectorStore(() => index);
      const found = await hybridSearch({ index, assistantId, query, embedder: embeddingProviderFromEnv(this.env), vectors, k: widget.retrievalResults });
      if (found.vectorError) console.error(JSON.stringify({ event: "widget-vector-search-failed", assistantId, error: found.vectorError }));
      return found.hits.map((h) => ({ fileId: h.fileId, fileName: h.fileName, heading: h.heading, content: h.content }));
    } catch (error) {
      console.error(JSON.stringify({ event: "widget-retrieval-failed", assistantId, error: String(error) }));
      return null;
    }
  }

  private imported(): boolean {
    return this.ctx.storage.sql.exec("SELECT 1 FROM meta WHERE key = 'imported'").toArray().length > 0;
  }

  /** The copy, or D1 when there is none or an owner's write is unsettled (assistant-copy.ts). */
  private async assistant(assistantId: string): Promise<AssistantState> {
    const copies = this.copies;
    const unsettledUntil = copies.unsettledUntil();
    const stored = copies.read();
    if (stored && unsettledUntil === null) return stored;
    const readAt = Date.now();
    const fresh = await loadAssistantFromD1(this.env.DB, assistantId);
    copies.write(fresh);
    if (unsettledUntil !== null) {
      // A read that started after the window is newer than any write that marked it.
      if (readAt >= unsettledUntil && copies.unsettledUntil() === unsettledUntil) copies.settle();
      return fresh;
    }
    return copies.read() ?? fresh;
  }

  private widgetSession(store: VisitorStore, assistant: AssistantCopy, row: VisitorSessionRow): WidgetSessionResponse {
    const { config, showSources } = assistant.record;
    return {
      sessionId: row.id,
      messages: store.messages(row.id).map((m) => toWidgetMessage(m, showSources)),
      remaining: store.remaining({ sessionId: row.id, maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit }),
    };
  }

  private withMessages(store: VisitorStore, rows: VisitorSessionRow[]): VisitorSession[] {
    const messages = store.messagesOf(rows.map((r) => r.id));
    return rows.map((r) => toVisitorSession(r, (messages.get(r.id) ?? []).map(toVisitorMessage)));
  }

  /** Asks rooms whether they still have a socket; forgets those that do not (and did not register again). */
  private async forgetIdleRooms(entries: [string, number][]) {
    const counts = await Promise.allSettled(entries.map(([id]) => getWidgetRoom(this.env, id).openSockets()));
    for (const [j, result] of counts.entries()) {
      if (result.status === "fulfilled" && result.value === 0) await this.sessions.unregister(entries[j]![0], entries[j]![1]);
    }
  }
}
