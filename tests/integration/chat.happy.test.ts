import { describe, expect, it } from "vitest";
import { chatDetailResponse } from "../../contract";
import { call, json } from "./helpers";
import { chatUser, mockReply, mockTokens } from "./chat-helpers";

describe("chat over the socket (signed-in user)", () => {
  it("streams a reply to every tab of the user and saves both messages", async () => {
    const user = await chatUser();
    const [tabA, tabB] = await Promise.all([user.open(), user.open()]);
    const clientMessageId = tabA.sendMessage({ content: "hello there [[delay:10]]", userId: user.user.id });

    const mine = await tabA.next("new-message", (d) => d.clientMessageId === clientMessageId);
    expect(mine.message).toMatchObject({ role: "user", status: "complete", content: { type: "text", data: "hello there [[delay:10]]" } });
    const chatId = mine.message.chatId;
    const thinking = await tabB.next("thinking", (d) => d.chatId === chatId);
    const final = await tabB.next("new-message", (d) => d.message.id === thinking.messageId);
    expect(final.message).toMatchObject({ role: "assistant", status: "complete", content: { data: mockReply("hello there") } });

    for (const tab of [tabA, tabB]) {
      const deltas = tab.all("message-delta").filter((d) => d.messageId === thinking.messageId);
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.map((d) => d.delta).join("")).toBe(final.message.content.data);
      expect(deltas.every((d, i) => i === 0 || d.offset === deltas[i - 1]!.offset + deltas[i - 1]!.delta.length)).toBe(true);
      expect(tab.invalid).toEqual([]);
    }

    const detail = await json(await call(`/api/chats/${chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(detail.chat.title).not.toBe("");
    tabA.close();
    tabB.close();
  });
});

describe("chat context reaches the model", () => {
  it("sends a project's instructions as the system prompt", async () => {
    const user = await chatUser();
    const res = await call("/api/projects", { token: user.token, json: { name: "Pirates", instructions: "Always answer like a pirate." } });
    const { project } = (await res.json()) as { project: { id: string } };
    const tab = await user.open();
    tab.sendMessage({ content: "[[echo]] hi", projectId: project.id });
    const final = await tab.next("new-message", (d) => d.message.role === "assistant");
    const sent = JSON.parse(final.message.content.data) as { role: string; content: string }[];
    expect(sent[0]).toEqual({ role: "system", content: "Always answer like a pirate." });
    expect(sent.at(-1)).toEqual({ role: "user", content: "[[echo]] hi" });
    expect(final.chat?.projectId).toBe(project.id);
    tab.close();
  });

  it("sends the earlier messages of the chat and the attachments' text, but stores only file names", async () => {
    const user = await chatUser();
    const tab = await user.open();
    tab.sendMessage({ content: "first question" });
    const first = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    const chatId = first.message.chatId;
    tab.sendMessage({ chatId, content: "[[echo]] second", files: [{ name: "notes.txt", text: "The secret word is heliotrope." }] });
    const second = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.id !== first.message.id);
    const sent = JSON.parse(second.message.content.data) as { role: string; content: string }[];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[0]!.content).toBe("first question");
    expect(sent[2]!.content).toContain("[Attached file: notes.txt]\nThe secret word is heliotrope.");

    const detail = await json(await call(`/api/chats/${chatId}`, { token: user.token }), chatDetailResponse);
    const stored = detail.messages.find((m) => m.content.data.startsWith("[[echo]] second"));
    expect(stored?.files).toEqual([{ name: "notes.txt" }]);
    expect(JSON.stringify(detail)).not.toContain("heliotrope.\"}"); // the text itself is not in the user's stored message
    expect(stored?.content.data).toBe("[[echo]] second");
    tab.close();
  });
});

describe("replies survive the socket", () => {
  it("a socket that drops mid-reply and reconnects gets the full message", async () => {
    const user = await chatUser();
    const first = await user.open();
    first.sendMessage({ content: "long answer [[tokens:40]] [[delay:25]]" });
    const delta = await first.next("message-delta");
    first.close();

    const again = await user.open();
    // A reply still in progress is announced on connect with its text so far (offset 0).
    const snapshot = await again.next("message-delta", (d) => d.messageId === delta.messageId && d.offset === 0);
    expect(snapshot.delta.length).toBeGreaterThan(0);
    again.send({ event: `join-${delta.chatId}`, data: {} });
    const final = await again.next("new-message", (d) => d.message.id === delta.messageId, 15_000);
    expect(final.message.status).toBe("complete");
    expect(final.message.content.data).toBe(mockTokens("long answer", 40));
    // Snapshot + later deltas rebuild the same text.
    const later = again.all("message-delta").filter((d) => d.messageId === delta.messageId);
    let text = "";
    for (const d of later) text = text.slice(0, d.offset) + d.delta;
    expect(text).toBe(final.message.content.data);
    again.close();
  });

  it("a socket that joins after the reply finished gets the finished message", async () => {
    const user = await chatUser();
    const first = await user.open();
    first.sendMessage({ content: "short" });
    const thinking = await first.next("thinking");
    first.close();
    // Let the reply finish with nobody connected.
    await new Promise((r) => setTimeout(r, 600));
    const again = await user.open();
    again.send({ event: `join-${thinking.chatId}`, data: {} });
    const final = await again.next("new-message", (d) => d.message.id === thinking.messageId);
    expect(final.message).toMatchObject({ status: "complete", content: { data: mockReply("short") } });
    again.close();
  });

  it("stop ends the reply and keeps what was written (status stopped)", async () => {
    const user = await chatUser();
    const tab = await user.open();
    tab.sendMessage({ content: "[[tokens:200]] [[delay:20]]" });
    const thinking = await tab.next("thinking");
    await tab.next("message-delta", (d) => d.offset > 0);
    tab.send({ event: "stop", data: { chatId: thinking.chatId } });
    const final = await tab.next("new-message", (d) => d.message.id === thinking.messageId);
    expect(final.message.status).toBe("stopped");
    const streamed = tab.all("message-delta").filter((d) => d.messageId === thinking.messageId);
    expect(final.message.content.data).toBe(streamed.map((d) => d.delta).join(""));
    expect(final.message.content.data.split(" ").filter(Boolean).length).toBeLessThan(200);
    const detail = await json(await call(`/api/chats/${thinking.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages[1]).toMatchObject({ status: "stopped", content: { data: final.message.content.data } });
    tab.close();
  });
});

describe("the history while a reply is being written", () => {
  it("a chat deleted mid-reply stays deleted: the reply stops and no frame brings it back", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const sent = tab.sendMessage({ content: "a long answer please [[tokens:200]] [[delay:20]]" });
    const thinking = await tab.next("thinking", (d) => d.clientMessageId === sent);
    await tab.next("message-delta", (d) => d.messageId === thinking.messageId);
    expect((await call(`/api/chats/${thinking.chatId}`, { token: user.token, method: "DELETE" })).status).toBe(204);
    const framesAtDelete = tab.frames.length;
    await new Promise((r) => setTimeout(r, 800));
    const after = tab.frames.slice(framesAtDelete);
    expect(after.filter((f) => f.event === "new-message" || f.event === "message-error")).toEqual([]);
    expect((await call(`/api/chats/${thinking.chatId}`, { token: user.token })).status).toBe(404);
    tab.close();
  });

  it("a rename made during the first reply is kept: neither the fallback nor the model's title overwrites it", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const sent = tab.sendMessage({ content: "name this chat later [[tokens:30]] [[delay:10]]" });
    const thinking = await tab.next("thinking", (d) => d.clientMessageId === sent);
    const renamed = await call(`/api/chats/${thinking.chatId}`, { token: user.token, method: "PATCH", json: { title: "My own title" } });
    expect(renamed.status).toBe(200);
    const final = await tab.next("new-message", (d) => d.message.id === thinking.messageId && d.message.status === "complete");
    expect(final.chat?.title).toBe("My own title");
    await new Promise((r) => setTimeout(r, 800)); // the model's title would land here
    const detail = await json(await call(`/api/chats/${thinking.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.chat.title).toBe("My own title");
    tab.close();
  });
});

