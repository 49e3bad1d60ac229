import { RpcTarget } from "cloudflare:workers";
import { visitorIdentity, visitorIdentityMessages, type VerifiedVisitor, type VisitorConversationsResponse, type WidgetSessionResponse } from "../../../contract";
import { retryAfterSeconds } from "../../services/rate-limit";
import { consumeIpSession } from "../../services/widget/widget-limits";
import { toWidgetMessage } from "../../services/widget/visitor-session-rows";
import type { AssistantCopy } from "../assistant-copy";
import { BotDefenceStore, type SessionProof } from "../bot-defence-store";
import type { Gone } from "../gone";
import { conversationHandoff, everHandedOff } from "../handoff-store";
import type { HubCore } from "../hub-core";
import type { OpenedHub } from "../hub-gate";
import { eventVisitor } from "../hub-webhooks";
import { LeadStore } from "../lead-store";
import { sessionVisitor, type VisitorSessionRow, type VisitorStore } from "../visitor-store";
import { whenOpen } from "./run";

const USER_AGENT_CHARS = 512;

/** A refusal of the visitor's identity (401 with `error`, a visitorIdentityMessages sentence). */
export type IdentityRefusal = { ok: false; identity: string };

/** A widget read of one session: sentinels, never a throw. */
export type SessionAccess<T> = { ok: true; value: T } | { ok: false; reason: "no-session" } | IdentityRefusal;

export interface StartSessionInput {
  visitorSessionId?: string | undefined;
  referrer: string;
  locale: string;
  origin: string;
  userAgent: string;
  ip: string;
  /** The proof-of-work the caller sent, as the worker verified it (services/widget/bot-defence.ts). */
  proof?: SessionProof | undefined;
  /** The site's signed visitor token, verified here (never downgraded to anonymous). */
  userToken?: string | undefined;
}

export type StartSessionResult =
  | { ok: true; created: boolean; session: WidgetSessionResponse }
  | { ok: false; retryAfter: number }
  | { ok: false; proof: { refused: boolean; difficulty: number } }
  | IdentityRefusal;

/**
 * `hub.visitors()`: a visitor's side of the assistant's sessions (the caller authorised the key):
 * starting or resuming one, reading it, a signed visitor's conversations. Every method answers
 * `gone` once the assistant was deleted.
 */
