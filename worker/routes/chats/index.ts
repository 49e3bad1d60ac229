import { Hono } from "hono";
import { requireChatOwner } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { deleteChatRoute } from "./delete";
import { getChatRoute } from "./get";
import { listChatsRoute } from "./list";
import { patchChatRoute } from "./patch";

/** /api/chats: the chat history of the signed-in user, or of a guest (X-Guest-Session-Id), read in their own room. */
export function chatRoutes() {
  return new Hono<AppEnv>()
    .use("*", requireChatOwner)
    .route("/", listChatsRoute)
    .route("/", getChatRoute)
    .route("/", patchChatRoute)
    .route("/", deleteChatRoute);
}
