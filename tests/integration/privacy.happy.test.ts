import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { privacyLimits, visitorExport, visitorSessionResponse, widgetMessages, widgetSocketClose } from "../../contract";
import { call, json } from "./helpers";
import { agentSays, takeOver } from "./handoff-helpers";
import { createIdentitySecret, sendSigned, startSignedSession, visitorToken } from "./identity-helpers";
import { ask, rated } from "./insights-helpers";
import { submittedLead } from "./lead-helpers";
import { chatPath, deleteVisitor, exportPath, inHub, privacyAssistant, rowsAbout, seedConversations, tablesOf } from "./privacy-helpers";
import { createWebhook, receiver } from "./webhooks-helpers";
import { openWidgetSocket, sendOverSse, sseFrames, startSession } from "./widget-helpers";

/** Audit rows of an action about `target`, from D1. */
const auditRows = async (action: string, target: string) =>
  (await env.DB.prepare("SELECT * FROM audit_log WHERE action = ? AND target = ?").bind(action, target).all<Record<string, unknown>>()).results;

/** Every R2 key under the assistant's prefix. */
const r2Keys = async (assistantId: string) => (await env.FILES.list({ prefix: `assistants/${assistantId}/` })).objects.map((o) => o.key).sort();

describe("deleting one conversation", () => {
  it("removes everything of it (messages, ratings, lead, handoff, inbox lease, webhook events, Insights' links), closes its sockets, and is idempotent", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    await createWebhook(token, assistantId, { url: receiver().url, events: ["conversation.started", "message.answered", "feedback.created", "lead.created"] });
    const filesBefore = await r2Keys(assistantId);
    const { sessionId } = await startSession(key);
    const { sessionId: otherId } = await startSession(key);
    // A visitor message with an attachment, its answer rated, a lead, a person's reply (a first reply's duration).
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "Here is my invoice", files: [{ name: "invoice.txt", text: "Invoice 42: zephyrboard" }] }));
    const answer = frames.flatMap((f) => (f.event === "new-message" && f.data.message.role === "assistant" ? [f.data.message] : []))[0]!;
    await rated(key, sessionId, answer.id, "up");
    await submittedLead(key, sessionId, { name: "Amina", email: "amina@example.com" });
    expect((await takeOver(token, assistantId, sessionId)).status).toBe(200);
    expect((await agentSays(token, assistantId, sessionId, "Hello, this is Sara.")).status).toBe(201);
    expect((await call(`/api/public-assistants/${assistantId}/inbox/watch`, { token, json: { sessionId } })).status).toBe(204);
    await ask(key, otherId, "Do you ship to Morocco?");
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");

    const before = await rowsAbout(assistantId, [sessionId]);
    expect(before).toMatchObject({ sessions: 1, leads: 1, watchers: 1, firstReplies: 1, questionLinks: 1 });
    expect(before.messages).toBeGreaterThanOrEqual(3);
    expect(before.webhookEvents + before.webhookOutbox).toBeGreaterThan(0);
    const tables = await tablesOf(assistantId);

    const res = await call(chatPath(assistantId, sessionId), { token, method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(204);

    expect(await rowsAbout(assistantId, [sessionId])).toEqual({ sessions: 0, messages: 0, leads: 0, watchers: 0, firstReplies: 0, questionLinks: 0, webhookEvents: 0, webhookOutbox: 0 });
    // The other conversation, Insights' day counts and the first reply's duration stay; the question
    // only this conversation asked goes with its day count (its wording is what the visitor typed).
    expect((await rowsAbout(assistantId, [otherId])).sessions).toBe(1);
    const after = await tablesOf(assistantId);
    expect(after).toMatchObject({ sessions: tables.sessions - 1, leads: tables.leads - 1, days: tables.days, questions: tables.questions - 1, questionDays: tables.questionDays - 1 });
    const wordings = await inHub(assistantId, (s) => s.sql.exec("SELECT wording FROM insight_questions").toArray().map((r) => String(r.wording)));
    expect(wordings).toEqual(["Do you ship to Morocco?"]);
    expect(await inHub(assistantId, (s) => Number(s.sql.exec("SELECT count(*) AS n FROM insight_first_replies").one().n))).toBe(1);
    // The widget stores a file's name only: nothing of the visitor was ever in R2, and nothing is now.
    expect(await r2Keys(assistantId)).toEqual(filesBefore);
    // The visitor's open widget is told and closed, so it starts a new conversation.
    const closed = await socket.waitClosed(1000);
    expect(closed).toMatchObject({ code: widgetSocketClose.conversationDeleted.code, reason: widgetMessages.sessionNotFound });
    expect(socket.all("message-error").at(-1)).toMatchObject({ reason: "session-not-found" });
    expect((await call(chatPath(assistantId, sessionId), { token })).status).toBe(404);
    expect((await sendOverSse(key, sessionId, { content: "Still there?" })).status).toBe(404);

    const audit = await auditRows("conversation.deleted", sessionId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ workspace_id: expect.any(String), assistant_id: assistantId, assistant_name: "Shop helper" });

    // Again: 204, nothing more deleted, nothing more recorded.
    expect((await call(chatPath(assistantId, sessionId), { token, method: "DELETE" })).status).toBe(204);
    expect(await auditRows("conversation.deleted", sessionId)).toHaveLength(1);
    expect((await call(chatPath(assistantId, otherId), { token })).status).toBe(200);
  });

  it("a question other conversations asked too stays in Insights, counted, linked to them only", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { sessionId: first } = await startSession(key);
    const { sessionId: second } = await startSession(key);
    await ask(key, first, "Do you ship to Morocco?");
    await ask(key, second, "do you ship to morocco");
    const tables = await tablesOf(assistantId);
    expect((await call(chatPath(assistantId, first), { token, method: "DELETE" })).status).toBe(204);
    expect(await tablesOf(assistantId)).toMatchObject({ questions: tables.questions, questionDays: tables.questionDays });
    const [question] = await inHub(assistantId, (s) => s.sql.exec("SELECT asked, session_ids FROM insight_questions").toArray());
    expect(question).toMatchObject({ asked: 2, session_ids: JSON.stringify([second]) });
  });

  it("a conversation deleted while its answer is being written keeps no answer", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    socket.sendMessage({ content: "Tell me about refunds" });
    await socket.next("thinking");
    expect((await call(chatPath(assistantId, sessionId), { token, method: "DELETE" })).status).toBe(204);
    await socket.waitClosed(1000);
    // Whatever the model still writes finds no conversation to save into.
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsAbout(assistantId, [sessionId])).toMatchObject({ sessions: 0, messages: 0 });
  });
});

