import { describe, expect, it } from "vitest";
import { serverMessages } from "../../contract";
import { call, expectError, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { addQa, importCsv } from "./qa-helpers";

/** Curated answers are their owner's only: anonymous 401, another owner's assistant or pair 404 with nothing of it. */

describe("curated answers: who may reach them", () => {
  it("another owner gets 404 for every route, and nothing changes", async () => {
    const { token } = await registerUser();
    const { _id: id } = await createAssistant(token);
    const pair = await addQa(token, id, { question: "Where is Bellerophon's order?", answer: "Secret answer" });
    const intruder = await registerUser();
    const routes: [string, string, unknown?][] = [
      ["GET", `/api/public-assistants/${id}/qa`],
      ["POST", `/api/public-assistants/${id}/qa`, { question: "x", answer: "y" }],
      ["GET", `/api/public-assistants/${id}/qa/${pair.id}`],
      ["PATCH", `/api/public-assistants/${id}/qa/${pair.id}`, { answer: "hijacked" }],
      ["DELETE", `/api/public-assistants/${id}/qa/${pair.id}`],
      ["GET", `/api/public-assistants/${id}/qa/export`],
    ];
    for (const [method, path, body] of routes) {
      await expectError(await call(path, { method, ...(body ? { json: body } : {}) }), 401, serverMessages.authRequired);
      const res = await call(path, { token: intruder.token, method, ...(body ? { json: body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain("Bellerophon");
    }
    expect((await importCsv(intruder.token, id, "question,answer\nq,a\n")).status).toBe(404);
    // The intruder's own assistant cannot reach the pair by its id either.
    const { _id: theirs } = await createAssistant(intruder.token);
    expect((await call(`/api/public-assistants/${theirs}/qa/${pair.id}`, { token: intruder.token, method: "PATCH", json: { answer: "x" } })).status).toBe(404);
    const read = await call(`/api/public-assistants/${theirs}/qa/${pair.id}`, { token: intruder.token });
    expect(read.status).toBe(404);
    expect(await read.text()).not.toContain("Bellerophon");
    const list = await call(`/api/public-assistants/${id}/qa`, { token });
    expect(await list.text()).toContain("Secret answer");
  });
});
