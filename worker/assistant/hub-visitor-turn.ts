import { handoffLimits, knowledgeSearch, qaLimits, visitorIdentityMessages, widget, type ConversationHandoff, type QaStrictness, type WidgetMessage, type WidgetRemaining } from "../../contract";
import type { Env } from "../env";
import { IndexVectorStore, VectorizeStore, embeddingProviderFromEnv, hybridSearch, relevanceFloorFor, relevantHits, type EmbeddingProvider } from "../knowledge";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { AssistantBudget } from "../budgets/assistant-budget";
import { consumeIpMessage } from "../services/ip-throttle";
import { attachmentsRefusal, budgetRefusal, ipRefusal, toMessageAdmission, waitForPersonRefusal, type MessageRefusal } from "../services/widget/admit-visitor-message";
import { toWidgetMessage } from "../services/widget/visitor-session-rows";
import { handoffIntent, type HandoffLanguage } from "../widget/handoff-intent";
import { retrievalQuery, type HistoryTurn, type Passage } from "../widget/prompt";
import { widgetAccess, type AccessDenied } from "./assistant-copy";
import { BotDefenceStore } from "./bot-defence-store";
import { conversationHandoff, handoffOf, HandoffStore } from "./handoff-store";
import type { OpenedHub } from "./hub-gate";
import type { HubHandoff, InboxRelay } from "./hub-handoff";
import { leadOfferFor, offersLeadFormOnGap } from "./hub-leads";
import { localKnowledgeIndex } from "./hub-knowledge-index";
import { curatedStep, embedTurnTexts, exactLexicalMatch, type CuratedAnswer, type HubQa } from "./hub-qa";
import type { HubIdentity } from "./identity-secrets";
import { InsightsStore } from "./insights-store";
import { KnowledgeStore } from "./knowledge-store";

/**
 * The visitor-turn half of an assistant's own object (AssistantHub.beginTurn), and the retrieval
 * next to its knowledge index that a turn and /v1 share. No import from `cloudflare:workers`.
 */

export interface BeginTurnInput {
  assistantId: string;
  /** The publishable key's hash and the caller's normalised Origin: checked against the copy. */
  keyHash: string;
  origin: string;
  sessionId: string;
  /** The caller's network (clientIp): the per-IP throttle and the network's daily share. */
  ip: string;
  message: { content: string; files: { name: string }[] };
  /**
   * For a verified visitor's session only: the visitor's token (the SSE route's
   * X-Visitor-Token, verified here), or the sub the socket route verified when the socket
   * connected (the room hands it on; only the worker reaches a room).
   */
  visitorToken?: string | undefined;
  verifiedSub?: string | null | undefined;
}

/**
 * What the budget step of a turn leaves for after it (the hub schedules it once the turn's step
 * is over, off the visitor's path): `notice`, a budget e-mail is waiting; `report`, tell the
 * owner's room the month's count (a message was counted); `recheck`, the owner's pause refused it
 * (re-ask the room); `at`, when the step ran: the month reported is that of the count, not of
 * the end of the turn (its retrieval may end in the next month).
 */
export interface BudgetStep {
  notice: boolean;
  report: boolean;
  recheck: boolean;
  at: number;
}

export type BeginTurnResult =
  | { outcome: "denied"; denied: AccessDenied }
  | { outcome: "no-session" }
  | { outcome: "refused"; refusal: MessageRefusal; limits?: { maxMessagesPerSession: number; dailyLimit: number } }
  | {
      /**
       * A person was asked for or has the conversation: the visitor's message is saved (echo it as
       * `new-message`), never reaches the model and counts against no business limit.
       */
      outcome: "with-person";
      session: { id: string };
      saved: WidgetMessage;
      handoff: ConversationHandoff;
      remaining: WidgetRemaining;
      limits: { maxMessagesPerSession: number; dailyLimit: number };
      /** The owner's inbox frame for the rooms watching (relay it after your own frames); null when nobody watches. */
      inbox: InboxRelay | null;
    }
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
      /** The curated answer the question matched (hub-qa.ts): `exact` is the reply itself, no model. */
      curated: CuratedAnswer | null;
      /** The visitor plainly asked for a person and the owner offers one: the reply is `handoffMessages.offerReply[language]`, no model. */
      offer: HandoffLanguage | null;
      /** The visitor asked to be contacted and the owner's lead form shows then: the reply is `leadMessages.offerReply[language]`, no model. */
      leadOffer: HandoffLanguage | null;
      /** The reply offers the owner's lead form (asked to be contacted, or a knowledge gap with `whenUnanswered`). */
      offersLeadForm: boolean;
      /** The owner's inbox frame of the visitor's message for the rooms watching; null when nobody watches. */
      inbox: InboxRelay | null;
      /** The owners' rooms that opened this conversation: its reply's thinking and deltas are streamed to them. */
      watchSession: string[];
    };

