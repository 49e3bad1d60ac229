import { describe, expect, it } from "vitest";
import { chatDetailResponse, chatListResponse, chatResponse } from "../../contract";
import { call, json, registerUser } from "./helpers";
import { seedChat, userRoomFootprint } from "./chat-helpers";

describe("GET /api/chats", () => {
  it("lists the user's chats newest first, paginated", async () => {
    const { token, user } = await registerUser();
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await seedChat(user.id, { title: `chat ${i}`, updatedAt: 1_000_000 + i }));
    const page1 = await json(await call("/api/chats", { token }), chatListResponse);
    expect(page1).toMatchObject({ total: 12, totalPages: 2, currentPage: 1 });
    expect(page1.chats.map((c) => c.title)).toEqual(Array.from({ length: 10 }, (_, i) => `chat ${11 - i}`));
    const page2 = await json(await call("/api/chats?page=2", { token }), chatListResponse);
    expect(page2.chats.map((c) => c.id)).toEqual([ids[1], ids[0]]);
    const small = await json(await call("/api/chats?limit=5&page=3", { token }), chatListResponse);
    expect(small).toMatchObject({ totalPages: 3, currentPage: 3 });
    expect(small.chats).toHaveLength(2);
  });

  it("searches titles and message text, and filters by project", async () => {
    const { token, user } = await registerUser();
    const res = await call("/api/projects", { token, json: { name: "Garden" } });
    const { project } = (await res.json()) as { project: { id: string } };
    const byTitle = await seedChat(user.id, { title: "Tomato planting" });
    const byText = await seedChat(user.id, { title: "Misc", messages: ["when do TOMATOES ripen?", "in summer"], projectId: project.id });
    await seedChat(user.id, { title: "Taxes", messages: ["100% deductible?"] });
    const found = await json(await call("/api/chats?search=tomat", { token }), chatListResponse);
    expect(found.chats.map((c) => c.id).sort()).toEqual([byTitle, byText].sort());
    // LIKE wildcards in the search are literal.
    const percent = await json(await call(`/api/chats?search=${encodeURIComponent("100%")}`, { token }), chatListResponse);
    expect(percent.chats.map((c) => c.title)).toEqual(["Taxes"]);
    const none = await json(await call(`/api/chats?search=${encodeURIComponent("_")}`, { token }), chatListResponse);
    expect(none.total).toBe(0);
    const inProject = await json(await call(`/api/chats?projectId=${project.id}`, { token }), chatListResponse);
    expect(inProject.chats.map((c) => c.id)).toEqual([byText]);
  });
});

describe("GET/PATCH/DELETE /api/chats/:id", () => {
  it("returns a chat with its messages, oldest first", async () => {
    const { token, user } = await registerUser();
    const id = await seedChat(user.id, { title: "Hello", messages: ["hi", "hello!", "bye"] });
    const detail = await json(await call(`/api/chats/${id}`, { token }), chatDetailResponse);
    expect(detail.chat).toMatchObject({ id, title: "Hello", projectId: null });
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", { type: "text", data: "hi" }],
      ["assistant", { type: "text", data: "hello!" }],
      ["user", { type: "text", data: "bye" }],
    ]);
  });

  it("renames a chat and moves it into and out of a project", async () => {
    const { token, user } = await registerUser();
    const id = await seedChat(user.id, { title: "Old" });
    const { project } = (await (await call("/api/projects", { token, json: { name: "P" } })).json()) as { project: { id: string } };
    const renamed = await json(await call(`/api/chats/${id}`, { token, method: "PATCH", json: { title: "  New name " } }), chatResponse);
    expect(renamed.chat.title).toBe("New name");
    const moved = await json(await call(`/api/chats/${id}`, { token, method: "PATCH", json: { projectId: project.id } }), chatResponse);
    expect(moved.chat.projectId).toBe(project.id);
    const out = await json(await call(`/api/chats/${id}`, { token, method: "PATCH", json: { projectId: null } }), chatResponse);
    expect(out.chat.projectId).toBeNull();
  });

  it("deletes a chat and its messages", async () => {
    const { token, user } = await registerUser();
    const id = await seedChat(user.id, { messages: ["a", "b"] });
    expect((await call(`/api/chats/${id}`, { token, method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/chats/${id}`, { token })).status).toBe(404);
    const { env } = await import("cloudflare:test");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_id = ?").bind(id).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await userRoomFootprint(user.id)).messages).toBe(0);
  });
});
