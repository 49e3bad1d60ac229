import { Hono } from "hono";
import { ownerBudgetBody } from "../../../contract";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { getBudgets, setOwnerBudget } from "../../services/budgets/budgets";

/**
 * /api/budgets: the signed-in owner's monthly message budgets (worker/budgets/README.md).
 * An assistant's own budget is part of its config (PUT /api/public-assistants/:id).
 */
export function budgetRoutes() {
  return (
    new Hono<AppEnv>()
      .use("*", requireUser)
      /** GET /api/budgets → budgetsResponse: the all-assistants budget and every assistant's, this UTC month. */
      .get("/", async (c) => c.json(await getBudgets({ ctx: serviceContext(c), input: { userId: c.var.user.id } })))
      /** PUT /api/budgets { limit: number | null, action? } → budgetsResponse. */
      .put("/", jsonBody(ownerBudgetBody), async (c) =>
        c.json(await setOwnerBudget({ ctx: serviceContext(c), input: { userId: c.var.user.id, body: c.req.valid("json") } })),
      )
  );
}