describe("deleting one visitor", () => {
  it("a signed visitor: every conversation of theirs (past one batch) and every lead, nobody else's; again: zeros", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { secret } = await createIdentitySecret(token, assistantId);
    const amina = await visitorToken(secret, { sub: "user-amina", name: "Amina" });
    const signed = await startSignedSession(key, amina);
    const turn = await sendSigned(key, signed.sessionId, "Where is my order?", amina);
    expect(turn.status).toBe(200);
    // The stream to its end: the answer is saved before the deletion counts it.
    await turn.text();
    await submittedLead(key, signed.sessionId, { name: "Amina", email: "amina@example.com" }, undefined, { "X-Visitor-Token": amina });
    const seeded = await seedConversations(assistantId, privacyLimits.visitorBatchSessions + 5, { ageDays: 2, sub: "user-amina", leads: true });
    const others = await seedConversations(assistantId, 3, { ageDays: 2, sub: "user-omar", leads: true });
    const { sessionId: anonymous } = await startSession(key);

    const deleted = await deleteVisitor(token, assistantId, "user-amina");
    expect(deleted).toEqual({
      deletedConversations: seeded.length + 1,
      deletedMessages: seeded.length * 2 + 2,
      deletedLeads: seeded.length + 1,
      deletedFiles: seeded.length,
    });
    expect(await rowsAbout(assistantId, [...seeded, signed.sessionId])).toMatchObject({ sessions: 0, messages: 0, leads: 0 });
    expect(await inHub(assistantId, (s) => Number(s.sql.exec("SELECT count(*) AS n FROM leads WHERE visitor_sub = 'user-amina'").one().n))).toBe(0);
    expect(await rowsAbout(assistantId, [...others, anonymous])).toMatchObject({ sessions: 4, leads: 3 });

    const audit = await auditRows("visitor.deleted", "user-amina");
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]!.details))).toEqual(deleted);

    expect(await deleteVisitor(token, assistantId, "user-amina")).toEqual({ deletedConversations: 0, deletedMessages: 0, deletedLeads: 0, deletedFiles: 0 });
    expect(await auditRows("visitor.deleted", "user-amina")).toHaveLength(1);
  });

  it("an anonymous visitor, by their conversation's id: that conversation and its lead", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { sessionId } = await startSession(key);
    const { sessionId: otherId } = await startSession(key);
    await ask(key, sessionId, "Do you ship to Spain?");
    await submittedLead(key, sessionId, { name: "Youssef", email: "youssef@example.com" });
    await ask(key, otherId, "Refunds?");

    expect(await deleteVisitor(token, assistantId, sessionId)).toEqual({ deletedConversations: 1, deletedMessages: 2, deletedLeads: 1, deletedFiles: 0 });
    expect(await rowsAbout(assistantId, [sessionId])).toMatchObject({ sessions: 0, messages: 0, leads: 0 });
    expect(await rowsAbout(assistantId, [otherId])).toMatchObject({ sessions: 1, messages: 2 });
    expect(await deleteVisitor(token, assistantId, sessionId)).toEqual({ deletedConversations: 0, deletedMessages: 0, deletedLeads: 0, deletedFiles: 0 });
  });
});

