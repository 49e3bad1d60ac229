import { Hono } from "hono";
import { ownerBudgetBody } from "../../../contract";
import { requireUser } from "../../http/auth";
import { teamGuard, workspaceOf } from "../../http/team-guard";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { getBudgets, setOwnerBudget } from "../../services/budgets/budgets";

/**
 * /api/budgets: the workspace's monthly message budgets (`X-Workspace-Id`, the caller's own by default) (worker/budgets/README.md).
 * An assistant's own budget is part of its config (PUT /api/public-assistants/:id).
 */
export function budgetRoutes() {
  return (
    new Hono<AppEnv>()
      .use("*", requireUser, teamGuard)
      /** GET /api/budgets → budgetsResponse: the all-assistants budget and every assistant's, this UTC month. */
      .get("/", async (c) => c.json(await getBudgets({ ctx: serviceContext(c), input: { userId: workspaceOf(c) } })))
      /** PUT /api/budgets { limit: number | null, action? } → budgetsResponse. */
      .put("/", jsonBody(ownerBudgetBody), async (c) =>
        c.json(await setOwnerBudget({ ctx: serviceContext(c), input: { userId: workspaceOf(c), body: c.req.valid("json") } })),
      )
  );
}
