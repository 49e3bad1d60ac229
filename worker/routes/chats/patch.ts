import { Hono } from "hono";
import { updateChatBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { updateChat } from "../../services/chats/chats";

/** PATCH /api/chats/:id { title?, projectId? (null: out of its project) } → { chat }. */
export const patchChatRoute = new Hono<AppEnv>().patch("/:id", jsonBody(updateChatBody), async (c) => {
  const chat = await updateChat({
    ctx: serviceContext(c),
    input: { roomId: c.var.chatRoomId, chatId: c.req.param("id"), changes: c.req.valid("json") },
  });
  return c.json({ chat });
});