/**
 * Before the model: the key, active flag and origin against the copy; the session (open, this
 * assistant's); attachments; the per-IP throttle; then the session's, the network's and the
 * day's counters in one synchronous check-and-increment, the monthly budgets checked before them and
 * the month's count moved with them (budgets/assistant-budget.ts); the history; the visitor's message saved
 * and counted in the owner's insights (its day, and a conversation when it is the session's
 * first), in the same synchronous step; after the retrieval, its question (a gap when retrieval
 * found nothing). Insights never fail a turn: a counting error is logged and the turn goes on.
 */
export async function beginVisitorTurn(
  env: Env,
  storage: DurableObjectStorage,
  opened: OpenedHub | null,
  input: BeginTurnInput,
  parts: { identity: Pick<HubIdentity, "verify">; qa: HubQa; handoff: HubHandoff },
  onBudget: (step: BudgetStep) => void = () => {},
): Promise<BeginTurnResult> {
  const denied = widgetAccess(opened?.assistant ?? "missing", input.keyHash, input.origin);
  if (denied || !opened) return { outcome: "denied", denied: denied ?? "unavailable" };
  const { store } = opened;
  const { record } = opened.assistant;
  const open = store.openSession(input.sessionId);
  if (!open) return { outcome: "no-session" };
  const identityRefusal = await visitorRefusal(parts.identity, input, open.visitorSub ?? null);
  if (identityRefusal) return { outcome: "refused", refusal: identityRefusal };
  const attachments = attachmentsRefusal(input.message.files.length, record.config.allowAttachments);
  if (attachments) return { outcome: "refused", refusal: attachments };
  const ip = await consumeIpMessage(env, input.ip);
  const limits = { maxMessagesPerSession: record.config.maxMessagesPerSession, dailyLimit: record.config.dailyLimit };
  const throttled = ipRefusal(ip);
  if (throttled) return { outcome: "refused", refusal: throttled };
  // From here to the save, nothing awaits: the counters and the history are one atomic step.
  const session = store.openSession(input.sessionId);
  if (!session) return { outcome: "no-session" };
  const now = Date.now();
  if (handoffOf(session).state !== "none") return withPerson(storage, opened, input, session, limits, parts.handoff);
  const budget = new AssistantBudget(storage);
  // A plain request for a person, when the owner offers one, is answered with the offer: no model,
  // no monthly budget (as an exact curated answer), no retrieval.
  const offer = record.config.handoff.visitorAction ? handoffIntent(input.message.content) : null;
  // A request to be contacted, when the owner's lead form shows then, is answered with the form the same way.
  const leadOffer = offer ? null : leadOfferFor(storage, record, session.id, input.message.content);
  const fixed = offer ?? leadOffer;
  // A question a curated answer replies to word for word calls no model: it takes no monthly budget
  // and is answered when the budget paused the assistant (vector matches are known only after the
  // await below: those count).
  const strictness = record.config.qaStrictness ?? qaLimits.defaultStrictness;
  const exact = fixed ? null : guardedMatch(input.assistantId, () => exactLexicalMatch(storage, parts.qa, input.message.content, strictness));
  const paused = exact || fixed ? null : budgetGate(budget, record, now, onBudget);
  if (paused) return { outcome: "refused", refusal: paused };
  const userSub = record.config.visitorLimitScope === "user" ? (session.visitorSub ?? null) : null;
  const admission = toMessageAdmission(store.admit({ sessionId: session.id, network: input.ip, ...limits, userSub }));
  if (!admission.ok) return { outcome: "refused", refusal: admission, limits };
  // A message spike from one address turns the proof-of-work on for its new sessions (bot-defence-store.ts); never fails the turn.
  try {
    new BotDefenceStore(storage).countMessage(input.ip);
  } catch (error) {
    console.error(JSON.stringify({ event: "bot-defence-count-failed", assistantId: input.assistantId, error: String(error) }));
  }
  if (!exact && !fixed) countBudget(budget, record, now, onBudget);
  // A person's messages read as the site's side of the conversation.
  const history = store.messages(session.id, widget.historyMessages).map((m): HistoryTurn => ({ role: m.role === "user" ? "user" : "assistant", content: m.content }));
  const saved = store.saveMessage({
    sessionId: session.id,
    role: "user",
    content: input.message.content,
    files: input.message.files.map((f) => ({ name: f.name })),
    sources: [],
    at: Date.now(),
  });
  const insights = new InsightsStore(storage);
  countInsight(input.assistantId, () => insights.countVisitorMessage(saved.createdAt, history.length === 0));
  const inbox = parts.handoff.messageRelay(opened, session.id, saved);
  const watchSession = parts.handoff.watchers.forSession(session.id);
  const admitted = (found: { passages: Passage[] | null; curated: CuratedAnswer | null }, offered: { offer?: typeof offer; leadOffer?: typeof leadOffer; offersLeadForm?: boolean }) => ({
    outcome: "admitted" as const,
    assistant: record,
    session: { id: session.id, startedAt: session.startedAt, locale: session.locale },
    history,
    saved: toWidgetMessage(saved, record.showSources),
    remaining: admission.remaining,
    ...found,
    offer: offered.offer ?? null,
    leadOffer: offered.leadOffer ?? null,
    offersLeadForm: Boolean(offered.leadOffer) || offered.offersLeadForm === true,
    inbox,
    watchSession,
  });
  if (offer) {
    new HandoffStore(storage, store).markOffered(session.id, now);
    return admitted({ passages: [], curated: null }, { offer });
  }
  if (leadOffer) return admitted({ passages: [], curated: null }, { leadOffer });
  const { passages, curated } = await retrieveWithCurated(env, storage, parts.qa, {
    assistantId: input.assistantId,
    query: retrievalQuery(input.message.content, history),
    question: input.message.content,
    strictness,
    skipKnowledge: exact !== null,
  });
  if (curated) countInsight(input.assistantId, () => insights.countCurated(saved.createdAt, curated.mode));
  // null: retrieval failed, which says nothing about the knowledge (not a gap); [] found nothing.
  const gap = !curated && passages !== null && passages.length === 0;
  countInsight(input.assistantId, () => insights.countQuestion({ text: input.message.content, sessionId: session.id, at: saved.createdAt, gap }));
  return admitted({ passages, curated }, { offersLeadForm: offersLeadFormOnGap(storage, record, session.id, gap) });
}

