import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chatHistoryExport, chatHistoryResponse, insightsLimits, widgetSessionResponse } from "../../contract";
import { applyStorageMigrations } from "../../worker/durable-objects/storage-migrations";
import { assistantStorageMigrations } from "../../worker/assistant/storage-migrations";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { call, json } from "./helpers";
import { DAY_MS, ask, insightsOf, rated, utcDate, withInsightsStore } from "./insights-helpers";
import { seedLegacyVisitorSession, uploadFiles } from "./public-assistants-helpers";
import { completions, createSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/** Insights for owners: what the owner's GET …/insights shows after real visitor turns. */

afterEach(() => {
  vi.useRealTimers();
});

/** Runs `work` with every clock of this isolate (the worker's and the assistant's object's) set `daysAgo` days back. */
async function daysAgo<T>(days: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() - days * DAY_MS);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

const totals = (daily: { conversations: number; messages: number }[]) =>
  daily.reduce((t, d) => ({ conversations: t.conversations + d.conversations, messages: t.messages + d.messages }), { conversations: 0, messages: 0 });

describe("conversations and messages per UTC day", () => {
  it("are exact across several sessions and days, concurrent turns included, one row per day with zeros, oldest first", async () => {
    const { key, token, assistant } = await widgetAssistant({ config: { dailyLimit: 200, maxMessagesPerSession: 20 } }, { upload: false });
    // Two days ago: session A asks twice, B once. Yesterday: A once more (not a new conversation).
    const a = await daysAgo(2, async () => {
      const { sessionId: a } = await startSession(key);
      const { sessionId: b } = await startSession(key);
      await ask(key, a, "First question");
      await ask(key, a, "Second question");
      await ask(key, b, "Another visitor");
      return a;
    });
    await daysAgo(1, () => ask(key, a, "Back the next day"));
    // Today: four conversations of two messages each, all at once; one session that never asks.
    const today = await Promise.all(Array.from({ length: 4 }, () => startSession(key)));
    await startSession(key);
    await Promise.all(today.map(async ({ sessionId }, i) => {
      await ask(key, sessionId, `Visitor ${i} asks`);
      await ask(key, sessionId, `Visitor ${i} asks again`);
    }));
    // /v1 calls are the owner's server, not visitor conversations: counted in neither.
    const { key: secretKey } = await createSecretKey(token, assistant._id);
    expect((await completions(secretKey, tinyQuestion("server side question"))).status).toBe(200);

    const week = await insightsOf(token, assistant._id, 7);
    const now = Date.now();
    expect(week.days).toBe(7);
    expect(week.daily.map((d) => d.date)).toEqual(Array.from({ length: 7 }, (_, i) => utcDate(now - (6 - i) * DAY_MS)));
    expect(week.daily.map(({ conversations, messages }) => [conversations, messages])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [2, 3],
      [0, 1],
      [4, 8],
    ]);
    // Any period is exact: the same counts in 30 and 90 days, with as many rows as days.
    for (const days of [30, 90] as const) {
      const longer = await insightsOf(token, assistant._id, days);
      expect(longer.daily).toHaveLength(days);
      expect(longer.daily.at(-1)!.date).toBe(utcDate(now));
      expect(totals(longer.daily)).toEqual({ conversations: 6, messages: 12 });
    }
    // No days: the default period.
    expect((await insightsOf(token, assistant._id)).daily).toHaveLength(insightsLimits.defaultDays);
  });

  it("leaves days out of the period out of the counts", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    await daysAgo(10, async () => ask(key, (await startSession(key)).sessionId, "An older question"));
    await ask(key, (await startSession(key)).sessionId, "A question today");
    expect(totals((await insightsOf(token, assistant._id, 7)).daily)).toEqual({ conversations: 1, messages: 1 });
    expect(totals((await insightsOf(token, assistant._id, 30)).daily)).toEqual({ conversations: 2, messages: 2 });
  });
});

