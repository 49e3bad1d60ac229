import { Hono } from "hono";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { inboxSummary } from "../../services/handoff/inbox-summary";

/** /api/inbox: the signed-in owner's inbox across their assistants. GET /summary → inboxSummaryResponse (the navigation's badge). */
export function inboxRoutes() {
  return new Hono<AppEnv>().use("*", requireUser).get("/summary", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await inboxSummary({ ctx: serviceContext(c), input: { userId: c.var.user.id } }));
  });
}