/**
 * A message while a person was asked for or has the conversation (after the per-IP throttle): saved
 * and shown, with no counter, no budget, no model; a takeover's idle end counts from it. At most
 * handoffLimits.maxUnansweredMessages in a row until the person writes (429 waitForPerson).
 */
function withPerson(
  storage: DurableObjectStorage,
  opened: OpenedHub,
  input: BeginTurnInput,
  session: NonNullable<ReturnType<OpenedHub["store"]["openSession"]>>,
  limits: { maxMessagesPerSession: number; dailyLimit: number },
  handoff: HubHandoff,
): BeginTurnResult {
  const { store } = opened;
  const { record } = opened.assistant;
  const handoffStore = new HandoffStore(storage, store);
  if (handoffStore.unanswered(session) >= handoffLimits.maxUnansweredMessages) return { outcome: "refused", refusal: waitForPersonRefusal(), limits };
  const first = session.messageCount === 0;
  const saved = store.saveMessage({
    sessionId: session.id,
    role: "user",
    content: input.message.content,
    files: input.message.files.map((f) => ({ name: f.name })),
    sources: [],
    at: Date.now(),
  });
  handoffStore.touch(session.id, saved.createdAt);
  countInsight(input.assistantId, () => new InsightsStore(storage).countVisitorMessage(saved.createdAt, first));
  const userSub = record.config.visitorLimitScope === "user" ? (session.visitorSub ?? null) : null;
  return {
    outcome: "with-person",
    session: { id: session.id },
    saved: toWidgetMessage(saved, record.showSources),
    handoff: conversationHandoff(session, record.config.handoff),
    remaining: store.remaining({ sessionId: session.id, ...limits, userSub }),
    limits,
    inbox: handoff.messageRelay(opened, session.id, saved),
  };
}

/**
 * Synchronous, before the counters: the refusal when a monthly budget pauses the assistant (its
 * own, used up with "pause", or the owner's all-assistants one), else null. A refusal by the
 * assistant's own budget records a threshold not yet told (a budget lowered below the month's use).
 */
export function budgetGate(budget: AssistantBudget, record: PublicAssistantRecord, now: number, onBudget: (step: BudgetStep) => void): MessageRefusal | null {
  const by = budget.refusal(record.config, now);
  if (!by) return null;
  const notice = by === "assistant" && budget.notify({ config: record.config, name: record.name, userId: record.userId, now });
  onBudget({ notice, report: false, recheck: by === "owner", at: now });
  return budgetRefusal(now);
}

/** Synchronous, with the counters: one message in the month's count, and the thresholds it reached. */
export function countBudget(budget: AssistantBudget, record: PublicAssistantRecord, now: number, onBudget: (step: BudgetStep) => void) {
  const counted = budget.count({ config: record.config, name: record.name, userId: record.userId, now });
  onBudget({ notice: counted.notice, report: true, recheck: false, at: now });
}

