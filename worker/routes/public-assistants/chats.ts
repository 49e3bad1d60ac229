import { Hono } from "hono";
import { chatHistoryQuery } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { queryParams } from "../../http/validate";
import { countVisitorSessions } from "../../services/visitor-sessions/count-visitor-sessions";
import { getVisitorSession } from "../../services/visitor-sessions/get-visitor-session";
import { exportVisitorSessions } from "../../services/visitor-sessions/export-visitor-sessions";
import { listVisitorSessions } from "../../services/visitor-sessions/list-visitor-sessions";

/** The visitor history of an assistant: pages, the whole export, counts, and one conversation. */
export const chatRoutes = new Hono<AppEnv>()
  /** GET /:id/chats?page=&limit=&user= → { sessions, totalPages, currentPage, total }, newest activity first (`user`: one verified visitor's). */
  .get("/:id/chats", queryParams(chatHistoryQuery), async (c) =>
    c.json(await listVisitorSessions({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...c.req.valid("query") } })),
  )
  /** GET /:id/chats/export → the whole history (JSON, streamed) as the attachment chat-history-{id}.json. */
  .get("/:id/chats/export", async (c) => {
    const { filename, body } = await exportVisitorSessions({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    return new Response(body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      },
    });
  })
  /** GET /:id/chats/debug → { stats: { totalChatsInDB, assistantChats } }, both scoped to the owner. */
  .get("/:id/chats/debug", async (c) =>
    c.json(await countVisitorSessions({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } })),
  )
  /** GET /:id/chats/:sessionId → { session }: one conversation with its messages (after export and debug, which it would shadow). */
  .get("/:id/chats/:sessionId", async (c) =>
    c.json(
      await getVisitorSession({
        ctx: serviceContext(c),
        input: { userId: c.var.user.id, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId") },
      }),
    ),
  );
