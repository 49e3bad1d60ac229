import { isGone } from "../../assistant/gone";
import { Hono } from "hono";
import { visitorIdentity, widget, widgetMessages } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError, invalid, unauthorized } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { getWidgetRoom } from "../../durable-objects/stubs";
import { WIDGET_IDENTITY_HEADER, type WidgetIdentity } from "../../widget/room-identity";
import { widgetCaller } from "./caller";

/**
 * /parties/widget/{visitorSessionId}?key=…: a visitor session's WebSocket. Before the room (a
 * Durable Object) is touched the worker checks the key (401), that the assistant is active (403),
 * the Origin against the allowlist (403), that the session is this assistant's (404) and, for a
 * verified visitor's session, that `?visitorToken=` verifies as that visitor (401
 * with the reason: expired, invalid, another visitor's, missing); the room
 * receives who it is in WIDGET_IDENTITY_HEADER (a value the client sent under that name is
 * replaced). A plain GET that passes every check answers 400 websocketOnly.
 */
export function widgetSocketRoutes() {
  return new Hono<AppEnv>().get("/:sessionId", async (c) => {
    const sessionId = c.req.param("sessionId");
    const caller = await widgetCaller(c, c.req.query(widget.keyQuery));
    const token = c.req.query(visitorIdentity.socketQuery)?.trim().slice(0, visitorIdentity.maxTokenChars + 1) || undefined;
    const access = await reachAssistantHub(c.env, caller.assistant.id, widgetMessages.assistantUnreachable).visitors().forSocket({
      sessionId,
      visitorToken: token,
    });
    if (isGone(access)) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    if (!access.ok && "identity" in access) throw unauthorized(access.identity);
    if (!access.ok) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw invalid(widgetMessages.websocketOnly);
    const identity: WidgetIdentity = {
      assistantId: caller.assistant.id,
      sessionId,
      keyHash: caller.keyHash,
      origin: caller.origin,
      ip: clientIp(c),
      ...(access.value.visitorSub ? { visitorSub: access.value.visitorSub } : {}),
    };
    const request = new Request(c.req.raw);
    request.headers.set(WIDGET_IDENTITY_HEADER, JSON.stringify(identity));
    request.headers.set("x-partykit-room", sessionId);
    return getWidgetRoom(c.env, sessionId).fetch(request);
  });
}
