import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { widgetSocketClose } from "../../contract";
import { isGone } from "../../worker/assistant/gone";
import { assistantStorageMigrations } from "../../worker/assistant/storage-migrations";
import { hashApiKey } from "../../worker/crypto/api-key";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { budgetEmails, eventually, ownerWithAssistants } from "./budgets-helpers";
import { createIdentitySecret, startSignedSession, visitorToken } from "./identity-helpers";
import { hubRows } from "./public-assistants-helpers";
import { openWidgetSocket, startSession, widgetAssistant } from "./widget-helpers";

/**
 * The shape of an assistant's own object (AssistantHub): it knows its id, migrates its storage
 * when it starts, answers `gone` from every facet once erased, and runs its work on named alarms
 * (the scheduler keeps each as the key-value entry `alarm:<name>`).
 */

const hubOf = (assistantId: string) => getAssistantHub(env, assistantId);

/** The scheduler's entry for `name` and the storage alarm, read in the object. */
const alarmState = (assistantId: string, name: string) =>
  runInDurableObject(hubOf(assistantId), async (_instance, state) => ({
    scheduled: state.storage.kv.get<number>(`alarm:${name}`) ?? null,
    alarm: await state.storage.getAlarm(),
  }));

afterEach(() => vi.useRealTimers());

describe("an assistant's object knows its own id", () => {
  it("answers facet calls with no assistant id passed", async () => {
    const { assistant } = await widgetAssistant({}, { upload: false });
    const hub = hubOf(assistant._id);
    expect(await hub.history().count()).toBe(0);
    expect(await hub.knowledge().files()).toEqual([]);
    expect(await hub.webSources().list()).toEqual([]);
  });
});

describe("an assistant's object starts with its storage migrated", () => {
  it("has every migration applied and its tables before the first call", async () => {
    const applied = await runInDurableObject(hubOf(crypto.randomUUID()), (_instance, state) => {
      const { sql } = state.storage;
      return {
        migrations: sql.exec("SELECT id FROM _migrations ORDER BY rowid").toArray().map((r) => r.id),
        tables: new Set(sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => String(r.name))),
      };
    });
    expect(applied.migrations).toEqual(assistantStorageMigrations.map((m) => m.id));
    for (const table of ["meta", "assistant_copy", "visitor_sessions", "visitor_messages", "knowledge_files", "web_sources", "identity_secrets", "budget_notices"]) {
      expect(applied.tables, table).toContain(table);
    }
  });
});

