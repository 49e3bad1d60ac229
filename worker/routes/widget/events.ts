import { Hono } from "hono";
import { widget, widgetMessages } from "../../../contract";
import { isGone } from "../../assistant/gone";
import { getWidgetRoom, reachAssistantHub } from "../../durable-objects/stubs";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError, unauthorized } from "../../http/errors";
import { WIDGET_IDENTITY_HEADER, type WidgetIdentity } from "../../widget/room-identity";
import { keyHeader, widgetCaller } from "./caller";
import { visitorTokenHeader } from "./sessions";

/**
 * GET /sessions/:id/events → text/event-stream (`event: <name>` + `data: <json>`, a comment line
 * as heartbeat) of the frames no message of the visitor caused: a person's messages, typing,
 * handoff changes. The widget's fallback when its socket cannot get through; it lasts
 * handoffLimits.eventStreamMaxMs, then the widget opens the next. Authorised as the socket is,
 * before the room is touched: the key (401), the assistant active (403), the Origin against the
 * allowlist (403), the session this assistant's (404), and a verified visitor's token in
 * X-Visitor-Token (401). The visitor's room (WidgetRoom.onRequest) holds the stream; it ends
 * after a message-error when the assistant is revoked meanwhile (final: no next stream).
 */
export const widgetEventRoutes = new Hono<AppEnv>().get("/sessions/:id/events", async (c) => {
  const caller = await widgetCaller(c, keyHeader(c));
  const sessionId = c.req.param("id");
  const access = await reachAssistantHub(c.env, caller.assistant.id, widgetMessages.assistantUnreachable).visitors().forSocket({
    sessionId,
    visitorToken: visitorTokenHeader(c),
  });
  if (isGone(access)) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  if (!access.ok && "identity" in access) throw unauthorized(access.identity);
  if (!access.ok) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  const identity: WidgetIdentity = {
    assistantId: caller.assistant.id,
    sessionId,
    keyHash: caller.keyHash,
    origin: caller.origin,
    ip: clientIp(c),
    ...(access.value.visitorSub ? { visitorSub: access.value.visitorSub } : {}),
  };
  // Only what the room needs travels to it (not the key): who it is, and its name.
  const request = new Request(new URL(c.req.url), {
    headers: { [WIDGET_IDENTITY_HEADER]: JSON.stringify(identity), "x-partykit-room": sessionId },
  });
  const res = await getWidgetRoom(c.env, sessionId).fetch(request);
  // The assistant holds as many open sessions as it can revoke at once: try again shortly.
  if (res.status === 503) throw new AppError("SERVICE_UNAVAILABLE", widgetMessages.assistantUnreachable, { retryAfter: widget.assistantRetryAfterSeconds });
  if (!res.ok || !res.body) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  // A fresh response, so the CORS middleware can add its headers.
  return new Response(res.body, { status: 200, headers: new Headers(res.headers) });
});
