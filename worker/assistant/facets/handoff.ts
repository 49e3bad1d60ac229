import { RpcTarget } from "cloudflare:workers";
import type { AgentAuthor, ConversationHandoff, InboxFilter, InboxResponse, VisitorMessage, VisitorSession, WidgetMessage } from "../../../contract";
import { toVisitorMessage } from "../../services/visitor-sessions/to-visitor-session";
import { toWidgetMessage } from "../../services/widget/visitor-session-rows";
import type { Gone } from "../gone";
import { conversationHandoff, handoffOf } from "../handoff-store";
import type { HubCore } from "../hub-core";
import type { OpenedHub } from "../hub-gate";
import type { HandoffTelling, InboxRelay } from "../hub-handoff";
import { InsightsStore } from "../insights-store";
import { eventVisitor } from "../hub-webhooks";
import { whenOpen } from "./run";
import { visitorCheck, type IdentityRefusal } from "./visitors";

type Missing = { ok: false; reason: "no-session" };

/** An owner's write on a conversation's handoff: the session as the owner reads it, and what to tell (the visitor's frame, the owners' relay). */
export type OwnerHandoffResult = { ok: true; session: VisitorSession; told: HandoffTelling | null } | Missing;

/** A person's message saved: its two shapes, the owners' relay, and the e-mail to a visitor who left (throttled; null: none). */
export type AgentMessageResult =
  | { ok: true; message: VisitorMessage; widgetMessage: WidgetMessage; relay: InboxRelay | null; email: { to: string; assistantName: string; agentName: string } | null }
  | Missing
  | { ok: false; reason: "not-taken" };

/** A visitor's request (or its cancellation): the handoff now, what to tell, and the e-mail to the owner (throttled; null: none). */
export type VisitorHandoffResult =
  | { ok: true; handoff: ConversationHandoff; told: HandoffTelling | null; email: { userId: string; assistantName: string; question: string } | null }
  | Missing
  | { ok: false; reason: "off" }
  | IdentityRefusal;

/**
 * `hub.handoff()`: a person taking over a visitor's conversation (handoff-store.ts, hub-handoff.ts).
 * The owner's side (the caller checked ownership in D1): the inbox, its watch, takeover, hand back,
 * a person's messages and typing, read marks. The visitor's side (the caller authorised the key;
 * a signed visitor's token is checked here): a request for a person and its cancellation. Each
 * write returns what its caller tells (`deliverToVisitor`, `relayToOwners`); every method answers
 * `gone` once the assistant was deleted.
 */
