import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { workspaceOf } from "../../http/team-guard";
import { getPublicAssistant } from "../../services/public-assistants/get-public-assistant";
import { listPublicAssistants } from "../../services/public-assistants/list-public-assistants";

/** GET /api/public-assistants → { assistants } of the `X-Workspace-Id` workspace (newest first, keys masked); GET /:id → { assistant }. */
export const listPublicAssistantsRoute = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ assistants: await listPublicAssistants({ ctx: serviceContext(c), input: { userId: workspaceOf(c) } }) }))
  .get("/:id", async (c) =>
    c.json({ assistant: await getPublicAssistant({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } }) }),
  );
