import { unlessGone } from "../../assistant/gone";
import { desc, eq } from "drizzle-orm";
import { budgetUi, serverMessages, userRoomId, type BudgetsResponse, type BudgetUsage, type OwnerBudgetBody } from "../../../contract";
import { budgetPaused, monthKey } from "../../budgets/budget-math";
import { publicAssistants } from "../../db/schema";
import { AppError, unauthorized } from "../../http/errors";
import { callFacet, getAssistantHub } from "../../durable-objects/stubs";
import { callChatRoom } from "../call-chat-room";
import type { ServiceContext } from "../context";
import { readConfig } from "../public-assistants/to-public-assistant";

type OwnerState = { ok: true; usage: BudgetUsage; perAssistant: Record<string, number> } | { ok: false };

/** The owner's room answered a sentinel: a deleted account (the session is over) or a failure (retryable). */
async function ownerState(ctx: ServiceContext, userId: string, call: Parameters<typeof callChatRoom<OwnerState>>[2]) {
  const state = await callChatRoom(ctx, userRoomId(userId), call);
  if (state.ok) return state;
  const user = await ctx.env.DB.prepare("SELECT 1 AS n FROM users WHERE id = ?").bind(userId).first();
  if (!user) throw unauthorized(serverMessages.sessionExpired);
  throw new AppError("SERVICE_UNAVAILABLE", budgetUi.unavailable);
}

/**
 * The owner's budgets this month: the all-assistants one (from their room) and each assistant's
 * own (its settings from D1, its count from its own object, one call each in parallel). An
 * assistant's object that does not answer shows the count its last report gave the owner's room.
 * The all-assistants `used` counts every assistant's messages this month, deleted ones included.
 */
async function compose(ctx: ServiceContext, userId: string, owner: Extract<OwnerState, { ok: true }>): Promise<BudgetsResponse> {
  const rows = await ctx.db
    .select({ id: publicAssistants.id, name: publicAssistants.name, config: publicAssistants.config })
    .from(publicAssistants)
    .where(eq(publicAssistants.userId, userId))
    .orderBy(desc(publicAssistants.createdAt), desc(publicAssistants.id));
  const answers = await Promise.allSettled(rows.map((r) => callFacet(getAssistantHub(ctx.env, r.id).budgets(), (b) => b.usage())));
  const reported = new Map(Object.entries(owner.perAssistant));
  const month = monthKey(Date.now());
  const assistants = rows.map((row, i) => {
    const answer = answers[i]!;
    const config = readConfig(row.config);
    const usage = answer.status === "fulfilled" ? unlessGone(answer.value, null) : null;
    const hubUsed = usage?.ok ? usage.usage.used : null;
    if (hubUsed === null) console.error(JSON.stringify({ event: "budget-usage-unavailable", assistantId: row.id }));
    const used = Math.max(hubUsed ?? 0, reported.get(row.id) ?? 0);
    reported.set(row.id, used);
    return {
      assistantId: row.id,
      name: row.name,
      limit: config.monthlyBudget,
      action: config.budgetAction,
      used,
      month,
      paused: budgetPaused(config.monthlyBudget, config.budgetAction, used),
    };
  });
  const ownerUsed = [...reported.values()].reduce((a, b) => a + b, 0);
  const { limit, action } = owner.usage;
  return { owner: { limit, action, used: ownerUsed, month, paused: budgetPaused(limit, action, ownerUsed) }, assistants };
}

/** GET /api/budgets. */
export async function getBudgets({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<BudgetsResponse> {
  const owner = await ownerState(ctx, input.userId, (room) => room.ownerBudget());
  return compose(ctx, input.userId, owner);
}

/**
 * PUT /api/budgets: sets (limit null: removes) the all-assistants budget (no `action`: the one
 * chosen before, "pause" at first); the owner's room tells
 * every assistant at once whether it pauses them (a raised or removed budget lifts the pause).
 */
export async function setOwnerBudget({ ctx, input }: { ctx: ServiceContext; input: { userId: string; body: OwnerBudgetBody } }): Promise<BudgetsResponse> {
  const owner = await ownerState(ctx, input.userId, (room) =>
    room.setOwnerBudget({ limit: input.body.limit, action: input.body.action }),
  );
  return compose(ctx, input.userId, owner);
}
