import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import {
  parseWidgetClientFrame,
  widgetMessages,
  widgetSocketCapacityClose,
  widgetSocketClose,
  type WidgetServerFrame,
  type WidgetSocketClose,
} from "../../contract";
import type { AccessDenied } from "../assistant/assistant-copy";
import { unlessGone } from "../assistant/gone";
import type { Env } from "../env";
import { originAllowed } from "../services/widget/authorize-widget-call";
import { remainingFrame } from "../services/widget/widget-limits";
import { callFacet, getAssistantHub } from "./stubs";
import { refuseStream, VisitorEventStreams } from "../widget/event-streams";
import { readWidgetIdentity, widgetSocketReverifyClose, type WidgetIdentity } from "../widget/room-identity";
import { runVisitorTurn, turnMessage, visitorTurn, type VisitorMessageInput } from "../widget/visitor-turn";
import { relayInbox } from "../widget/inbox-relay";
import type { InboxRelay } from "../assistant/hub-handoff";

type WidgetConnection = Connection<WidgetIdentity>;

/**
 * The realtime room of one widget visitor session (named by its id), on partyserver, hibernating.
 * The worker authenticates every socket before it reaches the room (routes/widget/socket.ts);
 * every tab of the visitor is a connection and sees every frame. The room holds no data of its
 * own: the session, its messages and counters live in the assistant's own object (AssistantHub).
 * A `send-message` is one hub call before the model (`beginTurn`: the key's hash, active flag
 * and origin checked against the hub's copy of the assistant, the session, the limits, the
 * history, the message saved) and one after (`finishTurn`); no D1 read. A regenerated key, a
 * deactivated assistant or an origin taken off the allowlist is refused at the next message (the
 * copy is refreshed by every owner write), and sooner than that the hub's revocation closes the
 * room's sockets at once (closeAll). The model streams here, so a handler awaits its whole
 * answer and the room stays alive while the model writes, whoever is still connected. A widget
 * whose socket cannot get through holds an event stream here instead (onRequest,
 * widget/event-streams.ts): it gets every delivered frame and counts as a connection for the hub.
 */
export class WidgetRoom extends Server<Env & Cloudflare.Env> {
  static override options = { hibernate: true };

  /** Answers being written now; `stop` aborts them (their text so far is kept). */
  private readonly answering = new Set<AbortController>();
  /** The visitor's event streams open now (GET …/events), bounded; revoked as sockets are. */
  private readonly streams = new VisitorEventStreams();

  override async onConnect(connection: WidgetConnection, ctx: ConnectionContext) {
    const identity = readWidgetIdentity(ctx.request, this.name);
    if (!identity) {
      // Only the worker reaches a room, and it always names the identity: this is a wiring bug.
      connection.close(4003, "Forbidden");
      return;
    }
    connection.setState(identity);
    // Registered before the assistant is read again: a revocation that commits after this read
    // finds the room in the hub; one that committed before it is seen by the read.
    if (!(await this.registerWithHub(identity))) return close(connection, widgetSocketCapacityClose);
    const hub = getAssistantHub(this.env, identity.assistantId);
    const state = await callFacet(hub.sockets(), (s) => s.opened({ keyHash: identity.keyHash, origin: identity.origin, sessionId: identity.sessionId }));
    if (state.denied) return refuse(connection, closeFor(state.denied));
    if (!state.remaining) return;
    send(connection, { event: "remaining-messages", data: remainingFrame(state.remaining, state.limits) });
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
    if (parsed.frame.event === "typing") return;
    await this.onSendMessage(connection, identity, parsed.frame.data);
  }

  override async onClose(connection: WidgetConnection) {
    if (connection.state) await this.connectionGone(connection.state, connection.id);
  }

