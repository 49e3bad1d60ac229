import { describe, expect, it } from "vitest";
import { chatMessages } from "../../contract";
import { call, errorOf, registerUser } from "./helpers";

describe("/api/projects: bad input", () => {
  it("requires a name, bounds the fields and refuses an empty patch (400)", async () => {
    const { token } = await registerUser();
    const missing = await call("/api/projects", { token, json: { instructions: "x" } });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).fields?.name).toBe(chatMessages.projectNameRequired);
    expect((await call("/api/projects", { token, json: { name: "   " } })).status).toBe(400);
    expect((await call("/api/projects", { token, json: { name: "x".repeat(101) } })).status).toBe(400);
    expect((await call("/api/projects", { token, json: { name: "ok", instructions: "x".repeat(8001) } })).status).toBe(400);
    const { project } = (await (await call("/api/projects", { token, json: { name: "ok" } })).json()) as { project: { id: string } };
    expect((await call(`/api/projects/${project.id}`, { token, method: "PATCH", json: {} })).status).toBe(400);
  });

  it("answers 404 for an unknown project", async () => {
    const { token } = await registerUser();
    const id = crypto.randomUUID();
    expect((await call(`/api/projects/${id}`, { token })).status).toBe(404);
    expect((await call(`/api/projects/${id}/chats`, { token })).status).toBe(404);
    expect((await call(`/api/projects/${id}`, { token, method: "PATCH", json: { name: "x" } })).status).toBe(404);
    expect((await call(`/api/projects/${id}`, { token, method: "DELETE" })).status).toBe(404);
  });
});
