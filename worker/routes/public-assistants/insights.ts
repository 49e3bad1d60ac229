import { Hono } from "hono";
import { insightsQuery } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { queryParams } from "../../http/validate";
import { getInsights } from "../../services/insights/get-insights";

/** GET /:id/insights?days=7|30|90 → insightsResponse: the owner's insights of one assistant (400 daysInvalid for any other days). */
export const insightsRoute = new Hono<AppEnv>().get("/:id/insights", queryParams(insightsQuery), async (c) => {
  const { days } = c.req.valid("query");
  c.header("cache-control", "private, no-store");
  return c.json(await getInsights({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), days } }));
});
