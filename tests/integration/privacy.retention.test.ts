import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { privacyLimits, visitorSessionResponse, type PublicAssistantBody } from "../../contract";
import { assistantStorageMigrations } from "../../worker/assistant/storage-migrations";
import { nextRetentionAt, RETENTION_REARM_MS } from "../../worker/assistant/hub-privacy";
import { applyStorageMigrations } from "../../worker/durable-objects/storage-migrations";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import type { HubCore } from "../../worker/assistant/hub-core";
import { call, evictDurableObject, json } from "./helpers";
import { ask, insightsOf, rated } from "./insights-helpers";
import { submittedLead } from "./lead-helpers";
import { ageConversation, chatPath, DAY_MS, fireAlarm, inHub, privacyAssistant, retentionSchedule, rowsAbout, seedConversations, tablesOf } from "./privacy-helpers";
import { startSession } from "./widget-helpers";

const setRetention = async (token: string, assistantId: string, config: NonNullable<PublicAssistantBody["config"]>) => {
  const res = await call(`/api/public-assistants/${assistantId}`, { token, method: "PUT", json: { config } });
  expect(res.status, await res.clone().text()).toBe(200);
};

const sessionCount = (assistantId: string) => inHub(assistantId, (s) => Number(s.sql.exec("SELECT count(*) AS n FROM visitor_sessions").one().n));

describe("retention's schedule", () => {
  it("turning retention on schedules the daily pass at the assistant's hour; off cancels it", async () => {
    const { token, assistantId } = await privacyAssistant();
    expect((await retentionSchedule(assistantId)).at).toBeNull();
    const before = Date.now();
    await setRetention(token, assistantId, { retentionDays: 30 });
    const on = await retentionSchedule(assistantId);
    expect(on.at).toBe(nextRetentionAt(assistantId, before));
    expect(on.at).toBeGreaterThan(before);
    expect(on.at! - before).toBeLessThanOrEqual(DAY_MS);
    expect(new Date(on.at!).getUTCHours()).toBe(privacyLimits.retentionHourUtc);
    expect(on.alarm).toBeLessThanOrEqual(on.at!);
    await setRetention(token, assistantId, { retentionDays: null });
    expect((await retentionSchedule(assistantId)).at).toBeNull();
  });

  it("the daily hour is spread over an hour by the assistant's id, and always ahead", () => {
    const midnight = Date.UTC(2026, 10, 27);
    const a = nextRetentionAt("assistant-a", midnight);
    const b = nextRetentionAt("assistant-b", midnight);
    expect(a).not.toBe(b);
    for (const at of [a, b]) expect(at - midnight - privacyLimits.retentionHourUtc * 3_600_000).toBeGreaterThanOrEqual(0);
    for (const at of [a, b]) expect(at - midnight - privacyLimits.retentionHourUtc * 3_600_000).toBeLessThan(3_600_000);
    expect(nextRetentionAt("assistant-a", a)).toBe(a + DAY_MS);
  });
});

