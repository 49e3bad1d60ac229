import { drizzle } from "drizzle-orm/d1";
import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import { parseWidgetClientFrame, widgetMessages, type WidgetServerFrame } from "../../contract";
import * as schema from "../db/schema";
import type { Env } from "../env";
import type { ServiceContext } from "../services/context";
import { admitVisitorMessage } from "../services/widget/admit-visitor-message";
import { findAssistantByKeyHash, originAllowed } from "../services/widget/authorize-widget-call";
import { findVisitorSession } from "../services/widget/visitor-session-rows";
import { peekVisitorRemaining, remainingFrame } from "../services/widget/widget-limits";
import { readWidgetIdentity, type WidgetIdentity } from "../widget/room-identity";
import { runVisitorTurn, type VisitorMessageInput } from "../widget/visitor-turn";

type WidgetConnection = Connection<WidgetIdentity>;

/**
 * The realtime room of one widget visitor session (named by its id), on partyserver, hibernating.
 * The worker authenticates every socket before it reaches the room (routes/widget/socket.ts);
 * every tab of the visitor is a connection and sees every frame. The room holds no data of its
 * own: messages live in D1, counters in RateLimiter objects. Each `send-message` re-reads the
 * assistant by the key's hash, so a regenerated key, a deactivated assistant or an origin taken
 * off the allowlist stops an open socket at its next message. A handler awaits its whole answer,
 * so the room stays alive while the model writes, whoever is still connected.
 */
export class WidgetRoom extends Server<Env & Cloudflare.Env> {
  static override options = { hibernate: true };

  /** Answers being written now; `stop` aborts them (their text so far is kept). */
  private readonly answering = new Set<AbortController>();

  private get ctxForServices(): ServiceContext {
    return { env: this.env, db: drizzle(this.env.DB, { schema }) };
  }

  override async onConnect(connection: WidgetConnection, ctx: ConnectionContext) {
    const identity = readWidgetIdentity(ctx.request, this.name);
    if (!identity) {
      // Only the worker reaches a room, and it always names the identity: this is a wiring bug.
      connection.close(4003, "Forbidden");
      return;
    }
    connection.setState(identity);
    const services = this.ctxForServices;
    const [assistant, session] = await Promise.all([
      findAssistantByKeyHash(services, identity.keyHash),
      findVisitorSession(services, { assistantId: identity.assistantId, sessionId: identity.sessionId }),
    ]);
    if (!assistant || !session) return;
    const remaining = await peekVisitorRemaining(this.env, {
      session: { sessionId: session.id, startedAt: session.startedAt },
      assistantId: assistant.id,
      maxMessagesPerSession: assistant.config.maxMessagesPerSession,
      dailyLimit: assistant.config.dailyLimit,
    });
    send(connection, { event: "remaining-messages", data: remainingFrame(remaining, assistant.config) });
  }

  override async onMessage(connection: WidgetConnection, message: WSMessage) {
    const identity = connection.state;
    if (!identity) return;
    const parsed = parseWidgetClientFrame(typeof message === "string" ? message : null);
    if (!parsed.ok) {
      send(connection, { event: "message-error", data: { error: parsed.error, reason: "invalid", chatId: identity.sessionId } });
      return;
    }
    if (parsed.frame.event === "stop") {
      for (const controller of this.answering) controller.abort();
      return;
    }
    await this.onSendMessage(connection, identity, parsed.frame.data);
  }

  private async onSendMessage(connection: WidgetConnection, identity: WidgetIdentity, message: VisitorMessageInput) {
    const { clientMessageId } = message;
    const chatId = identity.sessionId;
    const services = this.ctxForServices;
    const assistant = await findAssistantByKeyHash(services, identity.keyHash);
    if (!assistant || assistant.id !== identity.assistantId || !assistant.isActive) {
      send(connection, { event: "message-error", data: { error: widgetMessages.unavailable, reason: "unavailable", chatId, clientMessageId } });
      connection.close(4003, "Assistant unavailable");
      return;
    }
    if (!originAllowed(assistant, identity.origin, "required")) {
      send(connection, { event: "message-error", data: { error: widgetMessages.originNotAllowed, reason: "origin-not-allowed", chatId, clientMessageId } });
      connection.close(4003, "Origin not allowed");
      return;
    }
    const session = await findVisitorSession(services, { assistantId: assistant.id, sessionId: identity.sessionId });
    if (!session) {
      send(connection, { event: "message-error", data: { error: widgetMessages.sessionNotFound, reason: "session-not-found", chatId, clientMessageId } });
      return;
    }
    const admission = await admitVisitorMessage({ ctx: services, input: { assistant, session, ip: identity.ip, fileCount: message.files.length } });
    if (!admission.ok) {
      send(connection, { event: "message-error", data: { error: admission.error, reason: admission.reason, chatId, clientMessageId } });
      if (admission.remaining) send(connection, { event: "remaining-messages", data: remainingFrame(admission.remaining, assistant.config) });
      return;
    }
    const controller = new AbortController();
    this.answering.add(controller);
    try {
      await runVisitorTurn(
        { ctx: services, emit: (frame) => this.broadcast(JSON.stringify(frame)), signal: controller.signal },
        { assistant, session, message, remaining: admission.remaining },
      );
    } finally {
      this.answering.delete(controller);
    }
  }
}

/** Sends one frame to one connection; a socket that is already closing is skipped. */
function send(connection: Connection, frame: WidgetServerFrame) {
  try {
    connection.send(JSON.stringify(frame));
  } catch {
    // closed meanwhile: the widget reloads the session on reconnect
  }
}