describe("questions and gaps", () => {
  it("counts a question under its normalised text with the latest wording; a gap is one retrieval found nothing for, until it finds something", async () => {
    const { key, token, assistant } = await widgetAssistant();
    const [s1, s2, s3, s4, s5, s6] = await Promise.all(Array.from({ length: 6 }, () => startSession(key))).then((all) => all.map((s) => s.sessionId));
    await ask(key, s1!, "How do refunds work for a zephyrboard?");
    await ask(key, s2!, "how do refunds work for a ZEPHYRBOARD");
    await ask(key, s3!, "  How do refunds   work for a zephyrboard!! ");
    // Fresh conversations: retrieval also reads the visitor's last turns, which would find the refund passage.
    await ask(key, s4!, "Do you sell quokka saddles?");
    await ask(key, s5!, "do you sell quokka saddles");

    let insights = await insightsOf(token, assistant._id, 7);
    expect(insights.topQuestions.map(({ question, count, sessionIds }) => ({ question, count, sessionIds }))).toEqual([
      { question: "How do refunds work for a zephyrboard!!", count: 3, sessionIds: [s3, s2, s1] },
      { question: "do you sell quokka saddles", count: 2, sessionIds: [s5, s4] },
    ]);
    expect(insights.gaps.map(({ question, count, sessionIds }) => ({ question, count, sessionIds }))).toEqual([
      { question: "do you sell quokka saddles", count: 2, sessionIds: [s5, s4] },
    ]);
    expect(insights.gaps[0]!.lastAskedAt).toBeLessThanOrEqual(Date.now());

    // The owner adds what was missing: the next asking finds it, and the gap leaves the list.
    const upload = await uploadFiles(token, assistant._id, [{ name: "saddles.md", bytes: "# Saddles\n\nWe sell quokka saddles in three sizes.", type: "text/markdown" }]);
    expect(upload.status).toBe(201);
    await ask(key, s6!, "Do you sell quokka saddles?");
    insights = await insightsOf(token, assistant._id, 7);
    expect(insights.gaps).toEqual([]);
    // As often asked: the most recently asked first.
    expect(insights.topQuestions.map((q) => [q.question, q.count])).toEqual([
      ["Do you sell quokka saddles?", 3],
      ["How do refunds work for a zephyrboard!!", 3],
    ]);
  });

  it("lists near-identical questions (word order, a typo) as one, with rows counted under the older key shape, and keeps a near-miss apart", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    // A row counted before keys were sorted words: the older shape (edges trimmed, words in order).
    const today = Math.floor(Date.now() / DAY_MS);
    await withInsightsStore(assistant._id, (_store, storage) => {
      const { id } = storage.sql
        .exec(
          `INSERT INTO insight_questions (normalized, wording, asked, last_asked_at, last_gap_at, last_was_gap, session_ids, gap_session_ids)
           VALUES ('what are your opening hours', 'What are your opening hours?', 4, ?, ?, 1, '["old-session"]', '["old-session"]') RETURNING id`,
          Date.now() - 60_000,
          Date.now() - 60_000,
        )
        .one();
      storage.sql.exec("INSERT INTO insight_question_days (day, question_id, asked, gaps) VALUES (?, ?, 4, 4)", today, id);
    });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => startSession(key))).then((all) => all.map((s) => s.sessionId));
    await ask(key, sessions[0]!, "what are your opening hours");
    await ask(key, sessions[1]!, "Your opening hours: what are?");
    await ask(key, sessions[2]!, "What are your openning hours??");
    await ask(key, sessions[3]!, "What are your closing hours?");

    const insights = await insightsOf(token, assistant._id, 7);
    expect(insights.topQuestions.map((q) => [q.question, q.count])).toEqual([
      ["What are your opening hours?", 7],
      ["What are your closing hours?", 1],
    ]);
    expect(insights.topQuestions[0]!.sessionIds).toEqual([sessions[2], sessions[1], sessions[0], "old-session"]);
    expect(insights.gaps.map((q) => [q.question, q.count])).toEqual([
      ["What are your opening hours?", 7],
      ["What are your closing hours?", 1],
    ]);
  });

  it("an assistant with no knowledge counts every question as a gap; a message of punctuation only is no question", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    await ask(key, sessionId, "Where is your shop?");
    await ask(key, sessionId, "?!");
    const insights = await insightsOf(token, assistant._id, 7);
    expect(insights.gaps).toMatchObject([{ question: "Where is your shop?", count: 1, sessionIds: [sessionId] }]);
    expect(insights.topQuestions).toHaveLength(1);
    expect(totals(insights.daily)).toEqual({ conversations: 1, messages: 2 });
  });
});

