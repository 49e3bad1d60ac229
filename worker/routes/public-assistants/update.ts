import { Hono } from "hono";
import { publicAssistantBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { updatePublicAssistant } from "../../services/public-assistants/update-public-assistant";

/** PUT /api/public-assistants/:id (the create body, any part of it, merged over the current values) → { assistant } */
export const updatePublicAssistantRoute = new Hono<AppEnv>().put("/:id", jsonBody(publicAssistantBody), async (c) => {
  const assistant = await updatePublicAssistant({
    ctx: serviceContext(c),
    input: { userId: c.var.user.id, assistantId: c.req.param("id"), changes: c.req.valid("json") },
  });
  return c.json({ assistant });
});
