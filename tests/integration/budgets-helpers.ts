import { env, runDurableObjectAlarm } from "cloudflare:test";
import { expect } from "vitest";
import { apiKeyResponse, budgetMessages, budgetsResponse, errorBodySchema, type OwnerBudgetBody, type PublicAssistantBody } from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { call, json, outbox, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { sendOverSse, sseFrames } from "./widget-helpers";

/** GET /api/budgets, expecting 200. */
export async function getBudgets(token: string) {
  const res = await call("/api/budgets", { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, budgetsResponse);
}

/** PUT /api/budgets, expecting 200. */
export async function putOwnerBudget(token: string, body: OwnerBudgetBody) {
  const res = await call("/api/budgets", { token, method: "PUT", json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, budgetsResponse);
}

/** One visitor message over SSE: "answered" (200, read to its end) or the refusal's message (status 429 expected). */
export async function ask(key: string, sessionId: string, content = "question [[tokens:2]]"): Promise<"answered" | string> {
  const res = await sendOverSse(key, sessionId, { content });
  if (res.status === 200) {
    await sseFrames(res);
    return "answered";
  }
  expect(res.status, await res.clone().text()).toBe(429);
  const body = await json(res, errorBodySchema);
  // The HTTP refusal names its reason as the socket's message-error does (the widget blocks on it).
  if (body.error === budgetMessages.budgetReached) expect(body.reason).toBe("budget-reached");
  return body.error;
}

/** The budget e-mails the dev outbox holds for `to` (subjects), oldest first. */
export async function budgetEmails(to: string) {
  return (await outbox(to)).filter((e) => /monthly message budget/.test(e.subject)).reverse();
}

/** Waits (bounded) until `check` holds; the background step it waits on (an e-mail, a report) has no other signal. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, label: string, tries = 100): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !check(value); i++) {
    await new Promise((r) => setTimeout(r, 20));
    value = await read();
  }
  expect(check(value), `${label}: ${JSON.stringify(value)}`).toBe(true);
  return value;
}

/** Runs the alarms of an assistant's object and of its owner's room (a retry must never send twice). */
export async function runBudgetAlarms(assistantIds: string[], userId: string) {
  for (const id of assistantIds) await runDurableObjectAlarm(getAssistantHub(env, id));
  await runDurableObjectAlarm(getUserRoom(env, userId));
}

/** A fresh owner with `configs.length` assistants (settings each), their publishable keys. */
export async function ownerWithAssistants(configs: PublicAssistantBody["config"][]) {
  const owner = await registerUser();
  const assistants = [];
  for (const [i, config] of configs.entries()) {
    const assistant = await createAssistant(owner.token, { name: `Helper ${i + 1}`, config: { maxMessagesPerSession: 50, dailyLimit: 1000, ...config } });
    const res = await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: owner.token });
    assistants.push({ assistant, key: (await json(res, apiKeyResponse)).apiKey });
  }
  return { ...owner, assistants };
}
