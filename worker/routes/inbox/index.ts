import { Hono } from "hono";
import { requireUser } from "../../http/auth";
import { teamGuard, workspaceOf } from "../../http/team-guard";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { inboxSummary } from "../../services/handoff/inbox-summary";

/** /api/inbox: the inbox across a workspace's assistants (`X-Workspace-Id`, the caller's own by default). GET /summary → inboxSummaryResponse (the navigation's badge). */
export function inboxRoutes() {
  return new Hono<AppEnv>().use("*", requireUser, teamGuard).get("/summary", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await inboxSummary({ ctx: serviceContext(c), input: { userId: workspaceOf(c) } }));
  });
}