describe("a deleted assistant's object", () => {
  it("answers gone from every facet, and those calls create nothing in its storage", async () => {
    const { assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const hub = hubOf(assistant._id);
    await hub.erase(widgetSocketClose.unavailable);

    const now = Date.now();
    const calls: Record<string, () => Promise<unknown>> = {
      "finishTurn": () => hub.finishTurn({ sessionId, messageId: crypto.randomUUID(), content: "late answer", sources: [], askedAt: now }),
      "admitApiCall": async () => hub.admitApiCall({ keyHash: await hashApiKey(key), origin: "" }),
      "knowledge.files": () => hub.knowledge().files(),
      "knowledge.file": () => hub.knowledge().file("f1"),
      "knowledge.retrieve": () => hub.knowledge().retrieve({ query: "refund" }),
      "knowledge.chunkIds": () => hub.knowledge().chunkIds(null),
      "knowledge.legacyChunkIdMax": () => hub.knowledge().legacyChunkIdMax(),
      "knowledge.chunkPage": () => hub.knowledge().chunkPage("f1", 0, 10),
      "knowledge.lexical": () => hub.knowledge().lexical("refund", 5),
      "knowledge.chunks": () => hub.knowledge().chunks([1]),
      "knowledge.nearest": () => hub.knowledge().nearest([0.1, 0.2], 3),
      "knowledge.markFailed": () => hub.knowledge().markFailed("f1", "late"),
      "knowledge.removeFile": () => hub.knowledge().removeFile("f1"),
      "webSources.list": () => hub.webSources().list(),
      "webSources.get": () => hub.webSources().get("s1"),
      "webSources.pages": () => hub.webSources().pages("s1"),
      "webSources.startSync": () => hub.webSources().startSync("s1", now),
      "webSources.remove": () => hub.webSources().remove("s1"),
      "visitors.get": () => hub.visitors().get({ sessionId }),
      "visitors.forSocket": () => hub.visitors().forSocket({ sessionId }),
      "visitors.isOpen": () => hub.visitors().isOpen(sessionId),
      "history.session": () => hub.history().session(sessionId),
      "history.list": () => hub.history().list({ page: 1, limit: 10 }),
      "history.exportPage": () => hub.history().exportPage({ after: null, limit: 10 }),
      "history.count": () => hub.history().count(),
      "history.cardStats": () => hub.history().cardStats(),
      "identity.status": () => hub.identity().status(),
      "identity.rotate": () => hub.identity().rotate(24),
      "identity.endGrace": () => hub.identity().endGrace(),
      "insights.read": () => hub.insights().read(7),
      "insights.rate": () => hub.insights().rate({ sessionId, messageId: crypto.randomUUID(), rating: "up" }),
      "budgets.usage": () => hub.budgets().usage(),
    };
    for (const [name, call] of Object.entries(calls)) expect(isGone(await call()), name).toBe(true);

    // The calls that answer the rooms, not the owner: nothing to revoke, the socket refused, no pause kept.
    expect(await hub.sockets().register(sessionId)).toBe(true);
    expect(await hub.sockets().opened({ keyHash: await hashApiKey(key), origin: "", sessionId })).toEqual({ denied: "unavailable" });
    expect(await hub.budgets().setOwnerPause({ month: "2026-01", paused: true })).toEqual({ ok: false });

    const stored = await runInDurableObject(hub, async (_instance, state) => ({
      schema: Number(state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE '_cf_%'").one().n),
      keys: [...state.storage.kv.list()].map(([k]) => k),
      alarm: await state.storage.getAlarm(),
    }));
    expect(stored).toEqual({ schema: 0, keys: ["erased"], alarm: null });
  });
});

describe("an assistant's object runs its work on named alarms", () => {
  it("schedules identity-grace at a rotation's end of grace, and when it has passed the alarm verifies the signed-in sockets again", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const hub = hubOf(assistant._id);
    const { secret } = await createIdentitySecret(token, assistant._id);
    const alice = await visitorToken(secret, { sub: "alice", exp: Math.floor(Date.now() / 1000) + 3 * 3600 });
    const session = await startSignedSession(key, alice);

    const rotated = await hub.identity().rotate(1);
    if (isGone(rotated) || !rotated.ok) throw new Error(`rotation failed: ${JSON.stringify(rotated)}`);
    const graceEnd = rotated.value.previous?.expiresAt;
    expect(graceEnd).toBeGreaterThan(Date.now() + 3500_000);
    expect(await alarmState(assistant._id, "identity-grace")).toEqual({ scheduled: graceEnd, alarm: graceEnd });

    // Alice's page still carries a token of the previous secret, which verifies during the grace.
    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    await socket.next("remaining-messages");

    // The grace's end passes (the object's clock, not its data, moves on).
    vi.useFakeTimers({ toFake: ["Date"], now: graceEnd! + 1000 });
    expect(await runDurableObjectAlarm(hub)).toBe(true);
    // Closed with a code the widget reconnects on; the reconnect is verified with the current secret.
    expect((await socket.waitClosed(2000)).code).not.toBe(4003);
    expect(await alarmState(assistant._id, "identity-grace")).toEqual({ scheduled: null, alarm: null });
  });

  it("schedules budget-notices when a message reaches a threshold, and sends the e-mail from the alarm, not on the visitor's path", async () => {
    const { email, assistants } = await ownerWithAssistants([{ monthlyBudget: 1, budgetAction: "pause" }]);
    const { assistant, key } = assistants[0]!;
    const { sessionId } = await startSession(key);
    const keyHash = await hashApiKey(key);

    const turn = await runInDurableObject(hubOf(assistant._id), async (instance, state) => {
      const begun = await (instance as unknown as AssistantHub).beginTurn({ keyHash, origin: "", sessionId, ip: "203.0.113.9", message: { content: "How do refunds work?", files: [] } });
      // Read in the same step as the turn: no alarm has run in between.
      return {
        outcome: begun.outcome,
        scheduled: state.storage.kv.get<number>("alarm:budget-notices") ?? null,
        alarm: await state.storage.getAlarm(),
        notices: state.storage.sql.exec("SELECT percent, status FROM budget_notices ORDER BY percent").toArray(),
        at: Date.now(),
      };
    });
    expect(turn.outcome).toBe("admitted");
    expect(turn.scheduled).not.toBeNull();
    expect(turn.scheduled!).toBeLessThanOrEqual(turn.at);
    // Armed for now (a time already past is stored as the runtime's now).
    expect(turn.alarm).not.toBeNull();
    expect(turn.alarm!).toBeLessThanOrEqual(turn.at);
    expect(turn.notices).toContainEqual({ percent: 100, status: "pending" });

    // The alarm (run here, unless the runtime ran it first) sends it, once.
    await runDurableObjectAlarm(hubOf(assistant._id));
    await eventually(() => budgetEmails(email), (e) => e.length === 1, "the budget e-mail");
    expect(await hubRows(assistant._id, "SELECT percent, status FROM budget_notices WHERE percent = 100")).toEqual([{ percent: 100, status: "sent" }]);
    expect((await alarmState(assistant._id, "budget-notices")).scheduled).toBeNull();
  });
});