describe("the retention pass", () => {
  it("deletes conversations older than the retention (messages, ratings, Insights' links), keeps recent ones, their leads unless chosen, and the day counts", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    // A real conversation (question counted, answer rated, a lead), then made 40 days old.
    const { sessionId: real } = await startSession(key);
    const { answerId } = await ask(key, real, "Do you ship to Morocco?");
    await rated(key, real, answerId, "down");
    await submittedLead(key, real, { name: "Amina", email: "amina@example.com" });
    await ageConversation(assistantId, real, 40);
    const old = await seedConversations(assistantId, 3, { ageDays: 40, leads: true });
    const recent = await seedConversations(assistantId, 2, { ageDays: 5, leads: true });
    // Started 40 days ago, its visitor's message saved just now: a turn being answered is recent.
    const answering = (await seedConversations(assistantId, 1, { ageDays: 40 }))[0]!;
    await inHub(assistantId, (s) => s.sql.exec("UPDATE visitor_sessions SET last_message_at = ? WHERE id = ?", Date.now(), answering));
    const insightsBefore = await insightsOf(token, assistantId, 90);
    const tables = await tablesOf(assistantId);

    await setRetention(token, assistantId, { retentionDays: 30 });
    expect(await fireAlarm(assistantId)).toBe(true);

    expect(await rowsAbout(assistantId, [real, ...old])).toMatchObject({ sessions: 0, messages: 0, questionLinks: 0 });
    // Leads stay unless the owner chose otherwise.
    expect((await rowsAbout(assistantId, [real, ...old])).leads).toBe(4);
    expect(await rowsAbout(assistantId, [...recent, answering])).toMatchObject({ sessions: 3, messages: 6, leads: 2 });
    const insightsAfter = await insightsOf(token, assistantId, 90);
    expect(insightsAfter.daily).toEqual(insightsBefore.daily);
    // The question only that conversation asked goes with its day count: its wording is the visitor's.
    expect(await tablesOf(assistantId)).toMatchObject({ days: tables.days, questions: tables.questions - 1, questionDays: tables.questionDays - 1 });
    expect((await call(chatPath(assistantId, real), { token })).status).toBe(404);
    // Done for today: the next pass is tomorrow's.
    const next = await retentionSchedule(assistantId);
    expect(next.at).toBeGreaterThan(Date.now() + RETENTION_REARM_MS);
  });

  it("with retentionIncludesLeads the old conversations' leads go too", async () => {
    const { token, assistantId } = await privacyAssistant();
    const old = await seedConversations(assistantId, 2, { ageDays: 100, leads: true });
    const recent = await seedConversations(assistantId, 1, { ageDays: 80, leads: true });
    await setRetention(token, assistantId, { retentionDays: 90, retentionIncludesLeads: true });
    expect(await fireAlarm(assistantId)).toBe(true);
    expect(await rowsAbout(assistantId, old)).toMatchObject({ sessions: 0, messages: 0, leads: 0 });
    expect(await rowsAbout(assistantId, recent)).toMatchObject({ sessions: 1, messages: 2, leads: 1 });
  });

  it("runs in bounded batches: at most retentionBatchesPerRun × retentionBatchSessions per run, re-armed soon while more remain, then tomorrow", async () => {
    const { token, assistantId } = await privacyAssistant();
    const perRun = privacyLimits.retentionBatchSessions * privacyLimits.retentionBatchesPerRun;
    await seedConversations(assistantId, perRun + 30, { ageDays: 400 });
    await seedConversations(assistantId, 5, { ageDays: 1 });
    await setRetention(token, assistantId, { retentionDays: 365 });

    const firstRunAt = Date.now();
    expect(await fireAlarm(assistantId)).toBe(true);
    expect(await sessionCount(assistantId)).toBe(30 + 5);
    const soon = await retentionSchedule(assistantId);
    expect(soon.at).toBeGreaterThanOrEqual(firstRunAt + RETENTION_REARM_MS);
    expect(soon.at).toBeLessThan(Date.now() + RETENTION_REARM_MS + 1000);

    expect(await fireAlarm(assistantId)).toBe(true);
    expect(await sessionCount(assistantId)).toBe(5);
    expect((await retentionSchedule(assistantId)).at).toBeGreaterThan(Date.now() + RETENTION_REARM_MS);
  });

  it("turned off before its alarm: the alarm deletes nothing and does not come back", async () => {
    const { token, assistantId } = await privacyAssistant();
    await seedConversations(assistantId, 2, { ageDays: 400 });
    await setRetention(token, assistantId, { retentionDays: 30 });
    await setRetention(token, assistantId, { retentionDays: null });
    // The pass still scheduled (as if the change had not reached the schedule): the job itself reads the setting.
    await runInDurableObject(getAssistantHub(env, assistantId), async (instance) => {
      await (instance as unknown as { core: HubCore }).core.alarms.schedule("retention", Date.now() + 60_000);
    });
    expect(await fireAlarm(assistantId)).toBe(true);
    expect(await sessionCount(assistantId)).toBe(2);
    expect((await retentionSchedule(assistantId)).at).toBeNull();
  });
});

describe("the 0018_privacy migration", () => {
  it("an object created before it keeps its conversations, deletes one, and takes retention once turned on", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { sessionId } = await startSession(key);
    const { sessionId: oldId } = await startSession(key);
    const hub = getAssistantHub(env, assistantId);
    const now = Date.now();
    await runInDurableObject(hub, async (_instance, state) => {
      const { sql } = state.storage;
      const copy = sql.exec("SELECT * FROM assistant_copy").toArray();
      await state.storage.deleteAll();
      applyStorageMigrations(state.storage, assistantStorageMigrations.slice(0, 17), "assistant");
      // The copy as a worker before retention stored it.
      const record = (stored: SqlStorageValue | undefined) => {
        const parsed = JSON.parse(String(stored)) as { config: Record<string, unknown> };
        delete parsed.config.retentionDays;
        delete parsed.config.retentionIncludesLeads;
        return JSON.stringify(parsed);
      };
      for (const r of copy) sql.exec("INSERT INTO assistant_copy (id, record, key_hash, updated_at, loaded_at, secret_keys) VALUES (?, ?, ?, ?, ?, ?)", r.id, record(r.record), r.key_hash, r.updated_at, r.loaded_at, r.secret_keys);
      sql.exec("INSERT INTO meta (key, value) VALUES ('imported', ?)", String(now));
      for (const [id, at] of [
        [sessionId, now - 60_000],
        [oldId, now - 50 * DAY_MS],
      ] as const) {
        sql.exec("INSERT INTO visitor_sessions (id, message_count, started_at, last_message_at, counted) VALUES (?, 1, ?, ?, 1)", id, at, at + 1000);
        sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES (?, ?, 'user', 'Old question', ?)", `m-${id}`, id, at + 1000);
        sql.exec("INSERT INTO leads (id, session_id, created_at, fields, search) VALUES (?, ?, ?, '[]', '')", `l-${id}`, id, at + 2000);
      }
    });
    await evictDurableObject(hub);
    // The new instance migrates on start; nothing is scheduled for a copy without retention.
    expect((await retentionSchedule(assistantId)).at).toBeNull();
    const session = await json(await call(chatPath(assistantId, sessionId), { token }), visitorSessionResponse);
    expect(session.session.messages.map((m) => m.content.data)).toEqual(["Old question"]);
    expect((await call(chatPath(assistantId, sessionId), { token, method: "DELETE" })).status).toBe(204);
    expect(await rowsAbout(assistantId, [sessionId])).toMatchObject({ sessions: 0, messages: 0, leads: 0 });

    await setRetention(token, assistantId, { retentionDays: 30 });
    expect(await fireAlarm(assistantId)).toBe(true);
    expect(await rowsAbout(assistantId, [oldId])).toMatchObject({ sessions: 0, messages: 0, leads: 1 });
  });
});
