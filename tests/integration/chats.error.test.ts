import { describe, expect, it } from "vitest";
import { call, errorOf, registerUser } from "./helpers";
import { seedChat } from "./chat-helpers";

describe("chats: bad input", () => {
  it("refuses an empty or too long title and an empty patch (400)", async () => {
    const { token, user } = await registerUser();
    const id = await seedChat(user.id);
    for (const body of [{ title: "   " }, { title: "x".repeat(201) }, {}]) {
      const res = await call(`/api/chats/${id}`, { token, method: "PATCH", json: body });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("VALIDATION_ERROR");
    }
    const bad = await call(`/api/chats/${id}`, { token, method: "PATCH", body: "{oops", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
  });

  it("refuses bad paging (400) and unknown ids (404)", async () => {
    const { token } = await registerUser();
    expect((await call("/api/chats?page=0", { token })).status).toBe(400);
    expect((await call("/api/chats?limit=500", { token })).status).toBe(400);
    expect((await call(`/api/chats/${crypto.randomUUID()}`, { token })).status).toBe(404);
    expect((await call(`/api/chats/${crypto.randomUUID()}`, { token, method: "DELETE" })).status).toBe(404);
  });

  it("refuses moving a chat into a project that does not exist (404)", async () => {
    const { token, user } = await registerUser();
    const id = await seedChat(user.id);
    const res = await call(`/api/chats/${id}`, { token, method: "PATCH", json: { projectId: crypto.randomUUID() } });
    expect(res.status).toBe(404);
  });
});
