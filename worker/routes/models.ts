import { Hono } from "hono";
import { updateSettingsBody } from "../../contract";
import { requireUser } from "../http/auth";
import type { AppEnv } from "../http/context";
import { serviceContext } from "../http/service-context";
import { jsonBody } from "../http/validate";
import { listModels } from "../services/models/list-models";
import { getSettings } from "../services/settings/settings";
import { updateSettings } from "../services/settings/settings";

/** GET /api/models → { models, default, selected, offline } (offline: [] and null). */
export function modelRoutes() {
  return new Hono<AppEnv>()
    .use("*", requireUser)
    .get("/", async (c) => c.json(await listModels({ ctx: serviceContext(c), input: { userId: c.var.user.id } })));
}

/** GET /api/settings → { settings }; PUT /api/settings { model } → { settings }. */
export function settingsRoutes() {
  return new Hono<AppEnv>()
    .use("*", requireUser)
    .get("/", async (c) => c.json({ settings: await getSettings({ ctx: serviceContext(c), input: { userId: c.var.user.id } }) }))
    .put("/", jsonBody(updateSettingsBody), async (c) => {
      const settings = await updateSettings({ ctx: serviceContext(c), input: { userId: c.var.user.id, model: c.req.valid("json").model } });
      return c.json({ settings });
    });
}
