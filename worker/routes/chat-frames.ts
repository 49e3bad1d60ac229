import { Hono } from "hono";
import { IDENTITY_HEADER, type RoomIdentity } from "../chat/room-identity";
import { currentUser, requireChatOwner } from "../http/auth";
import { clientIp } from "../http/client-ip";
import type { AppEnv } from "../http/context";
import { callChatRoom } from "../services/call-chat-room";

/**
 * POST /api/chat/frames: the chat's frames over HTTP, for a network that blocks WebSockets
 * (contract `chatFramesPath`). The caller is authenticated as for /api/chats (a signed-in user's
 * credential, or a guest's id), before the room is touched; the room receives who it is in
 * IDENTITY_HEADER, as a socket does, and answers the frame with a stream of server frames. The
 * body is capped like a socket frame (requestBodyLimits.chatFrameBytes). A GET answers 204 to a
 * credential that may post frames: the client checks it before it switches to HTTP.
 */
export function chatFrameRoutes() {
  return new Hono<AppEnv>()
    .get("/frames", requireChatOwner, (c) => c.body(null, 204))
    .post("/frames", requireChatOwner, async (c) => {
      const roomId = c.get("chatRoomId");
      const user = currentUser(c);
      const credential = c.get("credential");
      const identity: RoomIdentity = user
        ? { kind: "user", userId: user.id, ...(credential?.kind === "token" ? { tokenId: credential.tokenId } : {}), emailVerified: user.isEmailVerified, ip: clientIp(c) }
        : { kind: "guest", guestId: roomId, ip: clientIp(c) };
      const frame = await c.req.text();
      const request = new Request("https://chat-room/frames", {
        method: "POST",
        body: frame,
        headers: { [IDENTITY_HEADER]: JSON.stringify(identity), "x-partykit-room": roomId, "content-type": "application/json" },
      });
      return callChatRoom({ env: c.env }, roomId, (room) => room.fetch(request));
    });
}