describe("answer ratings", () => {
  it("rates an answer up, then down (the last rating wins), shown to the widget, in the owner's history and export, and in the insights", async () => {
    const { key, token, assistant } = await widgetAssistant();
    const { sessionId } = await startSession(key);
    const first = await ask(key, sessionId, "How long do refunds take?");
    expect(await rated(key, sessionId, first.answerId, "up")).toEqual({ messageId: first.answerId, rating: "up" });

    let insights = await insightsOf(token, assistant._id, 7);
    expect(insights.feedback).toEqual({ up: 1, down: 0 });
    expect(insights.ratedAnswers).toMatchObject([{ sessionId, messageId: first.answerId, rating: "up", question: "How long do refunds take?" }]);
    expect(insights.ratedAnswers[0]!.answer).toMatch(/^Mock reply to: How long do refunds take\?/);
    expect(insights.ratedAnswers[0]!.answer.length).toBeLessThanOrEqual(insightsLimits.answerPreviewChars);

    expect(await rated(key, sessionId, first.answerId, "down")).toEqual({ messageId: first.answerId, rating: "down" });
    const second = await ask(key, sessionId, "And where do you ship?");
    await rated(key, sessionId, second.answerId, "up");
    insights = await insightsOf(token, assistant._id, 7);
    expect(insights.feedback).toEqual({ up: 1, down: 1 });
    expect(insights.ratedAnswers.map((r) => [r.messageId, r.rating, r.question])).toEqual([
      [second.answerId, "up", "And where do you ship?"],
      [first.answerId, "down", "How long do refunds take?"],
    ]);

    // The widget reads the rating back on the session's messages; only the rated answers carry one.
    const session = await json(await widgetCall(`/api/widget/sessions/${sessionId}`, { key }), widgetSessionResponse);
    expect(session.messages.map((m) => [m.role, m.rating])).toEqual([
      ["user", undefined],
      ["assistant", "down"],
      ["user", undefined],
      ["assistant", "up"],
    ]);
    const history = await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse);
    expect(history.sessions[0]!.messages.map((m) => m.rating)).toEqual([undefined, "down", undefined, "up"]);
    const exported = await json(await call(`/api/public-assistants/${assistant._id}/chats/export`, { token }), chatHistoryExport);
    expect(exported.sessions[0]!.messages.map((m) => m.rating)).toEqual([undefined, "down", undefined, "up"]);
  });

  it("counts ratings given in the period only", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const { sessionId, answerId } = await daysAgo(10, async () => {
      const { sessionId } = await startSession(key);
      const { answerId } = await ask(key, sessionId, "An old question");
      await rated(key, sessionId, answerId, "down");
      return { sessionId, answerId };
    });
    expect((await insightsOf(token, assistant._id, 7)).feedback).toEqual({ up: 0, down: 0 });
    expect((await insightsOf(token, assistant._id, 30)).ratedAnswers).toMatchObject([{ messageId: answerId, sessionId, rating: "down" }]);
  });
});