/**
 * A verified visitor's session answers only that visitor: the sub the socket verified
 * on connect, or a token that verifies as them now. Null: allowed (an anonymous session, or the
 * right visitor). 401 with the reason otherwise, never answered as anonymous.
 */
async function visitorRefusal(identity: Pick<HubIdentity, "verify">, input: BeginTurnInput, sessionSub: string | null): Promise<MessageRefusal | null> {
  if (!sessionSub) return null;
  if (input.verifiedSub === sessionSub) return null;
  const refuse = (error: string): MessageRefusal => ({ ok: false, error, reason: "identity-invalid", code: "UNAUTHORIZED" });
  if (!input.visitorToken) return refuse(visitorIdentityMessages.tokenRequired);
  const verified = await identity.verify(input.assistantId, input.visitorToken);
  if (!verified.ok) return refuse(verified.error);
  return verified.visitor.id === sessionSub ? null : refuse(visitorIdentityMessages.tokenRequired);
}

/** The exact lexical match before the counters; a failure (a bug, never an input) is logged and the turn goes on without it. */
function guardedMatch<T>(assistantId: string, match: () => T): T | null {
  try {
    return match();
  } catch (error) {
    console.error(JSON.stringify({ event: "qa-match-failed", assistantId, error: String(error) }));
    return null;
  }
}

/**
 * The knowledge passages and the curated answer of a question, next to both: one embedder call
 * for the retrieval query and the question (when pairs have vectors), hybrid search (skipped when
 * an exact curated answer replies), then the pairs matched (hub-qa.ts `curatedStep`). A matching
 * failure leaves the knowledge passages as they are.
 */
export async function retrieveWithCurated(
  env: Env,
  storage: DurableObjectStorage,
  qa: HubQa,
  input: { assistantId: string; query: string; question: string; strictness: QaStrictness; skipKnowledge?: boolean; countUse?: boolean },
): Promise<{ passages: Passage[] | null; curated: CuratedAnswer | null }> {
  const wantVector = !input.skipKnowledge && (guardedMatch(input.assistantId, () => qa.hasVectors(storage)) ?? false);
  const vectors = input.skipKnowledge ? null : await embedTurnTexts(env, input.assistantId, input, wantVector);
  const passages = input.skipKnowledge ? [] : await retrieveNearIndex(env, storage, input.assistantId, input, vectors ?? undefined);
  const step = guardedMatch(input.assistantId, () => curatedStep(storage, qa, { question: input.question, strictness: input.strictness, vector: vectors?.question ?? null, passages, countUse: input.countUse }));
  return step ?? { passages, curated: null };
}

/** Runs one insights count; a failure (a bug, never an input) is logged, never thrown into the turn. */
function countInsight(assistantId: string, count: () => void) {
  try {
    count();
  } catch (error) {
    console.error(JSON.stringify({ event: "insights-count-failed", assistantId, error: String(error) }));
  }
}

/**
 * The passages answers may use, next to the index: hybrid search (BM25 here; vectors from
 * Vectorize or the chunks' blobs) over `query` (the question and the visitor's earlier ones),
 * then the relevance floor (worker/knowledge/relevance.ts) on `question`, best first, at most
 * `widget.retrievalResults`. [] when nothing clears the floor (an Insights gap; the prompt tells
 * the model no document covers it); null when retrieval failed. Visitor turns, /v1, the
 * Playground and offline answers all take their passages from here.
 */
export async function retrieveNearIndex(
  env: Env,
  storage: DurableObjectStorage,
  assistantId: string,
  input: { query: string; question: string },
  embedded?: { embedder: EmbeddingProvider | null; query: Float32Array | null },
): Promise<Passage[] | null> {
  try {
    const index = localKnowledgeIndex(new KnowledgeStore(storage));
    const vectors = env.VECTORIZE ? new VectorizeStore(env.VECTORIZE, { scopedIds: true }) : new IndexVectorStore(() => index);
    const embedder = embedded ? embedded.embedder : embeddingProviderFromEnv(env);
    // More candidates than the prompt takes, so passages under the floor do not crowd out one above it.
    const found = await hybridSearch({ index, assistantId, query: input.query, question: input.question, embedder, vectors, k: knowledgeSearch.maxResults, queryVector: embedded?.query ?? null });
    if (found.vectorError) console.error(JSON.stringify({ event: "widget-vector-search-failed", assistantId, error: found.vectorError }));
    const relevant = relevantHits(found.hits, input.question, relevanceFloorFor(embedder?.model), input.query).slice(0, widget.retrievalResults);
    return relevant.map((h) => ({ fileId: h.fileId, fileName: h.fileName, heading: h.heading, content: h.content, ...(h.url ? { url: h.url } : {}) }));
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-retrieval-failed", assistantId, error: String(error) }));
    return null;
  }
}
