import { describe, expect, it } from "vitest";
import { chatMessages, errorBodySchema, userRoomId } from "../../contract";
import { call, json } from "./helpers";
import { chatGuest, chatUser, connectRaw, newGuestId } from "./chat-helpers";

const errorOf = async (res: Response) => json(res, errorBodySchema);

describe("who may open a chat room (checked before the room is touched)", () => {
  it("refuses a socket without credentials (401)", async () => {
    const res = await connectRaw("user-someone", {});
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("UNAUTHORIZED");
  });

  it("refuses an unknown or malformed token (401)", async () => {
    expect((await connectRaw("user-x", { token: "tala_not-a-real-token" })).status).toBe(401);
    expect((await connectRaw("user-x", { token: "garbage" })).status).toBe(401);
  });

  it("refuses another user's room (403)", async () => {
    const [a, b] = await Promise.all([chatUser(), chatUser()]);
    const res = await connectRaw(userRoomId(b.user.id), { token: a.token });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).error).toBe(chatMessages.wrongRoom);
  });

  it("refuses a malformed guest id (401) and another guest's room (403)", async () => {
    expect((await connectRaw("guest-abc", { guestSessionId: "guest-abc" })).status).toBe(401);
    expect((await connectRaw(newGuestId(), { guestSessionId: newGuestId() })).status).toBe(403);
    const user = await chatUser();
    expect((await connectRaw(user.roomId, { guestSessionId: newGuestId() })).status).toBe(403);
  });

  it("answers a plain GET with valid credentials 400, so a client can tell a refused socket from a broken one", async () => {
    const user = await chatUser();
    const res = await connectRaw(user.roomId, { token: user.token }, { upgrade: false });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error).toBe(chatMessages.websocketOnly);
  });
});

describe("a room only serves its owner's chats", () => {
  it("refuses a frame claiming another identity", async () => {
    const [a, b] = await Promise.all([chatUser(), chatUser()]);
    const tab = await a.open();
    const id = tab.sendMessage({ content: "hi", userId: b.user.id });
    expect((await tab.next("message-error", (d) => d.clientMessageId === id)).error).toBe(chatMessages.identityMismatch);
    const asGuest = tab.sendMessage({ content: "hi", isGuest: true });
    expect((await tab.next("message-error", (d) => d.clientMessageId === asGuest)).error).toBe(chatMessages.identityMismatch);
    tab.close();
  });

  it("does not let a user write to, join or file into another user's chat or project", async () => {
    const [a, b] = await Promise.all([chatUser(), chatUser()]);
    const tabB = await b.open();
    tabB.sendMessage({ content: "b's secret" });
    const bReply = await tabB.next("new-message", (d) => d.message.role === "assistant");
    const projectRes = await call("/api/projects", { token: b.token, json: { name: "B's", instructions: "secret" } });
    const { project } = (await projectRes.json()) as { project: { id: string } };

    const tabA = await a.open();
    const write = tabA.sendMessage({ chatId: bReply.message.chatId, content: "intrude" });
    expect((await tabA.next("message-error", (d) => d.clientMessageId === write)).error).toBe(chatMessages.chatNotFound);
    const file = tabA.sendMessage({ projectId: project.id, content: "intrude" });
    expect((await tabA.next("message-error", (d) => d.clientMessageId === file)).error).toBe(chatMessages.projectNotFound);
    tabA.send({ event: `join-${bReply.message.chatId}`, data: {} });
    const joined = await tabA.next("message-error", (d) => d.chatId === bReply.message.chatId && !d.clientMessageId);
    expect(joined.error).toBe(chatMessages.chatNotFound);
    expect(tabA.all("new-message")).toEqual([]);
    tabA.close();
    tabB.close();
  });

  it("keeps one guest's chats out of another guest's room", async () => {
    const g1 = chatGuest();
    const g2 = chatGuest();
    const t1 = await g1.open();
    t1.sendMessage({ content: "guest one", isGuest: true });
    const reply = await t1.next("new-message", (d) => d.message.role === "assistant");
    const t2 = await g2.open();
    const id = t2.sendMessage({ chatId: reply.message.chatId, content: "peek", isGuest: true });
    expect((await t2.next("message-error", (d) => d.clientMessageId === id)).error).toBe(chatMessages.chatNotFound);
    t1.close();
    t2.close();
  });
});
