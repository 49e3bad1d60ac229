import { afterEach, describe, expect, it, vi } from "vitest";
import { insightsLimits, insightsMessages, serverMessages, widget, widgetApiPaths, widgetMessages } from "../../contract";
import { InsightsStore } from "../../worker/assistant/insights-store";
import { call, expectError, randomIp, registerUser, tableCounts, withinOneMinute } from "./helpers";
import { DAY_MS, ask, insightsOf, rate, withInsightsStore } from "./insights-helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { SHOP_ORIGIN, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/** Who may read insights and rate answers, and the bounds of what is stored. */

const EVIL_ORIGIN = "https://evil.example";

afterEach(() => {
  vi.useRealTimers();
});

describe("the owner's insights", () => {
  it("are the owner's only: anonymous 401, another owner 404 with nothing of the assistant in it", async () => {
    const { key, token, assistant } = await widgetAssistant({ name: "Private insights bot" }, { upload: false });
    const { sessionId } = await startSession(key);
    await ask(key, sessionId, "A private question about Bellerophon");
    const path = `/api/public-assistants/${assistant._id}/insights?days=7`;
    await expectError(await call(path), 401, serverMessages.authRequired);
    const intruder = await registerUser();
    const res = await call(path, { token: intruder.token });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Bellerophon");
    // The owner sees it.
    expect((await insightsOf(token, assistant._id, 7)).topQuestions[0]?.question).toBe("A private question about Bellerophon");
  });
});

