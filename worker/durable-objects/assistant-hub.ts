import { DurableObject } from "cloudflare:workers";
import {
  type BudgetUsage,
  type ChatHistoryResponse,
  type FeedbackRating,
  type IdentitySecretCreated,
  type IdentitySecretStatus,
  type InsightsResponse,
  type VerifiedVisitor,
  type VisitorConversationsResponse,
  type VisitorSession,
  type WidgetMessage,
  type WidgetRemaining,
  type WidgetSessionResponse,
  type WidgetSocketClose,
  type WidgetSource,
} from "../../contract";
import { apiAccess, widgetAccess, type AccessDenied, type ApiAccessDenied, type AssistantCopy } from "../assistant/assistant-copy";
import { HubGate, type OpenedHub } from "../assistant/hub-gate";
import { HubIdentity } from "../assistant/identity-secrets";
import { knowledgeOps, type KnowledgeOp } from "../assistant/hub-knowledge-index";
import { HubSockets } from "../assistant/hub-sockets";
import { BotDefenceStore, type SessionProof } from "../assistant/bot-defence-store";
import { beginVisitorTurn, budgetGate, countBudget, retrieveNearIndex, type BeginTurnInput, type BeginTurnResult, type BudgetStep } from "../assistant/hub-visitor-turn";
import { AssistantBudget } from "../budgets/assistant-budget";
import { BudgetNotices, deliverBudgetNotices } from "../budgets/budget-notices";
import { OwnerBudgetReports } from "../budgets/owner-report";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { InsightsStore } from "../assistant/insights-store";
import { KnowledgeStore } from "../assistant/knowledge-store";
import { sessionVisitor, VisitorStore, type VisitorSessionRow } from "../assistant/visitor-store";
import { webSourceOps, webSourceOpsThatWake, type WebSourceOp } from "../assistant/hub-web-sources";
import { WebSourceStore } from "../assistant/web-source-store";
import { enqueueCrawl } from "../services/web-sources/enqueue-crawl";
import type { Env } from "../env";
import { AppError } from "../http/errors";
import type { KnowledgeFileRecord } from "../knowledge";
import { retryAfterSeconds } from "../services/rate-limit";
import { toVisitorMessage, toVisitorSession } from "../services/visitor-sessions/to-visitor-session";
import { toWidgetMessage } from "../services/widget/visitor-session-rows";
import { publicAssistantServerMessages, visitorIdentity, visitorIdentityMessages } from "../../contract";
import { consumeIpSession } from "../services/widget/widget-limits";
import type { Passage } from "../widget/prompt";

export type { BeginTurnInput, BeginTurnResult } from "../assistant/hub-visitor-turn";

const USER_AGENT_CHARS = 512;

/** `rateAnswer`'s answer: a sentinel, never a throw (the feedback route maps it to its status). */
export type RateAnswerResult =
  | { ok: true; messageId: string; rating: FeedbackRating }
  | { ok: false; reason: "missing" | "no-session" | "not-found" | "not-answer" | "failed" }
  | IdentityRefusal;

export interface StartSessionInput {
  assistantId: string;
  visitorSessionId?: string | undefined;
  referrer: string;
  locale: string;
  origin: string;
  userAgent: string;
  ip: string;
  /** Issue 13: the proof-of-work the caller sent, as the worker verified it (services/widget/bot-defence.ts). */
  proof?: SessionProof | undefined;
  /** Issue 13: the site's signed visitor token, verified here (never downgraded to anonymous). */
  userToken?: string | undefined;
}

/** How long after a budget threshold the alarm looks again, in case the send was cut short. */
const BUDGET_NOTICE_RESCUE_MS = 60_000;

/** A refusal of the visitor's identity (401 with `error`, a visitorIdentityMessages sentence). */
export type IdentityRefusal = { ok: false; identity: string };

/** A widget read of one session (GET /api/widget/sessions/:id, the socket route): sentinels, never a throw. */
export type SessionAccess<T> = { ok: true; value: T } | { ok: false; reason: "no-session" } | IdentityRefusal;