describe("the 0005_insights migration", () => {
  it("backfills the day counts of an object created with the old schema from its stored history", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    const now = Date.now();
    const dayStart = now - (now % DAY_MS);
    const hub = getAssistantHub(env, assistantId);
    await runInDurableObject(hub, async (_instance, state) => {
      const { sql } = state.storage;
      // The storage of the version before insights, and its data (the object's own start migrated it: start again from nothing).
      await state.storage.deleteAll();
      expect(sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'visitor_sessions'").one().n).toBe(0);
      applyStorageMigrations(state.storage, assistantStorageMigrations.slice(0, 4), "assistant");
      sql.exec("INSERT INTO meta (key, value) VALUES ('imported', ?)", String(now));
      const session = (id: string, startedAt: number, messages: [role: string, at: number][]) => {
        sql.exec("INSERT INTO visitor_sessions (id, message_count, started_at, counted) VALUES (?, ?, ?, 0)", id, messages.length, startedAt);
        messages.forEach(([role, at], i) => sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES (?, ?, ?, 'text', ?)", `${id}-${i}`, id, role, at));
      };
      // Three days ago: two conversations, three visitor messages (answers are not counted).
      session("x", dayStart - 3 * DAY_MS + 1000, [["user", dayStart - 3 * DAY_MS + 1000], ["assistant", dayStart - 3 * DAY_MS + 2000], ["user", dayStart - 3 * DAY_MS + 3000]]);
      // Started at 23:59 three days ago, its next message after midnight: one conversation on the first day, one message on each.
      session("y", dayStart - 2 * DAY_MS - 60_000, [["user", dayStart - 2 * DAY_MS - 60_000], ["assistant", dayStart - 2 * DAY_MS - 50_000], ["user", dayStart - 2 * DAY_MS + 60_000]]);
      // Today: one conversation; and a session with no message is no conversation.
      session("z", dayStart + 1000, [["user", dayStart + 1000]]);
      session("empty", dayStart + 2000, []);
      expect(sql.exec("SELECT id FROM _migrations ORDER BY rowid").toArray().map((r) => r.id)).toEqual(assistantStorageMigrations.slice(0, 4).map((m) => m.id));
      // What the object does when it starts on the new version: the migrations it has not seen, which backfill.
      applyStorageMigrations(state.storage, assistantStorageMigrations, "assistant");
    });

    const insights = await insightsOf(token, assistantId, 7);
    expect(insights.daily.slice(-4).map(({ conversations, messages }) => [conversations, messages])).toEqual([
      [2, 3],
      [0, 1],
      [0, 0],
      [1, 1],
    ]);
    expect(insights.topQuestions).toEqual([]);
    await runInDurableObject(hub, (_instance, state) => {
      expect(state.storage.sql.exec("SELECT id FROM _migrations ORDER BY rowid").toArray().map((r) => r.id)).toEqual(assistantStorageMigrations.map((m) => m.id));
    });
    // The history is untouched.
    expect((await json(await call(`/api/public-assistants/${assistantId}/chats`, { token }), chatHistoryResponse)).total).toBe(4);
  });

  it("counts legacy D1 sessions the move brings in after it, once, even when the move is repeated", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    const hub = getAssistantHub(env, assistantId);
    const forgetMove = () =>
      runInDurableObject(hub, async (instance, state) => {
        await (instance as unknown as AssistantHub).history().count();
        state.storage.sql.exec("DELETE FROM meta WHERE key = 'imported'");
      });
    await forgetMove();
    const startedAt = Date.now() - 2 * DAY_MS;
    const id = await seedLegacyVisitorSession(assistantId, {
      startedAt,
      messages: [
        { role: "user", text: "legacy question" },
        { role: "assistant", text: "legacy answer" },
        { role: "user", text: "legacy follow-up" },
      ],
    });
    expect(totals((await insightsOf(token, assistantId, 7)).daily)).toEqual({ conversations: 1, messages: 2 });
    // The same rows again in D1 (a move interrupted before its delete): copied never twice, counted never twice.
    await forgetMove();
    await env.DB.prepare(
      "INSERT INTO visitor_sessions (id, assistant_id, referrer, origin, user_agent, locale, message_count, started_at) VALUES (?1, ?2, '', '', '', '', 1, ?3)",
    )
      .bind(id, assistantId, startedAt)
      .run();
    const again = await insightsOf(token, assistantId, 7);
    expect(totals(again.daily)).toEqual({ conversations: 1, messages: 2 });
    expect(again.daily.find((d) => d.date === utcDate(startedAt))).toMatchObject({ conversations: 1, messages: 2 });
  });
});
