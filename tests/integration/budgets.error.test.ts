import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { budgetMessages, budgets, serverMessages } from "../../contract";
import { monthKey } from "../../worker/budgets/budget-math";
import { BudgetNotices, deliverBudgetNotices } from "../../worker/budgets/budget-notices";
import type { Env } from "../../worker/env";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, expectError } from "./helpers";
import { hubRows } from "./public-assistants-helpers";
import { startSession } from "./widget-helpers";
import { ask, budgetEmails, eventually, getBudgets, ownerWithAssistants, putOwnerBudget } from "./budgets-helpers";

const limitInvalid = budgetMessages.limitInvalid(budgets.min, budgets.max);
const actionInvalid = budgetMessages.actionInvalid(budgets.actions);

describe("GET/PUT /api/budgets", () => {
  it("needs a signed-in owner", async () => {
    expect((await call("/api/budgets")).status).toBe(401);
    expect((await call("/api/budgets", { method: "PUT", json: { limit: 10 } })).status).toBe(401);
    expect((await call("/api/budgets", { token: "not-a-token" })).status).toBe(401);
  });

  it("refuses a budget that is not a whole number in range, or an unknown action, and changes nothing", async () => {
    const { token } = await ownerWithAssistants([]);
    for (const limit of [0, -5, 1.5, "10", budgets.max + 1, undefined]) {
      await expectError(await call("/api/budgets", { token, method: "PUT", json: { limit } }), 400, limitInvalid);
    }
    await expectError(await call("/api/budgets", { token, method: "PUT", json: { limit: 10, action: "stop" } }), 400, actionInvalid);
    await expectError(await call("/api/budgets", { token, method: "PUT", body: "{", headers: { "content-type": "application/json" } }), 400, serverMessages.invalidJson);
    expect((await getBudgets(token)).owner).toEqual({ limit: null, action: "pause", used: 0, month: monthKey(Date.now()), paused: false });
  });

  it("shows an owner only their own assistants", async () => {
    const a = await ownerWithAssistants([{ monthlyBudget: 10 }]);
    const b = await ownerWithAssistants([{}]);
    const seen = await getBudgets(b.token);
    expect(seen.assistants.map((x) => x.assistantId)).toEqual([b.assistants[0]!.assistant._id]);
    expect(seen.assistants[0]).toMatchObject({ limit: null, used: 0, paused: false });
    await putOwnerBudget(b.token, { limit: 3 });
    expect((await getBudgets(a.token)).owner.limit).toBeNull();
  });
});

describe("an assistant's budget in its settings", () => {
  it("refuses an out-of-range budget or an unknown action with the contract's messages", async () => {
    const { token, assistants } = await ownerWithAssistants([{}]);
    const path = `/api/public-assistants/${assistants[0]!.assistant._id}`;
    for (const monthlyBudget of [0, 2.5, budgets.max + 1, "100"]) {
      await expectError(await call(path, { token, method: "PUT", json: { config: { monthlyBudget } } }), 400, limitInvalid);
    }
    await expectError(await call(path, { token, method: "PUT", json: { config: { budgetAction: "stop" } } }), 400, actionInvalid);
    await expectError(await call("/api/public-assistants", { token, json: { name: "X", config: { monthlyBudget: -1 } } }), 400, limitInvalid);
  });

  it("a failed e-mail is retried later, and once sent is never sent again", async () => {
    const { email, user, assistants } = await ownerWithAssistants([{ monthlyBudget: 10 }]);
    const { assistant, key } = assistants[0]!;
    const { sessionId } = await startSession(key);
    expect(await ask(key, sessionId)).toBe("answered");
    const hub = getAssistantHub(env, assistant._id);
    const now = Date.now();
    const month = monthKey(now);
    // A threshold recorded as the turn would, then a delivery whose sender fails (production mode, no provider configured).
    const failing = { ...env, ENVIRONMENT: "production", EMAIL_API_KEY: "", EMAIL_FROM: "" } as unknown as Env;
    const afterFailure = await runInDurableObject(hub, async (_instance, state) => {
      new BudgetNotices(state.storage).record({ scope: "assistant", month, used: 8, limit: 10, action: "pause", name: assistant.name, userId: user.id, now });
      const next = await deliverBudgetNotices(failing, state.storage, now);
      return { next, rows: state.storage.sql.exec("SELECT status, attempts FROM budget_notices").toArray() };
    });
    expect(afterFailure.rows).toEqual([{ status: "pending", attempts: 1 }]);
    expect(afterFailure.next).toBeGreaterThan(now);
    expect(await budgetEmails(email)).toHaveLength(0);

    // Not due yet: nothing is sent. Due: sent once; later deliveries find nothing to send.
    await runInDurableObject(hub, (_i, state) => deliverBudgetNotices(env as unknown as Env, state.storage, now));
    expect(await budgetEmails(email)).toHaveLength(0);
    const later = afterFailure.next! + 1;
    await runInDurableObject(hub, (_i, state) => deliverBudgetNotices(env as unknown as Env, state.storage, later));
    await runInDurableObject(hub, (_i, state) => deliverBudgetNotices(env as unknown as Env, state.storage, later + 60 * 60_000));
    const emails = await budgetEmails(email);
    expect(emails.map((e) => e.subject)).toEqual([budgetMessages.emailSubject(assistant.name, 80)]);
  });

  it("an assistant that missed the lift of the owner's pause asks the owner's room again when it refuses, and resumes", async () => {
    const { assistants } = await ownerWithAssistants([{}]);
    const { assistant, key } = assistants[0]!;
    const { sessionId } = await startSession(key);
    // Told "paused" (a word that arrived after the owner removed the budget, say); the room knows better.
    expect(await getAssistantHub(env, assistant._id).budgets().setOwnerPause({ month: monthKey(Date.now()), paused: true })).toEqual({ ok: true });
    expect(await ask(key, sessionId)).toBe(budgetMessages.budgetReached);
    await eventually(() => hubRows(assistant._id, "SELECT value FROM meta WHERE key = 'owner_budget_paused'"), (rows) => rows.length === 0, "the room's answer lifted the pause");
    expect(await ask(key, sessionId)).toBe("answered");
  });
});

describe("owner isolation of the all-assistants budget", () => {
  it("one owner's used-up budget pauses their assistants only, never another owner's", async () => {
    const mine = await ownerWithAssistants([{}]);
    const theirs = await ownerWithAssistants([{}]);
    const [a] = mine.assistants as [(typeof mine.assistants)[0]];
    const [b] = theirs.assistants as [(typeof theirs.assistants)[0]];
    await putOwnerBudget(mine.token, { limit: 1, action: "pause" });
    const sa = await startSession(a.key);
    const sb = await startSession(b.key);
    expect(await ask(a.key, sa.sessionId)).toBe("answered");
    await eventually(() => hubRows(a.assistant._id, "SELECT value FROM meta WHERE key = 'owner_budget_paused'"), (rows) => rows.length === 1, "the owner's pause");
    expect(await ask(a.key, sa.sessionId)).toBe(budgetMessages.budgetReached);
    // The other owner's assistant answers, its object was never told, and their budgets show nothing of mine.
    expect(await ask(b.key, sb.sessionId)).toBe("answered");
    expect(await hubRows(b.assistant._id, "SELECT value FROM meta WHERE key = 'owner_budget_paused'")).toEqual([]);
    const other = await getBudgets(theirs.token);
    expect(other.owner).toMatchObject({ limit: null, paused: false });
    expect(other.assistants.map((x) => x.assistantId)).toEqual([b.assistant._id]);
  });
});