describe("a visitor's export", () => {
  it("a signed visitor: every conversation with its messages (in pages), every lead, as a JSON attachment; recorded", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { secret } = await createIdentitySecret(token, assistantId);
    const amina = await visitorToken(secret, { sub: "user/amina 1", name: "Amina", email: "amina@example.com" });
    const signed = await startSignedSession(key, amina);
    const turn = await sendSigned(key, signed.sessionId, "Where is my order?", amina);
    expect(turn.status).toBe(200);
    await turn.text();
    await submittedLead(key, signed.sessionId, { name: "Amina", email: "amina@example.com" }, undefined, { "X-Visitor-Token": amina });
    const seeded = await seedConversations(assistantId, 45, { ageDays: 3, sub: "user/amina 1", leads: true });
    await seedConversations(assistantId, 2, { ageDays: 3, sub: "user-omar", leads: true });

    const res = await call(exportPath(assistantId, "user/amina 1"), { token });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="visitor-user_amina_1.json"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const exported = await json(res, visitorExport);
    expect(exported).toMatchObject({ visitorId: "user/amina 1", assistant: { id: assistantId, name: "Shop helper" } });
    expect(exported.conversations).toHaveLength(46);
    expect(new Set(exported.conversations.map((c) => c.sessionId))).toEqual(new Set([...seeded, signed.sessionId]));
    // Oldest first: the seeded ones (3 days ago), then the live one.
    expect(exported.conversations.at(-1)!.sessionId).toBe(signed.sessionId);
    expect(exported.conversations.at(-1)!.messages.map((m) => m.content.data)).toContain("Where is my order?");
    expect(exported.conversations.every((c) => c.visitor?.id === "user/amina 1")).toBe(true);
    expect(exported.leads).toHaveLength(46);
    expect(exported.leads[0]!.values).toContainEqual(expect.objectContaining({ key: "email", value: "amina@example.com" }));
    expect(await auditRows("visitor.exported", "user/amina 1")).toHaveLength(1);
  });

  it("an anonymous visitor: their conversation and its lead", async () => {
    const { token, key, assistantId } = await privacyAssistant();
    const { sessionId } = await startSession(key);
    await ask(key, sessionId, "Do you ship to Spain?");
    await submittedLead(key, sessionId, { name: "Youssef", email: "youssef@example.com" });
    const exported = await json(await call(exportPath(assistantId, sessionId), { token }), visitorExport);
    expect(exported.conversations).toHaveLength(1);
    expect(exported.conversations[0]!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const history = await json(await call(chatPath(assistantId, sessionId), { token }), visitorSessionResponse);
    expect(exported.conversations[0]).toEqual(history.session);
    expect(exported.leads.map((l) => l.sessionId)).toEqual([sessionId]);
  });
});
