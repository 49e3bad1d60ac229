import { Hono } from "hono";
import { agentMessageBody, inboxQuery, inboxWatchBody, typingBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody, queryParams } from "../../http/validate";
import { handBackConversation } from "../../services/handoff/hand-back";
import { listInbox } from "../../services/handoff/list-inbox";
import { markConversationRead } from "../../services/handoff/mark-read";
import { sendAgentMessage } from "../../services/handoff/send-agent-message";
import { sendAgentTyping } from "../../services/handoff/send-agent-typing";
import { takeOverConversation } from "../../services/handoff/take-over";
import { watchInbox } from "../../services/handoff/watch-inbox";

/**
 * A person taking over (contract/schemas/handoff.ts): the owner's live inbox of one assistant, its
 * watch, takeover and hand back, a person's messages and typing, read marks. The owner only:
 * another owner's assistant or conversation is a 404.
 */
export const inboxRoutes = new Hono<AppEnv>()
  /** GET /:id/inbox?filter=&page= → inboxResponse, latest activity first, with the counts. */
  .get("/:id/inbox", queryParams(inboxQuery), async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await listInbox({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...c.req.valid("query") } }));
  })
  /** POST /:id/inbox/watch { sessionId? } → 204: inbox frames on the owner's chat-room socket for handoffLimits.watchLeaseMs. */
  .post("/:id/inbox/watch", jsonBody(inboxWatchBody), async (c) => {
    await watchInbox({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sessionId: c.req.valid("json").sessionId } });
    return c.body(null, 204);
  })
  /** POST /:id/chats/:sessionId/takeover → { session }: the assistant pauses for this conversation. */
  .post("/:id/chats/:sessionId/takeover", async (c) =>
    c.json(await takeOverConversation({ ctx: serviceContext(c), input: { user: c.var.user, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId") } })),
  )
  /** DELETE /:id/chats/:sessionId/takeover → { session }: back to the assistant. */
  .delete("/:id/chats/:sessionId/takeover", async (c) =>
    c.json(await handBackConversation({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId") } })),
  )
  /** POST /:id/chats/:sessionId/messages { content } → 201 { message } (role "agent"); 409 unless taken over. */
  .post("/:id/chats/:sessionId/messages", jsonBody(agentMessageBody), async (c) => {
    const message = await sendAgentMessage({
      ctx: serviceContext(c),
      input: { user: c.var.user, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId"), content: c.req.valid("json").content },
    });
    return c.json({ message }, 201);
  })
  /** POST /:id/chats/:sessionId/typing { typing } → 204; 409 unless taken over. */
  .post("/:id/chats/:sessionId/typing", jsonBody(typingBody), async (c) => {
    await sendAgentTyping({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId"), typing: c.req.valid("json").typing },
    });
    return c.body(null, 204);
  })
  /** POST /:id/chats/:sessionId/read → 204: the conversation's unread count goes back to 0. */
  .post("/:id/chats/:sessionId/read", async (c) => {
    await markConversationRead({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sessionId: c.req.param("sessionId") } });
    return c.body(null, 204);
  });
