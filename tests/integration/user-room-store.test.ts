import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatDetailResponse, chatListResponse, projectListResponse, settingsResponse } from "../../contract";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { importLegacyUserData } from "../../worker/chat/legacy-import";
import { RoomStore } from "../../worker/chat/room-store";
import type { ChatRoom } from "../../worker/durable-objects/chat-room";
import { chatUser, roomCounts, seedChat, userRoomFootprint } from "./chat-helpers";
import { call, json } from "./helpers";

/**
 * A signed-in user's chats, messages, projects and settings live in their own room (ChatRoom
 * SQLite). A database made by an earlier version keeps them in D1: the room moves them in on its
 * first use (worker/chat/legacy-import.ts), paged, idempotent, then deletes them from D1.
 */

const d1Count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${sql}`).bind(...binds).first<{ n: number }>())!.n;

/** What an earlier version left in D1 for `userId`: a project, 60 chats (past one page), one of them 600 messages long. */
async function seedLegacyRows(userId: string) {
  const projectId = crypto.randomUUID();
  const stmts: D1PreparedStatement[] = [
    env.DB.prepare("INSERT INTO projects (id, user_id, name, instructions, created_at, updated_at) VALUES (?, ?, 'Legacy', 'Answer in rhymes.', 10, 20)").bind(
      projectId,
      userId,
    ),
    env.DB.prepare(`UPDATE users SET settings = '{"model":"mock-large"}' WHERE id = ?`).bind(userId),
  ];
  const chatIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const id = crypto.randomUUID();
    chatIds.push(id);
    stmts.push(
      env.DB.prepare("INSERT INTO chats (id, user_id, project_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").bind(
        id,
        userId,
        i < 3 ? projectId : null,
        `legacy chat ${i}`,
        1_000 + i,
        1_000 + i,
      ),
    );
  }
  const long = chatIds[0]!;
  for (let i = 0; i < 600; i++) {
    stmts.push(
      env.DB.prepare("INSERT INTO messages (id, chat_id, role, content, files, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").bind(
        crypto.randomUUID(),
        long,
        i % 2 ? "assistant" : "user",
        `message ${i}`,
        i === 0 ? JSON.stringify([{ name: "notes.pdf" }]) : "[]",
        i === 599 ? "error" : "complete",
        i === 599 ? "The model took too long to answer." : null,
        // Two messages share each time: the move keeps D1's order (time, then id).
        5_000 + Math.floor(i / 2),
      ),
    );
  }
  for (let i = 0; i < stmts.length; i += 100) await env.DB.batch(stmts.slice(i, i + 100));
  const order = await env.DB.prepare("SELECT id FROM messages WHERE chat_id = ? ORDER BY created_at, id").bind(long).all<{ id: string }>();
  return { projectId, chatIds, long, longOrder: order.results.map((r) => r.id) };
}

async function expectMovedIn(user: { token: string; user: { id: string } }, legacy: Awaited<ReturnType<typeof seedLegacyRows>>) {
  const { token } = user;
  const list = await json(await call("/api/chats?limit=50", { token }), chatListResponse);
  expect(list.total).toBe(60);
  expect(list.chats[0]!.title).toBe("legacy chat 59");
  const detail = await json(await call(`/api/chats/${legacy.long}`, { token }), chatDetailResponse);
  expect(detail.messages.map((m) => m.id)).toEqual(legacy.longOrder);
  expect(detail.chat).toMatchObject({ projectId: legacy.projectId, title: "legacy chat 0" });
  const byText = (text: string) => detail.messages.find((m) => m.content.data === text);
  expect(byText("message 0")?.files).toEqual([{ name: "notes.pdf" }]);
  expect(byText("message 599")).toMatchObject({ role: "assistant", status: "error", error: "The model took too long to answer." });
  const { projects } = await json(await call("/api/projects", { token }), projectListResponse);
  expect(projects).toEqual([expect.objectContaining({ id: legacy.projectId, name: "Legacy", instructions: "Answer in rhymes.", chatCount: 3 })]);
  expect((await json(await call("/api/settings", { token }), settingsResponse)).settings).toEqual({ model: "mock-large" });
  // Gone from D1, and counted once in the room.
  const userId = user.user.id;
  expect(await d1Count("chats WHERE user_id = ?1", userId)).toBe(0);
  expect(await d1Count("messages WHERE chat_id = ?1", legacy.long)).toBe(0);
  expect(await d1Count("projects WHERE user_id = ?1", userId)).toBe(0);
  expect(await env.DB.prepare("SELECT settings FROM users WHERE id = ?").bind(userId).first("settings")).toBe("{}");
  expect(await userRoomFootprint(userId)).toEqual({ chats: 60, messages: 600, projects: 1 });
}

describe("a signed-in user's data moves from D1 into their room", () => {
  it("on first use: chats, messages (in order), projects and the chosen model, then D1 is emptied", async () => {
    const user = await chatUser();
    const legacy = await seedLegacyRows(user.user.id);
    await expectMovedIn(user, legacy);
  });

  it("resumes an interrupted move without duplicating or losing a row", async () => {
    const user = await chatUser();
    const legacy = await seedLegacyRows(user.user.id);
    // The first attempt copies a page into the room, then D1 fails before that page is deleted.
    let batches = 0;
    const failingDb = {
      prepare: (q: string) => env.DB.prepare(q),
      // The first batch (the probe) reads; the second (deleting the first copied page) fails.
      batch: (statements: D1PreparedStatement[]) => (++batches === 1 ? env.DB.batch(statements) : Promise.reject(new Error("D1 unavailable"))),
    } as unknown as D1Database;
    await runInDurableObject(getUserRoom(env, user.user.id), async (_room, state) => {
      await expect(importLegacyUserData(failingDb, new RoomStore(state.storage), user.user.id)).rejects.toThrow("D1 unavailable");
    });
    expect((await userRoomFootprint(user.user.id)).chats).toBeGreaterThan(0);
    await expectMovedIn(user, legacy);
  });

  it("a moved chat goes on over the socket with its history and project", async () => {
    const user = await chatUser();
    const legacy = await seedLegacyRows(user.user.id);
    const projectChat = legacy.chatIds[1]!;
    await env.DB.prepare("INSERT INTO messages (id, chat_id, role, content, created_at) VALUES (?, ?, 'user', 'remember the word lantern', 2000)")
      .bind(crypto.randomUUID(), projectChat)
      .run();
    const tab = await user.open();
    tab.sendMessage({ chatId: projectChat, content: "[[echo]] and now?" });
    const reply = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    const sent = JSON.parse(reply.message.content.data) as { role: string; content: string }[];
    expect(sent[0]).toEqual({ role: "system", content: "Answer in rhymes." });
    expect(sent.some((m) => m.content === "remember the word lantern")).toBe(true);
    expect(reply.chat?.projectId).toBe(legacy.projectId);
    tab.close();
    expect(await d1Count("chats WHERE user_id = ?1", user.user.id)).toBe(0);
  });

  it("an account deletion that comes while the move runs leaves the room empty: the move stops", async () => {
    const user = await chatUser();
    await seedLegacyRows(user.user.id);
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atPause = new Promise<void>((r) => (reached = r));
    let batches = 0;
    // The probe is batch 1; batch 2 (deleting the first copied page from D1) waits, as a far D1 would.
    const slowDb = {
      prepare: (q: string) => env.DB.prepare(q),
      batch: async (statements: D1PreparedStatement[]) => {
        if (++batches === 2) {
          reached();
          await paused;
        }
        return env.DB.batch(statements);
      },
    } as unknown as D1Database;
    const left = await runInDurableObject(getUserRoom(env, user.user.id), async (room: ChatRoom, state) => {
      const moving = importLegacyUserData(slowDb, new RoomStore(state.storage), user.user.id);
      await atPause;
      await room.eraseAccountData(); // what DELETE /api/auth/me does before the D1 rows go
      release();
      await moving;
      return roomCounts(state.storage);
    });
    expect(left).toEqual({ chats: 0, messages: 0, projects: 0 });
  });

  it("a deleted account's room writes nothing more: a call that was on its way finds nothing", async () => {
    const user = await chatUser();
    await seedChat(user.user.id, { title: "before" });
    const room = getUserRoom(env, user.user.id);
    await room.revokeTokens({ tokens: [], everyConnection: true });
    expect(await room.createProject({ name: "late", instructions: "" })).toBeNull();
    expect(await room.saveSettings({ model: "mock-large" })).toBeNull();
    expect((await room.listChats({ page: 1, limit: 10 })).total).toBe(0);
    expect(await userRoomFootprint(user.user.id)).toEqual({ chats: 0, messages: 0, projects: 0 });
  });
});

describe("a long chat", () => {
  it("is read a bounded page per room call and answered whole", async () => {
    const user = await chatUser();
    const big = (i: number) => `${i}`.padEnd(700_000, "x");
    const chatId = await seedChat(user.user.id, { title: "Long", messages: Array.from({ length: 6 }, (_, i) => big(i)) });
    const pages = await runInDurableObject(getUserRoom(env, user.user.id), (_room, state) => {
      const store = new RoomStore(state.storage);
      const sizes: number[] = [];
      for (let page = store.chatDetailPage(chatId); page; page = page.next ? store.chatDetailPage(chatId, page.next) : null) sizes.push(page.messages.length);
      return sizes;
    });
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.reduce((a, b) => a + b, 0)).toBe(6);
    const detail = await json(await call(`/api/chats/${chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => m.content.data.slice(0, 1))).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(detail.messages.every((m) => m.content.data.length === 700_000)).toBe(true);
  });
});
