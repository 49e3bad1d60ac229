import { describe, expect, it } from "vitest";
import { chatListResponse, projectListResponse, projectResponse } from "../../contract";
import { call, json, registerUser } from "./helpers";
import { seedChat } from "./chat-helpers";

describe("/api/projects", () => {
  it("creates, lists, reads and updates projects", async () => {
    const { token } = await registerUser();
    const created = await call("/api/projects", { token, json: { name: " Research ", instructions: "Cite sources." } });
    expect(created.status).toBe(201);
    const { project } = await json(created, projectResponse);
    expect(project).toMatchObject({ name: "Research", instructions: "Cite sources.", chatCount: 0 });
    const bare = await json(await call("/api/projects", { token, json: { name: "Bare" } }), projectResponse);
    expect(bare.project.instructions).toBe("");

    const list = await json(await call("/api/projects", { token }), projectListResponse);
    expect(list.projects.map((p) => p.name).sort()).toEqual(["Bare", "Research"]);
    const read = await json(await call(`/api/projects/${project.id}`, { token }), projectResponse);
    expect(read.project).toEqual(project);
    const updated = await json(await call(`/api/projects/${project.id}`, { token, method: "PATCH", json: { instructions: "Be brief." } }), projectResponse);
    expect(updated.project).toMatchObject({ name: "Research", instructions: "Be brief." });
  });

  it("lists a project's chats and counts them", async () => {
    const { token, user } = await registerUser();
    const { project } = await json(await call("/api/projects", { token, json: { name: "P" } }), projectResponse);
    const inside = [await seedChat(user.id, { projectId: project.id, updatedAt: 1 }), await seedChat(user.id, { projectId: project.id, updatedAt: 2 })];
    await seedChat(user.id);
    const chats = await json(await call(`/api/projects/${project.id}/chats`, { token }), chatListResponse);
    expect(chats.chats.map((c) => c.id)).toEqual([inside[1], inside[0]]);
    expect((await json(await call(`/api/projects/${project.id}`, { token }), projectResponse)).project.chatCount).toBe(2);
  });

  it("deleting a project keeps its chats, unassigned", async () => {
    const { token, user } = await registerUser();
    const { project } = await json(await call("/api/projects", { token, json: { name: "Gone" } }), projectResponse);
    const chatId = await seedChat(user.id, { projectId: project.id, messages: ["keep me"] });
    expect((await call(`/api/projects/${project.id}`, { token, method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/projects/${project.id}`, { token })).status).toBe(404);
    const chat = (await (await call(`/api/chats/${chatId}`, { token })).json()) as { chat: { projectId: string | null }; messages: unknown[] };
    expect(chat.chat.projectId).toBeNull();
    expect(chat.messages).toHaveLength(1);
  });
});
