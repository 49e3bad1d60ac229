import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { getChat } from "../../services/chats/chats";

/** GET /api/chats/:id → { chat, messages } (oldest first); another user's chat is 404. */
export const getChatRoute = new Hono<AppEnv>().get("/:id", async (c) => {
  return c.json(await getChat({ ctx: serviceContext(c), input: { roomId: c.var.chatRoomId, chatId: c.req.param("id") } }));
});
