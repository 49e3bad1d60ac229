import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { deleteChat } from "../../services/chats/chats";

/** DELETE /api/chats/:id → 204; the chat and its messages are gone. */
export const deleteChatRoute = new Hono<AppEnv>().delete("/:id", async (c) => {
  await deleteChat({ ctx: serviceContext(c), input: { roomId: c.var.chatRoomId, chatId: c.req.param("id") } });
  return c.body(null, 204);
});
