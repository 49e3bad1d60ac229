import { describe, expect, it } from "vitest";
import { chatListResponse } from "../../contract";
import { call, errorOf, json, registerUser } from "./helpers";
import { seedChat } from "./chat-helpers";

const endpoints = (chatId: string, projectId: string): [string, RequestInit & { json?: unknown }][] => [
  ["/api/chats", {}],
  [`/api/chats/${chatId}`, {}],
  [`/api/chats/${chatId}`, { method: "PATCH", json: { title: "x" } }],
  [`/api/chats/${chatId}`, { method: "DELETE" }],
  ["/api/projects", {}],
  ["/api/projects", { method: "POST", json: { name: "x" } }],
  [`/api/projects/${projectId}`, {}],
  [`/api/projects/${projectId}`, { method: "PATCH", json: { name: "x" } }],
  [`/api/projects/${projectId}`, { method: "DELETE" }],
  [`/api/projects/${projectId}/chats`, {}],
  ["/api/models", {}],
  ["/api/settings", {}],
  ["/api/settings", { method: "PUT", json: { model: null } }],
];

describe("chats, projects, models and settings: security", () => {
  it("answer 401 without a credential or with a bad one", async () => {
    for (const [path, init] of endpoints(crypto.randomUUID(), crypto.randomUUID())) {
      for (const token of [undefined, "tala_forged"]) {
        const res = await call(path, { ...init, token } as Parameters<typeof call>[1]);
        expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(401);
        expect((await errorOf(res)).code).toBe("UNAUTHORIZED");
      }
    }
  });

  it("answer 404 for another user's chat or project, and leave it untouched", async () => {
    const [owner, other] = await Promise.all([registerUser(), registerUser()]);
    const { project } = (await (await call("/api/projects", { token: owner.token, json: { name: "Mine", instructions: "secret" } })).json()) as {
      project: { id: string };
    };
    const chatId = await seedChat(owner.user.id, { title: "Private", projectId: project.id, messages: ["secret"] });
    for (const [path, init] of endpoints(chatId, project.id).filter(([p]) => p.includes(chatId) || p.includes(project.id))) {
      const res = await call(path, { ...init, token: other.token } as Parameters<typeof call>[1]);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
    }
    // Filing one's own chat into someone else's project is a 404 too.
    const mine = await seedChat(other.user.id);
    expect((await call(`/api/chats/${mine}`, { token: other.token, method: "PATCH", json: { projectId: project.id } })).status).toBe(404);
    // Lists never show another user's records, even filtered by their ids.
    const list = await json(await call(`/api/chats?projectId=${project.id}&search=secret`, { token: other.token }), chatListResponse);
    expect(list.total).toBe(0);
    const still = await call(`/api/chats/${chatId}`, { token: owner.token });
    expect(((await still.json()) as { chat: { title: string; projectId: string } }).chat).toMatchObject({ title: "Private", projectId: project.id });
  });
});
