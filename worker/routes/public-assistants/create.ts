import { Hono } from "hono";
import { publicAssistantBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { workspaceOf } from "../../http/team-guard";
import { jsonBody } from "../../http/validate";
import { createPublicAssistant } from "../../services/public-assistants/create-public-assistant";

/** POST /api/public-assistants { name?, description?, config?, integration?, isActive?, … } → 201 { assistant }, in the `X-Workspace-Id` workspace. */
export const createPublicAssistantRoute = new Hono<AppEnv>().post("/", jsonBody(publicAssistantBody), async (c) => {
  const assistant = await createPublicAssistant({ ctx: serviceContext(c), input: { userId: workspaceOf(c), body: c.req.valid("json") } });
  return c.json({ assistant }, 201);
});