export class VisitorsFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /**
   * POST /api/widget/sessions: resumes `visitorSessionId` when it is an open session here (no
   * proof ever needed), else starts one: the bot defence first (a proof-of-work is needed in mode
   * "always" or on a spike, and a verified one is spent once, in this synchronous step;
   * bot-defence-store.ts), then the per-IP session throttle, which counts only a new session.
   */
  start(input: StartSessionInput): Promise<StartSessionResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<StartSessionResult> => {
      const { store } = opened;
      // A token that does not verify is refused: never an anonymous session instead.
      let visitor: VerifiedVisitor | undefined;
      if (input.userToken !== undefined) {
        const verified = await this.#core.identity.verify(this.#core.assistantId, input.userToken);
        if (!verified.ok) return { ok: false, identity: verified.error };
        visitor = verified.visitor;
      }
      if (input.visitorSessionId) {
        const existing = store.openSession(input.visitorSessionId);
        // Resumed only by its own kind of caller: an anonymous session anonymously, a verified
        // visitor's by the same sub (from any device). Anyone else gets a new session of their
        // own, and learns nothing about that one.
        if (existing && (existing.visitorSub ?? null) === (visitor?.id ?? null)) {
          if (visitor) store.updateVisitor(existing.id, visitor);
          return { ok: true, created: false, session: widgetSession(this.#core.storage, store, opened.assistant, store.session(existing.id)!) };
        }
      }
      const caller = { address: input.ip, userAgent: input.userAgent };
      const gate = new BotDefenceStore(this.#core.storage).admitNewSession(opened.assistant.record.config.botDefence, caller, input.proof);
      if (!gate.pass) return { ok: false, proof: { refused: gate.refused, difficulty: gate.difficulty } };
      const throttle = await consumeIpSession(this.#core.env, input.ip);
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
      await this.#core.webhooks.record(
        "conversation.started",
        { sessionId: row.id, startedAt: row.startedAt, origin: row.origin, referrer: row.referrer, locale: row.locale, ...(visitor ? { visitor: eventVisitor(store.session(row.id)!) } : {}) },
        row.startedAt,
      );
      return { ok: true, created: true, session: widgetSession(this.#core.storage, store, opened.assistant, store.session(row.id)!) };
    });
  }

  /**
   * GET /api/widget/sessions/:id: the open session with its messages and what is left. A verified
   * visitor's session needs a token of that visitor (`visitorToken`, X-Visitor-Token).
   */
  get(input: { sessionId: string; visitorToken?: string | undefined }): Promise<SessionAccess<WidgetSessionResponse> | Gone> {
    return whenOpen(this.#core, async (opened): Promise<SessionAccess<WidgetSessionResponse>> => {
      const row = opened.store.openSession(input.sessionId);
      if (!row) return { ok: false, reason: "no-session" };
      const refused = await visitorCheck(this.#core, row, input.visitorToken);
      if (refused) return refused;
      return { ok: true, value: widgetSession(this.#core.storage, opened.store, opened.assistant, row) };
    });
  }

  /**
   * The socket route, before the room: is this an open session here, and, when it is a verified
   * visitor's, does `visitorToken` verify as that visitor. `visitorSub` goes to the room, which
   * hands it to `beginTurn` (verified on connect, so a frame costs no HMAC).
   */
  forSocket(input: { sessionId: string; visitorToken?: string | undefined }): Promise<SessionAccess<{ visitorSub: string | null }> | Gone> {
    return whenOpen(this.#core, async (opened): Promise<SessionAccess<{ visitorSub: string | null }>> => {
      const row = opened.store.openSession(input.sessionId);
      if (!row) return { ok: false, reason: "no-session" };
      const refused = await visitorCheck(this.#core, row, input.visitorToken);
      if (refused) return refused;
      return { ok: true, value: { visitorSub: row.visitorSub ?? null } };
    });
  }

  /** GET /api/widget/conversations: the verified visitor's open conversations, newest first. */
  conversations(input: { visitorToken: string }): Promise<{ ok: true; value: VisitorConversationsResponse } | IdentityRefusal | Gone> {
    return whenOpen(this.#core, async (opened): Promise<{ ok: true; value: VisitorConversationsResponse } | IdentityRefusal> => {
      const verified = await this.#core.identity.verify(this.#core.assistantId, input.visitorToken);
      if (!verified.ok) return { ok: false, identity: verified.error };
      const conversations = opened.store.visitorConversations(verified.visitor.id, visitorIdentity.listedConversations);
      return { ok: true, value: { visitor: verified.visitor, conversations } };
    });
  }

  /** Whether this is an open session of the assistant (the SSE route checks before the turn). */
  isOpen(sessionId: string): Promise<boolean | Gone> {
    return whenOpen(this.#core, (opened) => Boolean(opened.store.openSession(sessionId)));
  }
}

/** Null when `row` is anonymous or `token` verifies as its visitor; else the refusal (tokenRequired without a token or for another visitor). */
export async function visitorCheck(core: HubCore, row: VisitorSessionRow, token: string | undefined): Promise<IdentityRefusal | null> {
  if (!row.visitorSub) return null;
  if (!token) return { ok: false, identity: visitorIdentityMessages.tokenRequired };
  const verified = await core.identity.verify(core.assistantId, token);
  if (!verified.ok) return { ok: false, identity: verified.error };
  return verified.visitor.id === row.visitorSub ? null : { ok: false, identity: visitorIdentityMessages.tokenRequired };
}

/** The verified visitor whose sessions share the per-session limit, when the owner counts per user (visitorLimitScope). */
export function limitSub(opened: Pick<OpenedHub, "assistant">, row: Pick<VisitorSessionRow, "visitorSub">): string | null {
  return opened.assistant.record.config.visitorLimitScope === "user" ? (row.visitorSub ?? null) : null;
}

function widgetSession(storage: DurableObjectStorage, store: VisitorStore, assistant: AssistantCopy, row: VisitorSessionRow): WidgetSessionResponse {
  const { config, showSources } = assistant.record;
  const visitor = sessionVisitor(row);
  // A conversation that sent a lead is not offered the form again, not even by an earlier reply.
  const leadAt = new LeadStore(storage).firstAt(row.id);
  const leadSent = leadAt !== null;
  const messages = store.messages(row.id).map((m) => toWidgetMessage(leadSent ? { ...m, offersLeadForm: false } : m, showSources));
  return {
    sessionId: row.id,
    messages,
    remaining: store.remaining({
      sessionId: row.id,
      maxMessagesPerSession: config.maxMessagesPerSession,
      dailyLimit: config.dailyLimit,
      userSub: limitSub({ assistant }, row),
    }),
    ...(visitor ? { visitor } : {}),
    ...(everHandedOff(row) ? { handoff: conversationHandoff(row, config.handoff) } : {}),
    // Where the widget shows the owner's thank-you line again: after the last message it shows that came before the lead.
    ...(leadSent ? { leadSent, leadAfter: messages.findLast((m) => m.role !== "system" && m.timestamp <= leadAt)?.id ?? null } : {}),
  };
}
