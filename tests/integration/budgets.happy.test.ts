import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { budgetMessages, budgetUi, openAiErrorBody } from "../../contract";
import { monthKey } from "../../worker/budgets/budget-math";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { hubRows } from "./public-assistants-helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { openWidgetSocket, startSession } from "./widget-helpers";
import { ask, budgetEmails, eventually, getBudgets, ownerWithAssistants, putOwnerBudget, runBudgetAlarms } from "./budgets-helpers";

afterEach(() => {
  vi.useRealTimers();
});

const completions = (key: string) =>
  call("/api/v1/chat/completions", { json: { model: "x", messages: [{ role: "user", content: "Refunds? [[tokens:2]]" }] }, headers: { authorization: `Bearer ${key}` } });

describe("an assistant's own monthly budget", () => {
  it("pauses exactly at the budget: N of N+k concurrent messages answered, the rest refused with budget-reached", async () => {
    const N = 3;
    const { assistants } = await ownerWithAssistants([{ monthlyBudget: N, budgetAction: "pause" }]);
    const { key, assistant } = assistants[0]!;
    const { sessionId } = await startSession(key);
    const outcomes = await Promise.all(Array.from({ length: N + 3 }, (_, i) => ask(key, sessionId, `question ${i} [[tokens:2]]`)));
    expect(outcomes.filter((o) => o === "answered")).toHaveLength(N);
    expect(outcomes.filter((o) => o !== "answered")).toEqual([budgetMessages.budgetReached, budgetMessages.budgetReached, budgetMessages.budgetReached]);
    expect(await hubRows(assistant._id, "SELECT used FROM budget_months WHERE month = ?", monthKey(Date.now()))).toEqual([{ used: N }]);

    // The socket refuses with the contract's reason, and a new session too: the assistant is paused.
    const fresh = await startSession(key);
    const socket = await openWidgetSocket(fresh.sessionId, key);
    const refusedId = socket.sendMessage({ content: "one more" });
    expect(await socket.next("message-error", (d) => d.clientMessageId === refusedId)).toMatchObject({ error: budgetMessages.budgetReached, reason: "budget-reached" });
    socket.close();
  });

  it("refuses /v1 with an OpenAI-style 429 once the budget is used up (API calls count)", async () => {
    const { token, assistants } = await ownerWithAssistants([{ monthlyBudget: 2 }]);
    const { assistant, key: publishable } = assistants[0]!;
    const { key } = await createSecretKey(token, assistant._id);
    expect((await completions(key)).status).toBe(200);
    const { sessionId } = await startSession(publishable);
    expect(await ask(publishable, sessionId)).toBe("answered");
    const res = await completions(key);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await json(res, openAiErrorBody)).error).toMatchObject({ message: budgetMessages.budgetReached, type: "rate_limit_error", code: "insufficient_quota" });
  });

  it("keeps answering past the budget when the owner chose continue", async () => {
    const { token, assistants } = await ownerWithAssistants([{ monthlyBudget: 2, budgetAction: "continue" }]);
    const { key, assistant } = assistants[0]!;
    const { sessionId } = await startSession(key);
    for (let i = 0; i < 4; i++) expect(await ask(key, sessionId)).toBe("answered");
    const { assistants: usage } = await getBudgets(token);
    expect(usage).toEqual([{ assistantId: assistant._id, name: assistant.name, limit: 2, action: "continue", used: 4, month: monthKey(Date.now()), paused: false }]);
  });

  it("e-mails the owner at 80 % and at 100 %, each exactly once, whatever comes after", async () => {
    const { email, user, assistants } = await ownerWithAssistants([{ monthlyBudget: 5, budgetAction: "pause" }]);
    const { key, assistant } = assistants[0]!;
    const { sessionId } = await startSession(key);
    // 4 at once (the 4th reaches 80 %), then 4 more at once (the 5th reaches 100 %, 3 refused).
    await Promise.all(Array.from({ length: 4 }, () => ask(key, sessionId)));
    await Promise.all(Array.from({ length: 4 }, () => ask(key, sessionId)));
    const emails = await eventually(() => budgetEmails(email), (e) => e.length >= 2, "both budget e-mails");
    expect(emails.map((e) => e.subject).sort()).toEqual([budgetMessages.emailSubject(assistant.name, 100), budgetMessages.emailSubject(assistant.name, 80)].sort());
    const full = emails.find((e) => e.subject.includes("100%"))!;
    expect(full.text).toBe(budgetMessages.emailBody(assistant.name, 5, 5, budgetUi.emailOutcome("assistant", "pause", true)));

    // More refused messages, and the retry alarms, never send either again.
    expect(await ask(key, sessionId)).toBe(budgetMessages.budgetReached);
    await runBudgetAlarms([assistant._id], user.id);
    expect(await hubRows(assistant._id, "SELECT percent, status FROM budget_notices ORDER BY percent")).toEqual([
      { percent: 80, status: "sent" },
      { percent: 100, status: "sent" },
    ]);
    expect(await budgetEmails(email)).toHaveLength(2);
  });

  it("raising or removing the budget lifts the pause at once", async () => {
    const { token, assistants } = await ownerWithAssistants([{ monthlyBudget: 1 }]);
    const { key, assistant } = assistants[0]!;
    const { sessionId } = await startSession(key);
    expect(await ask(key, sessionId)).toBe("answered");
    expect(await ask(key, sessionId)).toBe(budgetMessages.budgetReached);
    expect((await getBudgets(token)).assistants[0]).toMatchObject({ used: 1, limit: 1, paused: true });

    const raise = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { config: { monthlyBudget: 2 } } });
    expect(raise.status).toBe(200);
    expect(await ask(key, sessionId)).toBe("answered");
    expect(await ask(key, sessionId)).toBe(budgetMessages.budgetReached);

    const remove = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { config: { monthlyBudget: null } } });
    expect(remove.status).toBe(200);
    expect(await ask(key, sessionId)).toBe("answered");
    expect((await getBudgets(token)).assistants[0]).toMatchObject({ used: 3, limit: null, paused: false });
  });

  it("a new UTC month restarts the count and lifts the pause by itself", async () => {
    const { token, assistants } = await ownerWithAssistants([{ monthlyBudget: 2 }]);
    const { key, assistant } = assistants[0]!;
    // Last month (every clock of this isolate, the assistant's object included, set back).
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 27, 12));
    const lastMonth = monthKey(Date.now());
    const old = await startSession(key);
    expect(await ask(key, old.sessionId)).toBe("answered");
    expect(await ask(key, old.sessionId)).toBe("answered");
    expect(await ask(key, old.sessionId)).toBe(budgetMessages.budgetReached);
    vi.useRealTimers();

    const { sessionId } = await startSession(key);
    expect(await ask(key, sessionId)).toBe("answered");
    expect((await getBudgets(token)).assistants[0]).toMatchObject({ used: 1, month: monthKey(Date.now()), paused: false });
    expect(await hubRows(assistant._id, "SELECT month, used FROM budget_months ORDER BY month")).toEqual([
      { month: lastMonth, used: 2 },
      { month: monthKey(Date.now()), used: 1 },
    ]);
  });

  it("the owner's Playground counts nothing", async () => {
    const { token, assistants } = await ownerWithAssistants([{ monthlyBudget: 1 }]);
    const { assistant } = assistants[0]!;
    const res = await call(`/api/public-assistants/${assistant._id}/playground`, {
      token,
      json: { content: "Refunds? [[tokens:2]]", clientMessageId: crypto.randomUUID() },
    });
    expect(res.status).toBe(200);
    await res.text();
    expect((await getBudgets(token)).assistants[0]).toMatchObject({ used: 0, paused: false });
  });
});

