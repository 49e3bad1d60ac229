import { unlessGone } from "../../assistant/gone";
import { Hono } from "hono";
import { widgetMessages, widgetSendMessageData } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError, unauthorized } from "../../http/errors";
import { OriginNotAllowedError } from "../../services/widget/authorize-widget-call";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { runVisitorTurn, turnMessage, visitorTurn } from "../../widget/visitor-turn";
import { refuseCors } from "./cors";
import type { InboxRelay } from "../../assistant/hub-handoff";
import { afterResponse } from "../../services/context";
import { serviceContext } from "../../http/service-context";
import { remainingFrame } from "../../services/widget/widget-limits";
import { relayInbox } from "../../widget/inbox-relay";
import { widgetEventStream } from "./event-stream";
import { keyHeader, readBody, recheckTurnCaller, turnCaller } from "./caller";
import { visitorTokenHeader } from "./sessions";

/**
 * POST /sessions/:id/messages { content, files?, clientMessageId } → text/event-stream of the same
 * events as the socket (`event: <name>` + `data: <json>`), ending after `remaining-messages`.
 * The fallback of a widget whose WebSocket cannot connect. Refusals before the answer starts (bad
 * key, origin, session, body, limits) are plain HTTP errors with the envelope (401/403/404/400/429).
 * The key's assistant (from the isolate's key directory, else one D1 read: `turnCaller`), then
 * one call to the assistant's own object before the model (`beginTurn`: session, limits, history, the visitor's message saved) and one after it
 * (`finishTurn`). The answer runs to its end even if the visitor goes away (waitUntil): it is saved either way.
 */
export const widgetMessageRoutes = new Hono<AppEnv>().post("/sessions/:id/messages", async (c) => {
  const caller = await turnCaller(c, keyHeader(c));
  const { assistantId } = caller;
  const sessionId = c.req.param("id");
  const hub = reachAssistantHub(c.env, assistantId, widgetMessages.assistantUnreachable);
  let message;
  try {
    message = await readBody(c, widgetSendMessageData);
  } catch (error) {
    await recheckTurnCaller(c, caller);
    // An unknown session answers 404 whatever the body: a bad body must not tell a caller the session exists.
    if ((await hub.visitors().isOpen(sessionId)) !== true) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    throw error;
  }
  const begun = await hub.beginTurn({
    keyHash: caller.keyHash,
    origin: caller.origin,
    sessionId,
    ip: clientIp(c),
    message: turnMessage(message),
    // A verified visitor's session answers only that visitor: verified in the hub.
    visitorToken: visitorTokenHeader(c),
  });
  if (begun.outcome === "denied") {
    // A remembered key: D1 says exactly why (a replaced key 401, switched off 403, Origin 403).
    await recheckTurnCaller(c, caller);
    // The key or the settings changed between the D1 read and the object's copy: refused as the D1 read would have.
    if (begun.denied === "origin-not-allowed") {
      const error = new OriginNotAllowedError();
      refuseCors(c, error);
      throw error;
    }
    throw unauthorized(widgetMessages.unavailable);
  }
  if (begun.outcome === "no-session") throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  if (begun.outcome === "refused") {
    const { refusal } = begun;
    throw new AppError(refusal.code, refusal.error, { reason: refusal.reason, ...(refusal.retryAfter ? { retryAfter: refusal.retryAfter } : {}) });
  }

  // The owners watching the inbox see the visitor's message at once, off the visitor's response.
  void afterResponse(serviceContext(c), "inbox-relay-failed", () => relayInbox(c.env, begun.inbox), { sessionId });
  if (begun.outcome === "with-person") {
    // A person was asked for or has it: the message is shown, never answered by the model.
    const { saved, remaining, limits } = begun;
    return widgetEventStream(c, async (emit) => {
      emit({ event: "new-message", data: { message: saved, clientMessageId: message.clientMessageId } });
      emit({ event: "remaining-messages", data: remainingFrame(remaining, limits) });
    });
  }

  // The answer runs to its end even if the visitor goes away: it is saved either way.
  return widgetEventStream(c, async (emit, signal) => {
    let finished: InboxRelay | null = null;
    await runVisitorTurn(
      {
        env: c.env,
        emit,
        signal,
        finish: async (answer) => {
          const done = unlessGone(await hub.finishTurn({ sessionId, ...answer }), null);
          finished = done?.inbox ?? null;
          return done?.message ?? null;
        },
      },
      visitorTurn(begun),
      message,
    );
    await relayInbox(c.env, finished);
  });
});