describe("rating answers", () => {
  it("takes the publishable key only: none 401, a secret key 401, another assistant's key cannot reach this conversation (404)", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const other = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Hello?");
    await expectError(await rate(sessionId, answerId, "up"), 401, widgetMessages.keyMissing);
    const { key: secretKey } = await createSecretKey(token, assistant._id);
    await expectError(await rate(sessionId, answerId, "up", { key: secretKey }), 401, widgetMessages.secretKeyInPage);
    await expectError(await rate(sessionId, answerId, "up", { key: other.key }), 404, widgetMessages.sessionNotFound);
    await expectError(await rate(sessionId, answerId, "up", { key: "tala_pk_" + "A".repeat(43) }), 401, widgetMessages.unavailable);
    // Nothing was rated by those.
    expect((await insightsOf(token, assistant._id, 7)).feedback).toEqual({ up: 0, down: 0 });
  });

  it("cannot rate another visitor's conversation, even of the same assistant", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const mine = await startSession(key);
    const theirs = await startSession(key);
    const { answerId: theirAnswer } = await ask(key, theirs.sessionId, "Their question");
    await ask(key, mine.sessionId, "My question");
    await expectError(await rate(mine.sessionId, theirAnswer, "down", { key }), 404, insightsMessages.messageNotRatable);
    expect((await insightsOf(token, assistant._id, 7)).feedback).toEqual({ up: 0, down: 0 });
  });

  it("follows the allowlist like every widget call: refused sites get 403 without CORS, the allowed one is reflected", async () => {
    const { key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const { answerId } = await ask(key, sessionId, "Hello?", { origin: SHOP_ORIGIN });
    const refused = await rate(sessionId, answerId, "up", { key, origin: EVIL_ORIGIN });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    await expectError(refused, 403, widgetMessages.originNotAllowed);
    await expectError(await rate(sessionId, answerId, "up", { key }), 403, widgetMessages.originNotAllowed);
    const allowed = await rate(sessionId, answerId, "up", { key, origin: SHOP_ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    const preflight = await call(widgetApiPaths.feedback(sessionId, answerId), { method: "OPTIONS", headers: { origin: SHOP_ORIGIN } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("refuses a conversation past its window (closed), like every widget call", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - widget.sessionCounterWindowMs - DAY_MS);
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Long ago");
    vi.useRealTimers();
    await expectError(await rate(sessionId, answerId, "up", { key }), 404, widgetMessages.sessionNotFound);
  });

  it("is throttled per IP by a counter of its own: past the limit a 429 with Retry-After, and messages are not spent", async () => {
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 50 } }, { upload: false });
    await withinOneMinute(async () => {
      const { sessionId } = await startSession(key);
      const ip = randomIp();
      const { answerId } = await ask(key, sessionId, "Hello?", { ip });
      const { limit } = widget.throttles.feedback;
      const statuses: number[] = [];
      for (let i = 0; i < limit; i++) statuses.push((await rate(sessionId, answerId, i % 2 ? "up" : "down", { key, ip })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
      const last = await rate(sessionId, answerId, "up", { key, ip });
      expect(last.status).toBe(429);
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
      // The visitor can still send a message from that network.
      await ask(key, sessionId, "Still allowed to ask?", { ip });
    });
  });
});

describe("bounds", () => {
  it("keeps at most maxTrackedQuestions questions (the least asked, then the oldest, go with their days) and daysKept days", async () => {
    const { assistant } = await widgetAssistant({}, { upload: false });
    const now = Date.now();
    const footprint = await withInsightsStore(assistant._id, (_store, storage) => {
      const store = new InsightsStore(storage, { maxTrackedQuestions: 3, daysKept: 5 });
      const ask = (text: string, at: number, gap = false) => store.countQuestion({ text, sessionId: "s", at, gap });
      ask("popular", now - 3000);
      ask("popular", now - 2000);
      ask("old and rare", now - 6 * DAY_MS);
      ask("rare", now - 1000);
      ask("newest", now); // a fourth: "old and rare" goes
      const kept = store.insights(7, now).topQuestions.map((q) => [q.question, q.count]);
      // Days: the first count of a new day prunes what is older than daysKept.
      store.countVisitorMessage(now - 7 * DAY_MS, true);
      store.countVisitorMessage(now - 2 * DAY_MS, true);
      store.countVisitorMessage(now, true);
      return { kept, after: tableCounts(storage, { days: "insight_days", questions: "insight_questions", questionDays: "insight_question_days" }), daily: store.insights(5, now).daily.map((d) => d.conversations) };
    });
    expect(footprint.kept).toEqual([
      ["popular", 2],
      ["newest", 1],
      ["rare", 1],
    ]);
    expect(footprint.after).toEqual({ days: 2, questions: 3, questionDays: 3 });
    expect(footprint.daily).toEqual([0, 0, 1, 0, 1]);
  });

  it("stores a question at most maxQuestionChars long, however long the message", async () => {
    const { key, token, assistant } = await widgetAssistant({ config: { maxMessagesPerSession: 5 } }, { upload: false });
    const { sessionId } = await startSession(key);
    await ask(key, sessionId, `Why ${"very ".repeat(widget.maxMessageChars / 5 - 2)}?`.slice(0, widget.maxMessageChars));
    const [question] = (await insightsOf(token, assistant._id, 7)).topQuestions;
    expect(question!.question.length).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    const stored = await withInsightsStore(assistant._id, (_s, storage) =>
      storage.sql.exec("SELECT max(length(normalized)) AS n, max(length(wording)) AS w FROM insight_questions").one(),
    );
    expect(Number(stored.n)).toBe(insightsLimits.maxQuestionChars);
    expect(Number(stored.w)).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    // The mock model echoes the 4,000-character question word by word (~4.5 s on a loaded machine).
  }, 20_000);
});

describe("the feedback path", () => {
  it("is the contract's widgetApiPaths.feedback, ids encoded", () => {
    expect(widgetApiPaths.feedback("a/b", "c d")).toBe("/api/widget/sessions/a%2Fb/messages/c%20d/feedback");
  });

  it("a message id that is not this session's, whatever its shape, is refused without touching another row", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    await ask(key, sessionId, "Hello?");
    for (const id of ["' OR 1=1 --", "%00", "../../etc"]) {
      const res = await widgetCall(`/api/widget/sessions/${sessionId}/messages/${encodeURIComponent(id)}/feedback`, { key, json: { rating: "up" } });
      await expectError(res, 404, insightsMessages.messageNotRatable);
    }
  });
});
