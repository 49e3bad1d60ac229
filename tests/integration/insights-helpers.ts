import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { feedbackResponse, insightsResponse, widgetApiPaths, type FeedbackRating } from "../../contract";
import { InsightsStore } from "../../worker/assistant/insights-store";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json, randomIp } from "./helpers";
import { sendOverSse, sseFrames, widgetCall, type WidgetCallInit } from "./widget-helpers";

/** Helpers of tests/integration/insights.*.test.ts (counts, questions, gaps, ratings). */

export const DAY_MS = 24 * 60 * 60 * 1000;
export const utcDate = (at: number) => new Date(at).toISOString().slice(0, 10);

/** One visitor turn over SSE (a fresh network unless `ip`); returns the saved answer's id and the visitor message's. */
export async function ask(key: string, sessionId: string, content: string, init: { ip?: string; origin?: string } = {}) {
  const frames = await sseFrames(await sendOverSse(key, sessionId, { content }, { ip: init.ip ?? randomIp(), origin: init.origin }));
  const saved = frames.filter((f) => f.event === "new-message").map((f) => (f.data as { message: { id: string; role: string } }).message);
  const question = saved.find((m) => m.role === "user");
  const answer = saved.find((m) => m.role === "assistant");
  if (!question || !answer) throw new Error(`the turn did not complete: ${JSON.stringify(frames.map((f) => f.event))}`);
  return { questionId: question.id, answerId: answer.id };
}

/** GET …/insights as the owner (200 expected), parsed with the contract. */
export async function insightsOf(token: string, assistantId: string, days?: number) {
  const res = await call(`/api/public-assistants/${assistantId}/insights${days === undefined ? "" : `?days=${days}`}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, insightsResponse);
}

/** POST …/feedback with the publishable key (or whatever `init.key` says). */
export const rate = (sessionId: string, messageId: string, rating: FeedbackRating | string, init: WidgetCallInit = {}) =>
  widgetCall(widgetApiPaths.feedback(sessionId, messageId), { ip: randomIp(), ...init, json: { rating } });

export async function rated(key: string, sessionId: string, messageId: string, rating: FeedbackRating) {
  const res = await rate(sessionId, messageId, rating, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, feedbackResponse);
}

/** Runs `work` on the insights store of an assistant's object, opened as any call would (schema, copy, legacy move). */
export async function withInsightsStore<T>(assistantId: string, work: (store: InsightsStore, storage: DurableObjectStorage) => T): Promise<T> {
  return runInDurableObject(getAssistantHub(env, assistantId), async (instance, state) => {
    await (instance as unknown as AssistantHub).history().count();
    return work(new InsightsStore(state.storage), state.storage);
  });
}
