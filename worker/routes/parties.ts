import { Hono } from "hono";
import { chatMessages } from "../../contract";
import { getChatRoom } from "../durable-objects/stubs";
import { IDENTITY_HEADER } from "../chat/room-identity";
import { clientIp } from "../http/client-ip";
import type { AppEnv } from "../http/context";
import { invalid } from "../http/errors";
import { serviceContext } from "../http/service-context";
import { authenticateRoom } from "../services/realtime/authenticate-room";

/**
 * /parties/chat/{roomId}?token=… | ?guestSessionId=…: the chat's WebSocket. The caller is
 * authenticated here, before the room (a Durable Object) is touched; the room receives who it is
 * in IDENTITY_HEADER (any value the client sent under that name is replaced). A plain GET with
 * valid credentials answers 400 websocketOnly, so a client whose socket failed can learn why
 * (401/403) with one request.
 */
export function partyRoutes() {
  return new Hono<AppEnv>().get("/chat/:roomId", async (c) => {
    const roomId = c.req.param("roomId");
    const identity = await authenticateRoom({
      ctx: serviceContext(c),
      input: { roomId, token: c.req.query("token"), guestSessionId: c.req.query("guestSessionId"), ip: clientIp(c) },
    });
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw invalid(chatMessages.websocketOnly);
    const request = new Request(c.req.raw);
    request.headers.set(IDENTITY_HEADER, JSON.stringify(identity));
    request.headers.set("x-partykit-room", roomId);
    return getChatRoom(c.env, roomId).fetch(request);
  });
}
