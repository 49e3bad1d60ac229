import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { deleteConversation } from "../../services/privacy/delete-conversation";
import { deleteVisitor } from "../../services/privacy/delete-visitor";
import { exportVisitor } from "../../services/privacy/export-visitor";
import { auditActor } from "../../services/team/audit";

/**
 * Privacy (contract/schemas/privacy.ts): deleting one conversation or everything of one visitor,
 * and a visitor's export. The owner only: another owner's assistant is a 404. Each is recorded in
 * the audit log. (Retention is the assistant's config, PUT /:id, run by its object.)
 */
export const privacyRoutes = new Hono<AppEnv>()
  /** DELETE /:id/chats/:sessionId → 204, again 204 (idempotent). */
  .delete("/:id/chats/:sessionId", async (c) => {
    await deleteConversation({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, actor: auditActor(c.var.user), assistantId: c.req.param("id"), sessionId: c.req.param("sessionId") },
    });
    return c.body(null, 204);
  })
  /** DELETE /:id/visitors/:visitorId → visitorDeletion (zeros when nothing was left). */
  .delete("/:id/visitors/:visitorId", async (c) =>
    c.json(
      await deleteVisitor({
        ctx: serviceContext(c),
        input: { userId: c.var.user.id, actor: auditActor(c.var.user), assistantId: c.req.param("id"), visitorId: c.req.param("visitorId") },
      }),
    ),
  )
  /** GET /:id/visitors/:visitorId/export → visitorExport as the JSON attachment visitor-{id}.json (streamed). */
  .get("/:id/visitors/:visitorId/export", async (c) => {
    const { filename, body } = await exportVisitor({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, actor: auditActor(c.var.user), assistantId: c.req.param("id"), visitorId: c.req.param("visitorId") },
    });
    return new Response(body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      },
    });
  });