describe("the owner's budget across all their assistants", () => {
  it("counts both assistants, e-mails at 80 % and 100 % once, pauses both, and raising it lifts the pause", async () => {
    const { token, email, user, assistants } = await ownerWithAssistants([{}, {}]);
    const [a, b] = assistants as [(typeof assistants)[0], (typeof assistants)[0]];
    const set = await putOwnerBudget(token, { limit: 5, action: "pause" });
    expect(set.owner).toEqual({ limit: 5, action: "pause", used: 0, month: monthKey(Date.now()), paused: false });

    const sa = await startSession(a.key);
    const sb = await startSession(b.key);
    for (let i = 0; i < 3; i++) expect(await ask(a.key, sa.sessionId)).toBe("answered");
    for (let i = 0; i < 2; i++) expect(await ask(b.key, sb.sessionId)).toBe("answered");

    // The room's total reaches 5 (reports after each answer) and it tells both assistants.
    for (const { assistant } of [a, b]) {
      await eventually(
        () => hubRows(assistant._id, "SELECT value FROM meta WHERE key = 'owner_budget_paused'"),
        (rows) => rows.length === 1,
        "the owner's pause reached the assistant",
      );
    }
    expect(await ask(a.key, sa.sessionId)).toBe(budgetMessages.budgetReached);
    expect(await ask(b.key, sb.sessionId)).toBe(budgetMessages.budgetReached);
    const budgets = await getBudgets(token);
    expect(budgets.owner).toMatchObject({ limit: 5, used: 5, paused: true });
    expect(budgets.assistants.map((x) => x.used).sort()).toEqual([2, 3]);
    // The room's own total (the reports), not only the objects' counts GET adds up.
    const room = await getUserRoom(env, user.id).ownerBudget();
    expect(room).toMatchObject({ ok: true, usage: { used: 5, paused: true } });

    const emails = await eventually(() => budgetEmails(email), (e) => e.length >= 2, "owner budget e-mails");
    expect(emails.map((e) => e.subject).sort()).toEqual([budgetMessages.emailSubject(budgetUi.allAssistantsName, 100), budgetMessages.emailSubject(budgetUi.allAssistantsName, 80)].sort());
    await runBudgetAlarms([a.assistant._id, b.assistant._id], user.id);
    expect(await budgetEmails(email)).toHaveLength(2);

    // Raising the budget lifts the pause before the owner's request answers.
    const raised = await putOwnerBudget(token, { limit: 10, action: "pause" });
    expect(raised.owner).toMatchObject({ limit: 10, used: 5, paused: false });
    expect(await ask(a.key, sa.sessionId)).toBe("answered");
    expect(await ask(b.key, sb.sessionId)).toBe("answered");

    // Removing it: no budget, counts go on.
    const removed = await putOwnerBudget(token, { limit: null });
    expect(removed.owner).toMatchObject({ limit: null, paused: false });
    await eventually(() => getBudgets(token), (r) => r.owner.used === 7, "the month's total");
  });

  it("continue: the assistants keep answering past the owner's budget", async () => {
    const { token, assistants } = await ownerWithAssistants([{}]);
    const { key } = assistants[0]!;
    await putOwnerBudget(token, { limit: 1, action: "continue" });
    const { sessionId } = await startSession(key);
    for (let i = 0; i < 3; i++) expect(await ask(key, sessionId)).toBe("answered");
    expect((await getBudgets(token)).owner).toMatchObject({ limit: 1, action: "continue", used: 3, paused: false });
    // A new limit without an action keeps the action chosen before.
    expect((await putOwnerBudget(token, { limit: 2 })).owner).toMatchObject({ limit: 2, action: "continue", paused: false });
  });
});
