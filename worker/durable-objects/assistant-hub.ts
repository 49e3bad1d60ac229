import { DurableObject } from "cloudflare:workers";
import { widgetSocketClose, type WidgetMessage, type WidgetSocketClose, type WidgetSource } from "../../contract";
import { apiAccess, type ApiAccessDenied } from "../assistant/assistant-copy";
import { BudgetsFacet } from "../assistant/facets/budgets";
import { HistoryFacet } from "../assistant/facets/history";
import { IdentityFacet } from "../assistant/facets/identity";
import { InsightsFacet } from "../assistant/facets/insights";
import { KnowledgeFacet } from "../assistant/facets/knowledge";
import { QaFacet } from "../assistant/facets/qa";
import { SocketsFacet } from "../assistant/facets/sockets";
import { VisitorsFacet } from "../assistant/facets/visitors";
import { WebSourcesFacet } from "../assistant/facets/web-sources";
import { HandoffFacet } from "../assistant/facets/handoff";
import { LeadsFacet } from "../assistant/facets/leads";
import { WebhooksFacet } from "../assistant/facets/webhooks";
import { PrivacyFacet } from "../assistant/facets/privacy";
import { gone, type Gone } from "../assistant/gone";
import type { InboxRelay } from "../assistant/hub-handoff";
import { HubCore, ownId } from "../assistant/hub-core";
import { beginVisitorTurn, budgetGate, countBudget, type BeginTurnInput, type BeginTurnResult, type BudgetStep } from "../assistant/hub-visitor-turn";
import { AssistantBudget } from "../budgets/assistant-budget";
import type { Env } from "../env";
import type { CuratedAnswer } from "../assistant/hub-qa";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { retryAfterSeconds } from "../services/rate-limit";
import { toWidgetMessage } from "../services/widget/visitor-session-rows";
import type { Passage } from "../widget/prompt";

/** What `finishTurn` saves: the answer, its sources, and whether it offers a person or the lead form. */
export interface FinishTurnInput {
  sessionId: string;
  messageId: string;
  content: string;
  sources: WidgetSource[];
  askedAt: number;
  offersHandoff?: boolean | undefined;
  offersLeadForm?: boolean | undefined;
  leadTrigger?: "asked" | "unanswered" | undefined;
}

/** A visitor turn's request: the object knows its own assistant. */
export type TurnRequest = Omit<BeginTurnInput, "assistantId">;
export type { BeginTurnResult } from "../assistant/hub-visitor-turn";

export type ApiCallAdmission =
  | {
      ok: true;
      passages: Passage[] | null;
      /** The pair the question matched (hub-qa.ts): `exact`, the reply itself; `guide`, the first passage. Absent from an older object. */
      curated?: CuratedAnswer | null;
      assistant: Pick<PublicAssistantRecord, "id" | "name" | "instructions">;
    }
  | { ok: false; retryAfter: number; budget?: true }
  | { ok: false; denied: ApiAccessDenied };

export type ApiKeyCheck = { ok: true; assistant: Pick<PublicAssistantRecord, "id" | "createdAt"> } | { ok: false; denied: ApiAccessDenied };

/**
 * One public assistant's own Durable Object, named by the assistant's id (SQLite-backed), reached
 * through `getAssistantHub(env, assistantId)` (durable-objects/stubs.ts).
 *
 * What must be one synchronous step stays a method here: a visitor turn is two short RPCs,
 * `beginTurn` (authorise, check the session, admit against the counters, read the history, save
 * the visitor's message) and `finishTurn` (save the answer), and `/v1` is `admitApiCall` (and
 * `checkApiKey` for its model list). The
 * model streams in the caller (WidgetRoom, the SSE route, /v1), never here, so a popular
 * assistant's object only runs short local-SQLite work. The copy of the assistant that those
 * steps trust changes only through `configChanging` / `configChanged` / `erase`.
 *
 * Every other concern is a typed facet (assistant/facets/): `knowledge()`, `webSources()`,
 * `visitors()`, `history()`, `identity()`, `insights()`, `budgets()`, `sockets()`, `qa()`, `handoff()`, `leads()`, `webhooks()`, `privacy()`; each call of
 * theirs passes the gate (assistant/hub-gate.ts) and answers `gone` once the assistant was
 * deleted. The object knows its id from its name; its storage migrations run once when it
 * starts; its alarm runs the named jobs of assistant/hub-core.ts.
 */