/** The owner's identity-secret routes: `failed` carries a contract sentence (ENCRYPTION_KEY missing or too short). */
export type IdentitySecretResult<T> = { ok: true; value: T } | { ok: false; reason: "missing" } | { ok: false; reason: "failed"; error: string };

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
  private readonly gate = new HubGate(this.ctx, this.env);
  private readonly sockets = new HubSockets(this.ctx.storage, this.env);
  private readonly ownerReports = new OwnerBudgetReports(this.env, this.ctx.storage);
  private readonly identity = new HubIdentity(this.ctx.storage, this.env);

  // ── Visitor turns ─────────────────────────────────────────────────────────────────────────────

  /** Before the model: authorise, check the session, admit, read the history, save the visitor's message (assistant/hub-visitor-turn.ts). */
  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    const opened = await this.open(input.assistantId);
    return beginVisitorTurn(this.env, this.ctx.storage, opened, input, { identity: this.identity }, (step) => this.afterBudget(input.assistantId, opened?.assistant.record, step));
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
    return { denied: null, remaining: session ? opened.store.remaining({ sessionId: session.id, ...limits, userSub: limitSub(opened, session) }) : null, limits };
  }

  /**
   * POST /api/widget/sessions: resumes `visitorSessionId` when it is an open session here (no
   * proof ever needed), else starts one: the bot defence first (`proof`: a proof-of-work is
   * needed in mode "always" or on a spike, and a verified one is spent once, in this synchronous
   * step; assistant/bot-defence-store.ts), then the per-IP session throttle, which counts only a
   * new session. The caller authorised the key.
   */
  async startSession(
    input: StartSessionInput,
  ): Promise<
    | { ok: true; created: boolean; session: WidgetSessionResponse }
    | { ok: false; retryAfter: number }
    | { ok: false; unavailable: true }
    | { ok: false; proof: { refused: boolean; difficulty: number } }
    | IdentityRefusal
  > {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, unavailable: true };
    const { store } = opened;
    // A token that does not verify is refused: never an anonymous session instead (issue 13).
    let visitor: VerifiedVisitor | undefined;
    if (input.userToken !== undefined) {
      const verified = await this.identity.verify(input.assistantId, input.userToken);
      if (!verified.ok) return { ok: false, identity: verified.error };
      visitor = verified.visitor;
    }
    if (input.visitorSessionId) {
      const existing = store.openSession(input.visitorSessionId);
      // Resumed only by its own kind of caller: an anonymous session anonymously, a verified
      // visitor's by the same sub (from any device). Anyone else gets a new session of their own,
      // and learns nothing about that one.
      if (existing && (existing.visitorSub ?? null) === (visitor?.id ?? null)) {
        if (visitor) store.updateVisitor(existing.id, visitor);
        return { ok: true, created: false, session: this.widgetSession(store, opened.assistant, store.session(existing.id)!) };
      }
    }
    const caller = { address: input.ip, userAgent: input.userAgent };
    const gate = new BotDefenceStore(this.ctx.storage).admitNewSession(opened.assistant.record.config.botDefence, caller, input.proof);
    if (!gate.pass) return { ok: false, proof: { refused: gate.refused, difficulty: gate.difficulty } };
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
    store.createSession(row, visitor);
    return { ok: true, created: true, session: this.widgetSession(store, opened.assistant, store.session(row.id)!) };
  }

  /**
   * GET /api/widget/sessions/:id: the open session with its messages and what is left. A verified
   * visitor's session needs a token of that visitor (`visitorToken`, X-Visitor-Token).
   */
  async getSession(input: { assistantId: string; sessionId: string; visitorToken?: string | undefined }): Promise<SessionAccess<WidgetSessionResponse>> {
    const opened = await this.open(input.assistantId);
    const row = opened?.store.openSession(input.sessionId);
    if (!opened || !row) return { ok: false, reason: "no-session" };
    const refused = await this.visitorCheck(input.assistantId, row, input.visitorToken);
    if (refused) return refused;
    return { ok: true, value: this.widgetSession(opened.store, opened.assistant, row) };
  }

  /**
   * The socket route, before the room: is this an open session here, and, when it is a verified
   * visitor's, does `visitorToken` verify as that visitor. `visitorSub` goes to the room, which
   * hands it to `beginTurn` (verified on connect, so a frame costs no HMAC).
   */
  async socketSession(input: { assistantId: string; sessionId: string; visitorToken?: string | undefined }): Promise<SessionAccess<{ visitorSub: string | null }>> {
    const opened = await this.open(input.assistantId);
    const row = opened?.store.openSession(input.sessionId);
    if (!opened || !row) return { ok: false, reason: "no-session" };
    const refused = await this.visitorCheck(input.assistantId, row, input.visitorToken);
    if (refused) return refused;
    return { ok: true, value: { visitorSub: row.visitorSub ?? null } };
  }

  /** GET /api/widget/conversations: the verified visitor's open conversations, newest first. */
  async visitorConversations(input: { assistantId: string; visitorToken: string }): Promise<{ ok: true; value: VisitorConversationsResponse } | IdentityRefusal | { ok: false; unavailable: true }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, unavailable: true };
    const verified = await this.identity.verify(input.assistantId, input.visitorToken);
    if (!verified.ok) return { ok: false, identity: verified.error };
    const conversations = opened.store.visitorConversations(verified.visitor.id, visitorIdentity.listedConversations);
    return { ok: true, value: { visitor: verified.visitor, conversations } };
  }

  /** Whether this is an open session of the assistant (the socket route checks before the room). */
  async hasOpenSession(input: { assistantId: string; sessionId: string }): Promise<boolean> {
    const opened = await this.open(input.assistantId);
    return Boolean(opened?.store.openSession(input.sessionId));
  }

  /**
   * /v1/chat/completions: the caller's secret key (its hash) and Origin against the copy
   * (`denied`: not a key in use, 401; the assistant inactive or the Origin refused, 403), then one
   * message against the assistant's monthly budgets and its day (no session, no network share;
   * `budget`: a budget pauses it), then, with `query`, the passages for it (null when retrieval
   * failed), and what the answer's prompt needs of the assistant. `missing`: the assistant was deleted.
   */
  async admitApiCall(input: {
    assistantId: string;
    /**
     * The caller's secret key's hash. Absent: a worker version from before the copy held the
     * secret keys (a deployment under way), which read the key, the active flag and the Origin in
     * D1 on that very call; its route answered any other refusal as "daily limit reached".
     */
    keyHash?: string;
    /** The caller's normalised Origin; "" for a server. */
    origin?: string;
    query?: string;
    /** The visitor's question alone (the relevance floor's words); `query` when absent. */
    question?: string;
  }): Promise<
    | { ok: true; passages: Passage[] | null; assistant: Pick<PublicAssistantRecord, "id" | "name" | "instructions"> }
    | { ok: false; retryAfter: number; budget?: true }
    | { ok: false; missing: true }
    | { ok: false; denied: ApiAccessDenied }
  > {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, missing: true };
    const denied = input.keyHash === undefined ? null : apiAccess(opened.assistant, input.keyHash, input.origin ?? "");
    if (denied) return { ok: false, denied };
    const { record } = opened.assistant;
    const { config } = record;
    // Budgets, then the day's counter, then the month's count: one synchronous step (exact).
    const now = Date.now();
    const budget = new AssistantBudget(this.ctx.storage);
    const onBudget = (step: BudgetStep) => this.afterBudget(input.assistantId, record, step);
    const paused = budgetGate(budget, record, now, onBudget);
    if (paused) return { ok: false, budget: true, retryAfter: paused.retryAfter ?? 60 };
    const result = opened.store.admit({ maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit });
    if (!result.allowed) return { ok: false, retryAfter: result.daily ? retryAfterSeconds(result.daily) : 60 };
    countBudget(budget, record, now, onBudget);
    const passages = input.query === undefined ? [] : await this.retrieve(input.assistantId, input.query, input.question);
    return { ok: true, passages, assistant: { id: record.id, name: record.name, instructions: record.instructions } };
  }

  // ── The owner's view (the caller checked ownership in D1) ────────────────────────────────────

  /** One visitor session with its messages, open or not (the owner opens a conversation by id); null when it is not here. */
  async visitorSession(input: { assistantId: string; sessionId: string }): Promise<VisitorSession | null> {
    const opened = await this.open(input.assistantId);
    const row = opened?.store.session(input.sessionId);
    return opened && row ? (this.withMessages(opened.store, [row])[0] ?? null) : null;
  }

  /**
   * The owner's Playground: the passages for `query` (null when retrieval failed), counting
   * nothing: no session, no network share, not the day. `missing`: the assistant was deleted
   * since the caller's D1 read.
   */
  async retrieveForOwner(input: { assistantId: string; query: string; question?: string }): Promise<{ passages: Passage[] | null } | { missing: true }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { missing: true };
    return { passages: await this.retrieve(input.assistantId, input.query, input.question) };
  }

  /** A page of the visitor history, newest activity first. */
  async listSessions(input: { assistantId: string; page: number; limit: number; user?: string | undefined }): Promise<ChatHistoryResponse> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { sessions: [], totalPages: 1, currentPage: input.page, total: 0 };
    const total = opened.store.countSessions(input.user);
    return {
      sessions: this.withMessages(opened.store, opened.store.sessionsByActivity(input.page, input.limit, input.user)),
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

  // ── Visitor identity secrets (assistant/identity-secrets.ts; the caller checked ownership in D1) ──

  /** The identity secrets as the owner sees them (masked), `missing` when the assistant is gone. Never throws. */
  async identitySecret(input: { assistantId: string }): Promise<IdentitySecretResult<IdentitySecretStatus>> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, reason: "missing" };
    return this.identityStep(input.assistantId, async () => this.identity.status());
  }

  /**
   * Creates the first secret or rotates (the current one verifies `graceHours` more). The new
   * secret is in this answer only. When a secret stops now (the replaced one with no grace, or a
   * previous one still in its grace, which a rotation replaces), the signed-in visitors' open
   * sockets are closed to be verified again (`reverifySockets`).
   */
  async rotateIdentitySecret(input: { assistantId: string; graceHours: number }): Promise<IdentitySecretResult<IdentitySecretCreated>> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, reason: "missing" };
    const before = this.identity.status();
    const stops = before.previous !== null || (before.current !== null && input.graceHours === 0);
    const result = await this.identityStep(input.assistantId, () => this.identity.rotate(input.assistantId, input.graceHours));
    if (result.ok && stops) await this.reverifySockets(input.assistantId, opened.store);
    // A grace that runs out by itself also stops the old secret: the alarm verifies the sockets then.
    const graceEnd = this.identity.graceEnd();
    if (result.ok && graceEnd !== null) {
      this.rememberId(input.assistantId);
      await this.wakeAt(graceEnd);
    }
    return result;
  }

  /** Keeps the assistant's id for the alarm, which gets no input (web sources' schedules, a grace's end). */
  private rememberId(assistantId: string) {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('assistant_id', ?)", assistantId);
  }

  /** Ends the previous secret's grace now; the signed-in visitors' open sockets are verified again. */
  async endIdentityGrace(input: { assistantId: string }): Promise<IdentitySecretResult<IdentitySecretStatus>> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, reason: "missing" };
    const hadPrevious = this.identity.status().previous !== null;
    const result = await this.identityStep(input.assistantId, async () => this.identity.endGrace());
    if (result.ok && hadPrevious) await this.reverifySockets(input.assistantId, opened.store);
    return result;
  }

  /**
   * A secret stopped verifying at once (issue 13): sockets are verified only when they connect,
   * so the open sockets of signed-in visitors' sessions close (with a code the widget reconnects
   * on) and the reconnect is verified with the secrets in force. A socket opened with a token of
   * a leaked secret thus stops receiving the visitor's conversation. Never throws (logged).
   */
  private async reverifySockets(assistantId: string, store: VisitorStore) {
    try {
      await this.sockets.reverify((sessionId) => Boolean(store.session(sessionId)?.visitorSub));
    } catch (error) {
      console.error(JSON.stringify({ event: "identity-socket-reverify-failed", assistantId, error: String(error) }));
    }
  }

  // ── Insights (assistant/insights-store.ts; counted inside beginTurn) ───────────────────────────

  /**
   * POST …/messages/:messageId/feedback: a visitor rates an answer of their open session (the
   * caller authorised the key). The last rating wins. `not-found`: no such message in this
   * session; `not-answer`: the visitor's own message; `missing`: the assistant is gone; `failed`:
   * the storage failed (logged; the caller answers a retryable 503). Never throws.
   */
  async rateAnswer(input: { assistantId: string; sessionId: string; messageId: string; rating: FeedbackRating; visitorToken?: string | undefined }): Promise<RateAnswerResult> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, reason: "missing" };
    // A verified visitor's answers are rated only with that visitor's token, as they are read.
    const row = opened.store.openSession(input.sessionId);
    const refused = row ? await this.visitorCheck(input.assistantId, row, input.visitorToken) : null;
    if (refused) return refused;
    return this.guarded("rateAnswer", input.assistantId, (): RateAnswerResult => {
      if (!opened.store.openSession(input.sessionId)) return { ok: false, reason: "no-session" };
      const outcome = new InsightsStore(this.ctx.storage).rate({ sessionId: input.sessionId, messageId: input.messageId, rating: input.rating, at: Date.now() });
      return outcome === "rated" ? { ok: true, messageId: input.messageId, rating: input.rating } : { ok: false, reason: outcome };
    });
  }

  /**
   * The owner's insights over the last `days` UTC days (the caller checked ownership in D1).
   * `missing`: the assistant is gone; `failed`: the storage failed (logged). Never throws.
   */
  async insights(input: { assistantId: string; days: number }): Promise<{ ok: true; insights: InsightsResponse } | { ok: false; reason: "missing" | "failed" }> {
    const opened = await this.open(input.assistantId);
    if (!opened) return { ok: false, reason: "missing" };
    const required = opened.assistant.record.config.botDefence === "always";
    return this.guarded("insights", input.assistantId, () => {
      const insights = new InsightsStore(this.ctx.storage).insights(input.days);
      return { ok: true as const, insights: { ...insights, defence: { ...new BotDefenceStore(this.ctx.storage).totals(insights.days), required } } };
    });
  }

  // ── Monthly budgets (budgets/; counted inside beginTurn and admitApiCall) ─────────────────────

  /** This month's use of the assistant's own budget, and whether the owner's budget pauses it. Never throws. */
  async budgetUsage(input: { assistantId: string }): Promise<{ ok: true; usage: BudgetUsage & { ownerPaused: boolean } } | { ok: false; reason: "missing" | "failed" }> {
    try {
      const opened = await this.open(input.assistantId);
      if (!opened) return { ok: false, reason: "missing" };
      return { ok: true, usage: new AssistantBudget(this.ctx.storage).usage(opened.assistant.record.config, Date.now()) };
    } catch (error) {
      console.error(JSON.stringify({ event: "assistant-hub-step-failed", assistantId: input.assistantId, method: "budgetUsage", error: String(error) }));
      return { ok: false, reason: "failed" };
    }
  }

  /** The owner's room: the all-assistants budget pauses this assistant for `month`, or no longer. Never throws. */
  async setOwnerPause(input: { assistantId: string; month: string; paused: boolean }): Promise<{ ok: boolean }> {
    try {
      if (this.gate.erased()) return { ok: false };
      this.gate.migrate();
      new AssistantBudget(this.ctx.storage).setOwnerPaused(input.month, input.paused);
      return { ok: true };
    } catch (error) {
      console.error(JSON.stringify({ event: "assistant-hub-step-failed", assistantId: input.assistantId, method: "setOwnerPause", error: String(error) }));
      return { ok: false };
    }
  }

  /** After a turn's budget step (hub-visitor-turn.ts `BudgetStep`): e-mails and the owner's room, off the visitor's path. */
  private afterBudget(assistantId: string, record: PublicAssistantRecord | undefined, step: BudgetStep) {
    // The alarm is armed before the send: an object evicted between recording a threshold and
    // sending its e-mail still sends it (the alarm finds it pending), never twice (sent is marked).
    if (step.notice) this.ctx.waitUntil(this.wakeAt(Date.now() + BUDGET_NOTICE_RESCUE_MS).catch(() => undefined).then(() => this.deliverBudgetNotices()));
    if (!record) return;
    if (step.report) this.ctx.waitUntil(this.ownerReports.report(assistantId, record.userId));
    if (step.recheck) {
      const asked = this.ownerReports.recheck(assistantId, record.userId);
      if (asked) this.ctx.waitUntil(asked);
    }
  }

  /** Sends the waiting budget e-mails; what failed is retried by the alarm. Never throws. */
  private async deliverBudgetNotices() {
    try {
      const next = await deliverBudgetNotices(this.env, this.ctx.storage);
      if (next !== null) await this.wakeAt(next);
    } catch (error) {
      console.error(JSON.stringify({ event: "budget-delivery-failed", error: String(error) }));
    }
  }

  /** Arms the alarm at `at` unless it is already due earlier. */
  private async wakeAt(at: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
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

  // ── Website sources (assistant/web-source-store.ts; the crawl runs in the queue consumer) ─────

  /**
   * One `WebSourceStore` operation (assistant/hub-web-sources.ts). Null when the assistant is gone.
   * Operations that start, end or reschedule a sync set the object's alarm (scheduled syncs, stalls).
   */
  async webSources(assistantId: string, op: WebSourceOp, args: unknown[]): Promise<unknown> {
    if (!webSourceOps.includes(op)) return null;
    const opened = await this.open(assistantId);
    if (!opened) return null;
    this.rememberId(assistantId);
    const store = new WebSourceStore(this.ctx.storage) as unknown as Record<WebSourceOp, (...a: unknown[]) => unknown>;
    const result = store[op](...args);
    if ((webSourceOpsThatWake as readonly string[]).includes(op)) await this.wakeForSources();
    return result;
  }

  /** Budget e-mails to retry; scheduled syncs that are due, and syncs whose run was lost, are queued again. */
  override async alarm(): Promise<void> {
    if (this.gate.erased()) return;
    this.gate.migrate();
    await this.deliverBudgetNotices();
    await this.identityGraceEnded();
    try {
      await this.sourcesDue();
    } catch (error) {
      // D1 or the storage failed: look again in a minute rather than let the runtime's retries run out.
      console.error(JSON.stringify({ event: "web-sources-alarm-failed", error: String(error) }));
      await this.ctx.storage.setAlarm(Date.now() + 60_000);
    }
  }

  private async sourcesDue(): Promise<void> {
    if (this.gate.erased()) return;
    const [row] = this.ctx.storage.sql.exec("SELECT value FROM meta WHERE key = 'assistant_id'").toArray();
    if (!row || !(await this.open(String(row.value)))) return;
    const assistantId = String(row.value);
    const store = new WebSourceStore(this.ctx.storage);
    const now = Date.now();
    const { resync, stalled } = store.due(now);
    const runs = [...stalled];
    for (const sourceId of resync) {
      const started = store.startSync(sourceId, now);
      if (started.ok) runs.push({ sourceId, syncId: started.syncId });
    }
    const queued = await enqueueCrawl(this.env, runs.map((r) => ({ assistantId, ...r })));
    // Not queued: look again in a minute (the syncs stay queued, then count as stalled).
    if (!queued) await this.ctx.storage.setAlarm(now + 60_000);
    else await this.wakeForSources(true);
    // Replacing the alarm must not drop a budget e-mail waiting for its retry, nor a grace's end.
    const notice = new BudgetNotices(this.ctx.storage).nextDue();
    if (notice !== null) await this.wakeAt(notice);
    const graceEnd = this.identity.graceEnd();
    if (graceEnd !== null) await this.wakeAt(graceEnd);
  }

  /** The previous identity secret's grace ran out: the signed-in visitors' sockets are verified again (once). Never throws. */
  private async identityGraceEnded() {
    try {
      if (!this.identity.takeEndedGrace()) return;
      const [row] = this.ctx.storage.sql.exec("SELECT value FROM meta WHERE key = 'assistant_id'").toArray();
      const opened = row ? await this.open(String(row.value)) : null;
      if (opened) await this.reverifySockets(String(row!.value), opened.store);
    } catch (error) {
      console.error(JSON.stringify({ event: "identity-grace-end-failed", error: String(error) }));
    }
  }

  private async wakeForSources(replace = false) {
    const at = new WebSourceStore(this.ctx.storage).nextWake(Date.now());
    if (at === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (replace || current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  // ── The copy of the assistant, revocation, erasure ───────────────────────────────────────────

  /**
   * Before an owner's D1 write that changes the assistant: the copy is re-read from D1 until this
   * write's `configChanged` (or its deadline). Returns the write's token for `configChanged`.
   */
  async configChanging(): Promise<string> {
    return this.gate.configChanging();
  }

  /**
   * After the owner's D1 write: the copy is read again from D1 and this write's marker (`token`,
   * from `configChanging`) removed (trusted once no other write is pending); then, with `revoke`,
   * the open widget sockets close (see `revoke`). Returns how many sockets were closed.
   */
  async configChanged(input: {
    assistantId: string;
    token?: string;
    revoke?: { close: WidgetSocketClose; allowedOrigins?: readonly string[] };
  }): Promise<number> {
    await this.gate.configChanged(input.assistantId, input.token);
    return input.revoke ? this.revoke(input.revoke.close, input.revoke.allowedOrigins) : 0;
  }

  /**
   * The assistant is being deleted: its sockets close, its storage is erased and a tombstone
   * stays, so no later call creates it again (hub-gate.ts `erased`). Idempotent: the owner's
   * DELETE retries it until it answers.
   */
  async erase(close: WidgetSocketClose): Promise<number> {
    const closed = await this.revoke(close);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.gate.markErased();
    this.sockets.forget();
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
    // Erased: nothing is kept (nothing will revoke); the room's `socketOpened` refuses the socket next.
    if (this.gate.erased()) return true;
    return this.sockets.register(sessionId);
  }

  /** A visitor session's room closed its last socket. */
  async unregister(sessionId: string): Promise<void> {
    if (!this.gate.erased()) await this.sockets.unregister(sessionId);
  }

  /** Closes the open widget sockets of this assistant (assistant/hub-sockets.ts). Returns how many were closed. */
  async revoke(close: WidgetSocketClose, allowedOrigins?: readonly string[]): Promise<number> {
    return this.sockets.revoke(close, allowedOrigins);
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────

  /** The gate of every data RPC (assistant/hub-gate.ts); null: the assistant no longer exists. */
  private open(assistantId: string) {
    return this.gate.open(assistantId);
  }

  /**
   * Runs a synchronous storage step of an RPC; an error is logged and answered `failed`, so the
   * RPC returns a sentinel instead of throwing across the call.
   */
  private guarded<T>(method: string, assistantId: string, step: () => T): T | { ok: false; reason: "failed" } {
    try {
      return step();
    } catch (error) {
      console.error(JSON.stringify({ event: "assistant-hub-step-failed", assistantId, method, error: String(error) }));
      return { ok: false, reason: "failed" };
    }
  }

  private retrieve(assistantId: string, query: string, question = query): Promise<Passage[] | null> {
    return retrieveNearIndex(this.env, this.ctx.storage, assistantId, { query, question });
  }

  private widgetSession(store: VisitorStore, assistant: AssistantCopy, row: VisitorSessionRow): WidgetSessionResponse {
    const { config, showSources } = assistant.record;
    const visitor = sessionVisitor(row);
    return {
      sessionId: row.id,
      messages: store.messages(row.id).map((m) => toWidgetMessage(m, showSources)),
      remaining: store.remaining({
        sessionId: row.id,
        maxMessagesPerSession: config.maxMessagesPerSession,
        dailyLimit: config.dailyLimit,
        userSub: limitSub({ assistant }, row),
      }),
      ...(visitor ? { visitor } : {}),
    };
  }

  /** Null when `row` is anonymous or `token` verifies as its visitor; else the refusal (tokenRequired without a token or for another visitor). */
  private async visitorCheck(assistantId: string, row: VisitorSessionRow, token: string | undefined): Promise<IdentityRefusal | null> {
    if (!row.visitorSub) return null;
    if (!token) return { ok: false, identity: visitorIdentityMessages.tokenRequired };
    const verified = await this.identity.verify(assistantId, token);
    if (!verified.ok) return { ok: false, identity: verified.error };
    return verified.visitor.id === row.visitorSub ? null : { ok: false, identity: visitorIdentityMessages.tokenRequired };
  }

  /** An identity-secret step; an error (ENCRYPTION_KEY missing or too short, storage) is a sentinel with a contract sentence. */
  private async identityStep<T>(assistantId: string, step: () => Promise<T>): Promise<IdentitySecretResult<T>> {
    try {
      return { ok: true, value: await step() };
    } catch (error) {
      console.error(JSON.stringify({ event: "identity-secret-step-failed", assistantId, error: String(error) }));
      return { ok: false, reason: "failed", error: error instanceof AppError ? error.message : publicAssistantServerMessages.assistantBusy };
    }
  }

  private withMessages(store: VisitorStore, rows: VisitorSessionRow[]): VisitorSession[] {
    const messages = store.messagesOf(rows.map((r) => r.id));
    return rows.map((r) => toVisitorSession(r, (messages.get(r.id) ?? []).map(toVisitorMessage)));
  }
}

/** The verified visitor whose sessions share the per-session limit, when the owner counts per user (visitorLimitScope). */
export function limitSub(opened: Pick<OpenedHub, "assistant">, row: Pick<VisitorSessionRow, "visitorSub">): string | null {
  return opened.assistant.record.config.visitorLimitScope === "user" ? (row.visitorSub ?? null) : null;
}
