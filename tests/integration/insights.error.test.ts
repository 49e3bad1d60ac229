import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { insightsLimits, insightsMessages, publicAssistantServerMessages, serverMessages, widget, widgetApiPaths, widgetMessages } from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, expectError } from "./helpers";
import { ask, insightsOf, rate } from "./insights-helpers";
import { sendOverSse, sseFrames, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/** Insights and answer ratings when the input is wrong or the assistant's object fails. */

/** Breaks one table of the assistant's object, so every statement that reads or writes it throws inside the object. */
async function breakTable(assistantId: string, table: string) {
  const hub = getAssistantHub(env, assistantId);
  await hub.history().count(); // the schema exists
  await runInDurableObject(hub, (_instance, state) => {
    state.storage.sql.exec(`ALTER TABLE ${table} RENAME TO ${table}_broken`);
  });
}

describe("GET …/insights?days=", () => {
  it("accepts 7, 30 and 90 only, with the contract's message", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const message = insightsMessages.daysInvalid(insightsLimits.periods);
    for (const days of ["14", "0", "-7", "7.5", "abc", "", "1e9", "Infinity"]) {
      await expectError(await call(`/api/public-assistants/${assistant._id}/insights?days=${days}`, { token }), 400, message);
    }
    for (const days of insightsLimits.periods) expect((await insightsOf(token, assistant._id, days)).daily).toHaveLength(days);
  });

  it("answers a retryable 503 when the assistant's object fails, like the other owner reads", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    await breakTable(assistant._id, "insight_days");
    const res = await call(`/api/public-assistants/${assistant._id}/insights?days=7`, { token });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(widget.assistantRetryAfterSeconds));
    expect(await res.json()).toMatchObject({ error: publicAssistantServerMessages.assistantBusy, code: "SERVICE_UNAVAILABLE" });
  });
});

describe("POST …/messages/:messageId/feedback", () => {
  it("refuses a bad body with the contract's message", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Hello?");
    for (const rating of ["meh", "UP", "", 1, null]) await expectError(await rate(sessionId, answerId, rating as string, { key }), 400, insightsMessages.ratingInvalid);
    await expectError(await widgetCall(widgetApiPaths.feedback(sessionId, answerId), { key, json: {} }), 400, insightsMessages.ratingInvalid);
    await expectError(
      await widgetCall(widgetApiPaths.feedback(sessionId, answerId), { key, method: "POST", body: "{not json", headers: { "content-type": "application/json" } }),
      400,
      serverMessages.invalidJson,
    );
  });

  it("rates only an answer of this open conversation: unknown message 404, the visitor's own message 400, unknown session 404", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const { questionId, answerId } = await ask(key, sessionId, "Hello?");
    await expectError(await rate(sessionId, crypto.randomUUID(), "up", { key }), 404, insightsMessages.messageNotRatable);
    await expectError(await rate(sessionId, questionId, "up", { key }), 400, insightsMessages.messageNotRatable);
    await expectError(await rate(crypto.randomUUID(), answerId, "up", { key }), 404, widgetMessages.sessionNotFound);
    await expectError(await rate(sessionId, "x".repeat(5000), "down", { key }), 404, insightsMessages.messageNotRatable);
  });

  it("answers a retryable 503 when the assistant's object fails", async () => {
    const { key, assistant } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Hello?");
    await breakTable(assistant._id, "visitor_messages");
    const res = await rate(sessionId, answerId, "up", { key });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(widget.assistantRetryAfterSeconds));
    expect(await res.json()).toMatchObject({ error: widgetMessages.assistantUnreachable, code: "SERVICE_UNAVAILABLE" });
  });
});

describe("counting never fails a turn", () => {
  it("a question whose retrieval failed is counted, but is no gap (nothing is known of the knowledge)", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    await breakTable(assistant._id, "knowledge_chunks_fts");
    const { sessionId } = await startSession(key);
    // The turn goes on without passages (whatever the answer); the question is counted.
    await sseFrames(await sendOverSse(key, sessionId, { content: "Where is your shop?" }));
    const insights = await insightsOf(token, assistant._id, 7);
    expect(insights.topQuestions).toMatchObject([{ question: "Where is your shop?", count: 1 }]);
    expect(insights.gaps).toEqual([]);
  });

  it("the visitor is answered even when the insights tables fail", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    await breakTable(assistant._id, "insight_questions");
    await breakTable(assistant._id, "insight_days");
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Still answered?");
    expect(answerId).toBeTruthy();
    const history = await call(`/api/public-assistants/${assistant._id}/chats`, { token });
    expect(history.status).toBe(200);
  });
});