export class HandoffFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** A page of the inbox with its counts (`live`: the sessions with a socket or event stream open). */
  inbox(input: { filter: InboxFilter; page: number }): Promise<InboxResponse | Gone> {
    return whenOpen(this.#core, async (opened) => {
      const live = await this.#core.sockets.openIds();
      return this.#core.handoff.store(opened).inbox({ ...input, live, settings: opened.assistant.record.config.handoff, now: Date.now() });
    });
  }

  /** The navigation badge's figures for this assistant. */
  summary(): Promise<{ needsPerson: number; unread: number } | Gone> {
    return whenOpen(this.#core, (opened) => this.#core.handoff.store(opened).summary(Date.now()));
  }

  /** The owner's room watches the inbox (and `sessionId`'s replies) until `until`; `checkedAt`: when its role was read (inbox-watchers.ts). */
  watch(input: { room: string; sessionId?: string | undefined; until: number; checkedAt?: number | undefined }): Promise<true | Gone> {
    return whenOpen(this.#core, () => {
      this.#core.handoff.watchers.watch(input.room, input.sessionId, input.until, Date.now(), input.checkedAt);
      return true as const;
    });
  }

  /** A room stops watching (its user left the workspace or lost the inbox): no inbox frame reaches it from now. */
  unwatch(room: string): Promise<number | Gone> {
    return whenOpen(this.#core, () => this.#core.handoff.watchers.drop(room));
  }

  /**
   * The rooms to tell that the visitor types (WidgetRoom's relay of the visitor's `typing` frame,
   * services/realtime/relay-visitor-typing.ts): the owner with the watchers while a person was
   * asked for or has the conversation, else the watchers; empty when nobody is to be told.
   */
  visitorTyping(sessionId: string): Promise<string[] | Gone> {
    return whenOpen(this.#core, (opened) => {
      const row = opened.store.session(sessionId);
      if (!row) return [];
      return handoffOf(row).state === "none" ? this.#core.handoff.watchers.rooms() : this.#core.handoff.ownerAndWatchers(opened);
    });
  }

  /** The owner takes the conversation (from none or requested): the assistant pauses for it. */
  takeOver(input: { sessionId: string; agent: { author: AgentAuthor; userId: string } }): Promise<OwnerHandoffResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<OwnerHandoffResult> => {
      const row = opened.store.session(input.sessionId);
      if (!row) return { ok: false, reason: "no-session" };
      const now = Date.now();
      const taken = this.#core.handoff.store(opened).takeOver(row, input.agent, now);
      if (taken.changed) {
        countSafely(this.#core, () => new InsightsStore(this.#core.storage).countHandoff(now, "taken"));
        await this.#core.handoff.scheduleIdle(opened, this.#core.alarms, now);
      }
      return this.#ownerResult(opened, taken.session, true);
    });
  }

  /** Back to the assistant (from requested or taken). */
  handBack(sessionId: string): Promise<OwnerHandoffResult | Gone> {
    return whenOpen(this.#core, (opened): OwnerHandoffResult => {
      const row = opened.store.session(sessionId);
      if (!row) return { ok: false, reason: "no-session" };
      const ended = this.#core.handoff.store(opened).end(row);
      return this.#ownerResult(opened, ended.session, ended.changed);
    });
  }

  /**
   * A person's message (the conversation must be taken): saved with its author, counting against
   * no limit; the first of a handoff is timed for Insights. When the visitor has no socket or
   * event stream open and left an address (or is a signed visitor with one), an e-mail is due,
   * at most one per conversation per handoffLimits.emailIntervalMs.
   */
  agentMessage(input: { sessionId: string; content: string; author: AgentAuthor }): Promise<AgentMessageResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<AgentMessageResult> => {
      const row = opened.store.session(input.sessionId);
      if (!row) return { ok: false, reason: "no-session" };
      const h = handoffOf(row);
      if (h.state !== "taken") return { ok: false, reason: "not-taken" };
      const author = h.agent ?? input.author;
      const live = (await this.#core.sockets.openIds()).has(row.id);
      // Re-read after the await: the object may have run another call meanwhile.
      const session = opened.store.session(input.sessionId);
      if (!session || handoffOf(session).state !== "taken") return { ok: false, reason: "not-taken" };
      const now = Date.now();
      const saved = opened.store.saveMessage({ sessionId: session.id, role: "agent", content: input.content, files: [], sources: [], at: now, author });
      const store = this.#core.handoff.store(opened);
      const firstReplyMs = store.replied(session, now);
      if (firstReplyMs !== null) countSafely(this.#core, () => new InsightsStore(this.#core.storage).countFirstReply(now, session.id, firstReplyMs));
      const to = handoffOf(session).contactEmail ?? session.visitorEmail ?? null;
      const email = !live && to && store.reserveVisitorEmail(session, now) ? { to, assistantName: opened.assistant.record.name, agentName: author.name } : null;
      await this.#core.handoff.scheduleIdle(opened, this.#core.alarms, now);
      return {
        ok: true,
        message: toVisitorMessage(saved),
        widgetMessage: toWidgetMessage(saved, opened.assistant.record.showSources),
        relay: this.#core.handoff.messageRelay(opened, session.id, saved),
        email,
      };
    });
  }

  /** The person types: allowed only while the conversation is taken; the name the visitor sees. */
  agentTyping(sessionId: string): Promise<{ ok: true; name: string } | Missing | { ok: false; reason: "not-taken" } | Gone> {
    return whenOpen(this.#core, (opened) => {
      const row = opened.store.session(sessionId);
      if (!row) return { ok: false as const, reason: "no-session" as const };
      const h = handoffOf(row);
      return h.state === "taken" ? { ok: true as const, name: h.agent?.name ?? "" } : { ok: false as const, reason: "not-taken" as const };
    });
  }

  /** The owner read the conversation: its unread count goes back to 0. */
  markRead(sessionId: string): Promise<{ ok: true } | Missing | Gone> {
    return whenOpen(this.#core, (opened) => {
      if (!opened.store.session(sessionId)) return { ok: false as const, reason: "no-session" as const };
      this.#core.handoff.store(opened).markRead(sessionId, Date.now());
      return { ok: true as const };
    });
  }

  /**
   * The visitor asks for a person (POST …/handoff; again with `email`: the address for the reply).
   * Refused (`off`) unless the owner offers "Talk to a person" or the assistant offered it in this
   * conversation. The owner is always told; an e-mail to the owner is due on a new request when
   * the owner wants them, at most one per conversation per handoffLimits.emailIntervalMs.
   */
  request(input: { sessionId: string; email?: string | undefined; visitorToken?: string | undefined }): Promise<VisitorHandoffResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<VisitorHandoffResult> => {
      const checked = await this.#visitorSession(opened, input.sessionId, input.visitorToken);
      if (!checked.ok) return checked;
      const settings = opened.assistant.record.config.handoff;
      if (!settings.visitorAction && handoffOf(checked.row).offeredAt === null) return { ok: false, reason: "off" };
      const now = Date.now();
      const store = this.#core.handoff.store(opened);
      const asked = store.request(checked.row, { email: input.email, now });
      if (asked.changed) countSafely(this.#core, () => new InsightsStore(this.#core.storage).countHandoff(now, "requested"));
      if (asked.changed) {
        const data = { sessionId: asked.session.id, requestedAt: now, question: lastVisitorMessage(opened, asked.session.id), emailLeft: Boolean(handoffOf(asked.session).contactEmail) };
        await this.#core.webhooks.record("handoff.requested", { ...data, ...(asked.session.visitorSub ? { visitor: eventVisitor(asked.session) } : {}) }, now);
      }
      const { record } = opened.assistant;
      const email =
        asked.changed && settings.emailOwner && store.reserveOwnerEmail(asked.session, now)
          ? { userId: record.userId, assistantName: record.name, question: lastVisitorMessage(opened, asked.session.id) }
          : null;
      const told = asked.changed || input.email ? this.#core.handoff.telling(opened, asked.session, this.#core.handoff.ownerAndWatchers(opened)) : null;
      return { ok: true, handoff: conversationHandoff(asked.session, settings), told, email };
    });
  }

  /** The visitor goes back to the assistant while nobody took the conversation (a taken one stays taken). */
  cancel(input: { sessionId: string; visitorToken?: string | undefined }): Promise<VisitorHandoffResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<VisitorHandoffResult> => {
      const checked = await this.#visitorSession(opened, input.sessionId, input.visitorToken);
      if (!checked.ok) return checked;
      const cancelled = this.#core.handoff.store(opened).cancel(checked.row);
      const told = cancelled.changed ? this.#core.handoff.telling(opened, cancelled.session, this.#core.handoff.ownerAndWatchers(opened)) : null;
      return { ok: true, handoff: conversationHandoff(cancelled.session, opened.assistant.record.config.handoff), told, email: null };
    });
  }

  /** The visitor's open session, checked as every widget call (a signed visitor's token). */
  async #visitorSession(opened: OpenedHub, sessionId: string, token: string | undefined) {
    const row = opened.store.openSession(sessionId);
    if (!row) return { ok: false as const, reason: "no-session" as const };
    const refused = await visitorCheck(this.#core, row, token);
    if (refused) return refused;
    // Re-read after the await (another call may have changed it).
    const fresh = opened.store.openSession(sessionId);
    return fresh ? { ok: true as const, row: fresh } : { ok: false as const, reason: "no-session" as const };
  }

  #ownerResult(opened: OpenedHub, row: NonNullable<ReturnType<OpenedHub["store"]["session"]>>, changed: boolean): OwnerHandoffResult {
    const [session] = this.#core.withMessages(opened, [row]);
    const told = changed ? this.#core.handoff.telling(opened, row, this.#core.handoff.ownerAndWatchers(opened)) : null;
    return { ok: true, session: session!, told };
  }
}

/** The visitor's last message (the owner's e-mail quotes it), "" before one. */
function lastVisitorMessage(opened: OpenedHub, sessionId: string): string {
  const last = opened.store
    .messages(sessionId, 20)
    .filter((m) => m.role === "user")
    .pop();
  return last?.content.slice(0, 1000) ?? "";
}

/** Insights never fail a handoff: a counting error is logged. */
function countSafely(core: HubCore, count: () => void) {
  try {
    count();
  } catch (error) {
    console.error(JSON.stringify({ event: "insights-count-failed", assistantId: core.assistantId, error: String(error) }));
  }
}