  /**
   * GET /api/widget/sessions/{id}/events, authorised by the worker (routes/widget/events.ts): an
   * event stream of every frame the room delivers. Registered with the hub and checked against
   * the assistant after that, as a socket is. 503: the hub holds as many as it can revoke at once.
   */
  override async onRequest(request: Request): Promise<Response> {
    const identity = readWidgetIdentity(request, this.name);
    if (!identity || request.method !== "GET") return new Response(null, { status: 404 });
    if (!(await this.registerWithHub(identity))) return new Response(null, { status: 503 });
    const entry = this.streams.open(identity, () => void this.connectionGone(identity));
    try {
      const state = await callFacet(getAssistantHub(this.env, identity.assistantId).sockets(), (s) => s.opened(identity));
      if (state.denied) refuseStream(entry, closeFor(state.denied));
    } catch (error) {
      entry.stream.close();
      throw error;
    }
    return entry.stream.response;
  }

  /** A socket or stream ended: once none is left, the hub no longer needs to reach this room. */
  private async connectionGone(identity: WidgetIdentity, socketId?: string) {
    const sockets = () => [...this.getConnections<WidgetIdentity>()].filter((c) => c.id !== socketId);
    if (sockets().length > 0 || this.streams.size > 0) return;
    try {
      await callFacet(getAssistantHub(this.env, identity.assistantId).sockets(), (s) => s.unregister(identity.sessionId));
    } catch (error) {
      // Left registered: a later revocation finds nothing open here and forgets the room then.
      console.error(JSON.stringify({ event: "assistant-hub-unregister-failed", sessionId: identity.sessionId, error: String(error) }));
    }
    // A tab that connected while the unregister was on its way registered before it landed:
    // register again, so the hub can still reach that socket (or stream).
    const reopened = sockets().find((c) => c.state);
    const again = reopened?.state ?? this.streams.first()?.identity;
    if (again && !(await this.registerWithHub(again))) {
      if (reopened) close(reopened, widgetSocketCapacityClose);
      this.streams.first()?.stream.close();
    }
  }

  /**
   * RPC from the worker or the assistant's object: a frame no message of the visitor caused (a
   * person's message, typing, a handoff change) for every connection of the session.
   */
  async deliver(frame: WidgetServerFrame): Promise<void> {
    this.broadcast(JSON.stringify(frame));
    this.streams.deliver(frame);
  }

  /** RPC from the assistant's hub when it is full: how many sockets and event streams this room still has open. */
  async openSockets(): Promise<number> {
    return [...this.getConnections()].length + this.streams.size;
  }

  /**
   * RPC from the assistant's hub after a revocation: closes this room's sockets and event
   * streams with `close` (after a message-error saying why, so the widget shows it and does not
   * reconnect); with `allowedOrigins`, only those whose origin the new allowlist refuses. An
   * answer being written is stopped once nothing is left. Returns what was closed and what stays open.
   */
  async closeAll(close: WidgetSocketClose, allowedOrigins?: readonly string[]): Promise<{ closed: number; open: number }> {
    const kept = (identity: WidgetIdentity | null) => Boolean(identity && allowedOrigins && originAllowed({ allowedOrigins: [...allowedOrigins] }, identity.origin, "required"));
    const streams = this.streams.refuse(close, (identity) => !kept(identity));
    let closed = streams.closed;
    let open = streams.open;
    for (const connection of this.getConnections<WidgetIdentity>()) {
      if (kept(connection.state)) {
        open += 1;
        continue;
      }
      refuse(connection, close);
      closed += 1;
    }
    if (open === 0) for (const controller of this.answering) controller.abort();
    return { closed, open };
  }

  /**
   * RPC from the assistant's hub when the identity secret that verified signed-in visitors'
   * sockets stopped at once: their sockets close without a message-error, with a code
   * the widget reconnects on, and their event streams end, so each is verified again
   * (AssistantHub.reverifySockets). Others stay; an answer being written goes on (it is saved either way).
   */
  async closeVerified(): Promise<{ closed: number; open: number }> {
    let { closed, open } = this.streams.endVerified();
    for (const connection of this.getConnections<WidgetIdentity>()) {
      if (!connection.state?.visitorSub) {
        open += 1;
        continue;
      }
      close(connection, widgetSocketReverifyClose);
      closed += 1;
    }
    return { closed, open };
  }

