import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { deletePublicAssistant } from "../../services/public-assistants/delete-public-assistant";

/** DELETE /api/public-assistants/:id → 204; its files, chunks, vectors, sessions and messages are gone. */
export const deletePublicAssistantRoute = new Hono<AppEnv>().delete("/:id", async (c) => {
  await deletePublicAssistant({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
  return c.body(null, 204);
});
