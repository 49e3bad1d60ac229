import { Hono } from "hono";
import { listChatsQuery } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { queryParams } from "../../http/validate";
import { listChats } from "../../services/chats/chats";

/** GET /api/chats?search=&projectId=&page=&limit=: newest first → { chats, total, totalPages, currentPage }. */
export const listChatsRoute = new Hono<AppEnv>().get("/", queryParams(listChatsQuery), async (c) => {
  const query = c.req.valid("query");
  return c.json(await listChats({ ctx: serviceContext(c), input: { roomId: c.var.chatRoomId, ...query } }));
});