  /** Registers with the hub; false when a full hub refuses (the socket or stream is then refused). */
  private async registerWithHub(identity: WidgetIdentity): Promise<boolean> {
    try {
      return await callFacet(getAssistantHub(this.env, identity.assistantId).sockets(), (s) => s.register(identity.sessionId));
    } catch (error) {
      // The socket still works; a revocation then reaches it at its next message instead.
      console.error(JSON.stringify({ event: "assistant-hub-register-failed", sessionId: identity.sessionId, error: String(error) }));
      return true;
    }
  }

  private async onSendMessage(connection: WidgetConnection, identity: WidgetIdentity, message: VisitorMessageInput) {
    const { clientMessageId } = message;
    const chatId = identity.sessionId;
    const { assistantId, sessionId } = identity;
    const hub = getAssistantHub(this.env, assistantId);
    let begun;
    try {
      begun = await hub.beginTurn({
        keyHash: identity.keyHash,
        origin: identity.origin,
        sessionId,
        ip: identity.ip,
        message: turnMessage(message),
        // Verified by the socket route when this socket connected.
        verifiedSub: identity.visitorSub ?? null,
      });
    } catch (error) {
      // The assistant's object (or D1 behind it) did not answer: the widget shows a failed reply.
      console.error(JSON.stringify({ event: "widget-begin-turn-failed", sessionId, error: String(error) }));
      send(connection, { event: "message-error", data: { error: widgetMessages.replyFailed, reason: "reply-failed", chatId, clientMessageId } });
      return;
    }
    if (begun.outcome === "denied") return refuse(connection, closeFor(begun.denied), clientMessageId);
    if (begun.outcome === "no-session") {
      send(connection, { event: "message-error", data: { error: widgetMessages.sessionNotFound, reason: "session-not-found", chatId, clientMessageId } });
      return;
    }
    if (begun.outcome === "refused") {
      const { refusal, limits } = begun;
      send(connection, { event: "message-error", data: { error: refusal.error, reason: refusal.reason, chatId, clientMessageId } });
      if (refusal.remaining && limits) send(connection, { event: "remaining-messages", data: remainingFrame(refusal.remaining, limits) });
      return;
    }
    // The owners watching the inbox see the visitor's message while the answer is written.
    const told = relayInbox(this.env, begun.inbox);
    if (begun.outcome === "with-person") {
      // A person was asked for or has it: shown, never answered by the model.
      this.broadcast(JSON.stringify({ event: "new-message", data: { message: begun.saved, clientMessageId } } satisfies WidgetServerFrame));
      send(connection, { event: "remaining-messages", data: remainingFrame(begun.remaining, begun.limits) });
      return told;
    }
    const controller = new AbortController();
    this.answering.add(controller);
    let finished: InboxRelay | null = null;
    try {
      await runVisitorTurn(
        {
          env: this.env,
          emit: (frame) => this.broadcast(JSON.stringify(frame)),
          signal: controller.signal,
          finish: async (answer) => {
            const done = unlessGone(await hub.finishTurn({ sessionId, ...answer }), null);
            finished = done?.inbox ?? null;
            return done?.message ?? null;
          },
        },
        visitorTurn(begun),
        message,
      );
    } finally {
      this.answering.delete(controller);
      await told;
      await relayInbox(this.env, finished);
    }
  }
}

const closeFor = (denied: AccessDenied): WidgetSocketClose => (denied === "origin-not-allowed" ? widgetSocketClose.originNotAllowed : widgetSocketClose.unavailable);

/** Tells the widget why (a message-error it shows as final), then closes with the contract's code. */
function refuse(connection: WidgetConnection, reason: WidgetSocketClose, clientMessageId?: string) {
  const chatId = connection.state?.sessionId ?? "";
  send(connection, { event: "message-error", data: { error: reason.reason, reason: reason.refusal, chatId, ...(clientMessageId ? { clientMessageId } : {}) } });
  close(connection, reason);
}

function close(connection: WidgetConnection, { code, reason }: { code: number; reason: string }) {
  try {
    connection.close(code, reason);
  } catch {
    // already closing
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

declare module "../env" {
  /** What a stub of this object can be asked (`Env`'s namespace names this interface). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the class is the interface
  interface WidgetRoomRpc extends WidgetRoom {}
}
