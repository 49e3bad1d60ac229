import { Hono } from "hono";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { deleteChatRoute } from "./delete";
import { getChatRoute } from "./get";
import { listChatsRoute } from "./list";
import { patchChatRoute } from "./patch";

/** /api/chats: the signed-in user's chat history (guests' chats live in their room only). */
export function chatRoutes() {
  return new Hono<AppEnv>()
    .use("*", requireUser)
    .route("/", listChatsRoute)
    .route("/", getChatRoute)
    .route("/", patchChatRoute)
    .route("/", deleteChatRoute);
}