export class AssistantHub extends DurableObject<Env> {
  private readonly core: HubCore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.core = new HubCore(ownId(ctx), ctx, env);
    void ctx.blockConcurrencyWhile(() => this.core.start());
  }

  // ── Turns: one synchronous step each ────────────────────────────────────────────────────────

  /** Before the model: authorise, check the session, admit, read the history, save the visitor's message (assistant/hub-visitor-turn.ts). */
  async beginTurn(input: TurnRequest): Promise<BeginTurnResult> {
    const opened = await this.core.open();
    const steps: BudgetStep[] = [];
    const begun = await beginVisitorTurn(this.env, this.ctx.storage, opened, { ...input, assistantId: this.core.assistantId }, { identity: this.core.identity, qa: this.core.qa, handoff: this.core.handoff }, (step) => steps.push(step));
    for (const step of steps) await this.core.afterBudget(opened?.assistant.record, step);
    return begun;
  }

  /**
   * After the model: saves the answer with its sources (kept for the owner whatever the visitor
   * sees; `offersHandoff`: the reply offers a person). Null: the session is gone. `inbox`: the
   * owner's frame for the rooms watching (relay it after your own frames), null when nobody watches.
   */
  async finishTurn(input: FinishTurnInput): Promise<{ message: WidgetMessage; inbox: InboxRelay | null } | null | Gone> {
    const opened = await this.core.open();
    if (!opened) return gone;
    if (!opened.store.session(input.sessionId)) return null;
    const reply = opened.store.saveMessage({
      id: input.messageId,
      sessionId: input.sessionId,
      role: "assistant",
      content: input.content,
      files: [],
      sources: input.sources,
      at: Math.max(Date.now(), input.askedAt + 1),
      offersHandoff: input.offersHandoff === true,
      offersLeadForm: input.offersLeadForm === true,
      leadTrigger: input.leadTrigger,
    });
    await this.core.webhooks.recordAnswer(opened.store, input.sessionId, reply, input.sources, { handoff: input.offersHandoff === true, leadForm: input.offersLeadForm === true });
    return { message: toWidgetMessage(reply, opened.assistant.record.showSources), inbox: this.core.handoff.messageRelay(opened, input.sessionId, reply) };
  }

  /**
   * /v1/chat/completions: the caller's secret key (its hash) and Origin against the copy
   * (`denied`: not a key in use, 401; the assistant inactive or the Origin refused, 403), then one
   * message against the assistant's monthly budgets and its day (no session, no network share;
   * `budget`: a budget pauses it), then, with `query`, the passages for it (null when retrieval
   * failed) and the curated answer, as a visitor's turn gets them (an `exact` pair matched word
   * for word takes no monthly budget: no model answers), and what the answer's prompt needs of
   * the assistant.
   */
  async admitApiCall(input: {
    /**
     * The caller's secret key's hash. Absent: a worker version from before the copy held the
     * secret keys (a deployment under way), which read the key, the active flag and the Origin in
     * D1 on that very call.
     */
    keyHash?: string;
    /** The caller's normalised Origin; "" for a server. */
    origin?: string;
    query?: string;
    /** The visitor's question alone (the relevance floor's words); `query` when absent. */
    question?: string;
  }): Promise<ApiCallAdmission | Gone> {
    const opened = await this.core.open();
    if (!opened) return gone;
    const denied = input.keyHash === undefined ? null : apiAccess(opened.assistant, input.keyHash, input.origin ?? "");
    if (denied) return { ok: false, denied };
    const { record } = opened.assistant;
    const { config } = record;
    // Budgets, then the day's counter, then the month's count: one synchronous step (exact).
    const now = Date.now();
    const budget = new AssistantBudget(this.ctx.storage);
    const steps: BudgetStep[] = [];
    const exact = input.query === undefined ? null : this.core.exactCurated(record, input.question ?? input.query);
    const admitted = ((): { ok: false; retryAfter: number; budget?: true } | null => {
      const paused = exact ? null : budgetGate(budget, record, now, (step) => steps.push(step));
      if (paused) return { ok: false, budget: true, retryAfter: paused.retryAfter ?? 60 };
      const result = opened.store.admit({ maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit });
      if (!result.allowed) return { ok: false, retryAfter: result.daily ? retryAfterSeconds(result.daily) : 60 };
      if (!exact) countBudget(budget, record, now, (step) => steps.push(step));
      return null;
    })();
    for (const step of steps) await this.core.afterBudget(record, step);
    if (admitted) return admitted;
    const found = input.query === undefined ? { passages: [], curated: null } : await this.core.retrieveWithCurated(record, input.query, input.question ?? input.query, { countUse: true });
    return { ok: true, ...found, assistant: { id: record.id, name: record.name, instructions: record.instructions } };
  }

  /**
   * /v1/models: the caller's secret key (its hash) and Origin against the copy, as `admitApiCall`
   * checks them, and nothing counted: the assistant's id and when it was created.
   */
  async checkApiKey(input: { keyHash: string; origin: string }): Promise<ApiKeyCheck | Gone> {
    const opened = await this.core.open();
    if (!opened) return gone;
    const denied = apiAccess(opened.assistant, input.keyHash, input.origin);
    if (denied) return { ok: false, denied };
    const { record } = opened.assistant;
    return { ok: true, assistant: { id: record.id, createdAt: record.createdAt } };
  }

  // ── The copy of the assistant, revocation, erasure ───────────────────────────────────────────

  /**
   * Before an owner's D1 write that changes the assistant: the copy is re-read from D1 until this
   * write's `configChanged` (or its deadline). Returns the write's token for `configChanged`.
   */
  async configChanging(): Promise<string> {
    return this.core.gate.configChanging();
  }

  /**
   * After the owner's D1 write: the copy is read again from D1 and this write's marker (`token`,
   * from `configChanging`) removed (trusted once no other write is pending); then, with `revoke`,
   * the open widget sockets close. Returns how many sockets were closed.
   */
  async configChanged(input: { token?: string; revoke?: { close: WidgetSocketClose; allowedOrigins?: readonly string[] } } = {}): Promise<number> {
    await this.core.gate.configChanged(this.core.assistantId, input.token);
    await this.core.settingsChanged();
    if (!input.revoke) return 0;
    // Switched off or its key regenerated: every takeover ends (the visitor and the owner are told).
    if (input.revoke.close.code === widgetSocketClose.unavailable.code) await this.endHandoffs();
    return this.core.sockets.revoke(input.revoke.close, input.revoke.allowedOrigins);
  }

  /**
   * The assistant is being deleted: its sockets close, its storage is erased and a tombstone
   * stays, so no later call creates it again (hub-gate.ts `erased`). Idempotent: the owner's
   * DELETE retries it until it answers.
   */
  async erase(close: WidgetSocketClose): Promise<number> {
    await this.endHandoffs();
    const closed = await this.core.sockets.revoke(close);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.core.gate.markErased();
    this.core.alarms.forget();
    this.core.sockets.forget();
    this.core.handoff.watchers.forget();
    this.core.webhooks.forget();
    return closed;
  }

  /** Every handoff ends and is told (a revocation, an erasure); an erased object has none. */
  private async endHandoffs() {
    if (this.core.gate.erased()) return;
    const opened = await this.core.open().catch(() => null);
    if (opened) await this.core.handoff.endAll(opened);
  }

  // ── Facets ──────────────────────────────────────────────────────────────────────────────────

  knowledge(): KnowledgeFacet {
    return new KnowledgeFacet(this.core);
  }
  webSources(): WebSourcesFacet {
    return new WebSourcesFacet(this.core);
  }
  visitors(): VisitorsFacet {
    return new VisitorsFacet(this.core);
  }
  history(): HistoryFacet {
    return new HistoryFacet(this.core);
  }
  identity(): IdentityFacet {
    return new IdentityFacet(this.core);
  }
  insights(): InsightsFacet {
    return new InsightsFacet(this.core);
  }
  budgets(): BudgetsFacet {
    return new BudgetsFacet(this.core);
  }
  sockets(): SocketsFacet {
    return new SocketsFacet(this.core);
  }
  qa(): QaFacet {
    return new QaFacet(this.core);
  }
  handoff(): HandoffFacet {
    return new HandoffFacet(this.core);
  }
  leads(): LeadsFacet {
    return new LeadsFacet(this.core);
  }
  webhooks(): WebhooksFacet {
    return new WebhooksFacet(this.core);
  }
  privacy(): PrivacyFacet {
    return new PrivacyFacet(this.core);
  }

  /** The named alarms that are due (budget e-mails, the report to the owner, web sources, a grace's end, retention). */
  override async alarm(): Promise<void> {
    if (this.core.gate.erased()) return;
    await this.core.alarms.run();
  }
}

declare module "../env" {
  /** What a stub of this object can be asked (`Env`'s namespace names this interface). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the class is the interface
  interface AssistantHubRpc extends AssistantHub {}
}
