import { describe, expect, it } from "vitest";
import { privacyMessages, serverMessages, visitorExport, widget } from "../../contract";
import { maxVisitorIdChars } from "../../worker/services/privacy/visitor-id";
import { call, expectError, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { chatPath, deleteVisitor, exportPath, privacyAssistant, rowsAbout, seedConversations, visitorPath } from "./privacy-helpers";
import { startSession } from "./widget-helpers";

describe("privacy routes: who may call them", () => {
  it("another owner's assistant is a 404 on all three, and nothing of it is deleted", async () => {
    const { key, assistantId } = await privacyAssistant();
    const { sessionId } = await startSession(key);
    const ids = await seedConversations(assistantId, 2, { ageDays: 1, sub: "user-amina", leads: true });
    const { token: stranger } = await registerUser();
    await expectError(await call(chatPath(assistantId, sessionId), { token: stranger, method: "DELETE" }), 404, serverMessages.notFound);
    await expectError(await call(visitorPath(assistantId, "user-amina"), { token: stranger, method: "DELETE" }), 404, serverMessages.notFound);
    await expectError(await call(visitorPath(assistantId, sessionId), { token: stranger, method: "DELETE" }), 404, serverMessages.notFound);
    await expectError(await call(exportPath(assistantId, "user-amina"), { token: stranger }), 404, serverMessages.notFound);
    expect(await rowsAbout(assistantId, [sessionId, ...ids])).toMatchObject({ sessions: 3, leads: 2 });
  });

  it("without a session: 401", async () => {
    const { assistantId } = await privacyAssistant();
    expect((await call(chatPath(assistantId, "s1"), { method: "DELETE" })).status).toBe(401);
    expect((await call(visitorPath(assistantId, "v1"), { method: "DELETE" })).status).toBe(401);
    expect((await call(exportPath(assistantId, "v1"))).status).toBe(401);
  });

  it("a visitor of one assistant is not touched through the owner's other assistant", async () => {
    const { token, assistantId } = await privacyAssistant();
    const ids = await seedConversations(assistantId, 2, { ageDays: 1, sub: "user-amina", leads: true });
    const other = await createAssistant(token, { name: "Other" });
    expect(await deleteVisitor(token, other._id, "user-amina")).toEqual({ deletedConversations: 0, deletedMessages: 0, deletedLeads: 0, deletedFiles: 0 });
    await expectError(await call(exportPath(other._id, "user-amina"), { token }), 404, privacyMessages.visitorNotFound);
    expect(await rowsAbout(assistantId, ids)).toMatchObject({ sessions: 2, leads: 2 });
  });
});

describe("privacy routes: hostile ids", () => {
  it("an empty-looking or over-long visitor id is a 400 naming it; an over-long conversation id names its limit", async () => {
    const { token, assistantId } = await privacyAssistant();
    const long = "v".repeat(maxVisitorIdChars + 1);
    await expectError(await call(visitorPath(assistantId, long), { token, method: "DELETE" }), 400, privacyMessages.visitorIdInvalid);
    await expectError(await call(exportPath(assistantId, long), { token }), 400, privacyMessages.visitorIdInvalid);
    await expectError(await call(chatPath(assistantId, "s".repeat(widget.maxSessionIdChars + 1)), { token, method: "DELETE" }), 400, privacyMessages.conversationIdInvalid(widget.maxSessionIdChars));
    // A path with no id does not reach the routes.
    expect((await call(`/api/public-assistants/${assistantId}/visitors/`, { token, method: "DELETE" })).status).toBe(404);
  });

  it("nothing stored for the visitor: the export is a 404, the deletion zeros; a conversation that never was deletes as 204", async () => {
    const { token, assistantId } = await privacyAssistant();
    await expectError(await call(exportPath(assistantId, "nobody"), { token }), 404, privacyMessages.visitorNotFound);
    expect(await deleteVisitor(token, assistantId, "nobody")).toEqual({ deletedConversations: 0, deletedMessages: 0, deletedLeads: 0, deletedFiles: 0 });
    expect((await call(chatPath(assistantId, "never-was"), { token, method: "DELETE" })).status).toBe(204);
  });

  it("a visitor id with quotes, line breaks and SQL in it is only data: the file name stays safe and nothing else is touched", async () => {
    const { token, assistantId } = await privacyAssistant();
    const sub = `x" OR 1=1; --\r\nSet-Cookie: a=b`;
    const mine = await seedConversations(assistantId, 1, { ageDays: 1, sub, leads: true });
    const others = await seedConversations(assistantId, 2, { ageDays: 1, sub: "user-omar", leads: true });
    const res = await call(exportPath(assistantId, sub), { token });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="visitor-x__OR_1_1__--__Set-Cookie__a_b.json"`);
    expect(res.headers.get("set-cookie")).toBeNull();
    const exported = await json(res, visitorExport);
    expect(exported.visitorId).toBe(sub);
    expect(exported.conversations.map((c) => c.sessionId)).toEqual(mine);
    expect((await deleteVisitor(token, assistantId, sub)).deletedConversations).toBe(1);
    expect(await rowsAbout(assistantId, others)).toMatchObject({ sessions: 2, leads: 2 });
  });
});
