import { describe, expect, it } from "vitest";
import { playground, playgroundMessages, serverMessages, widgetMessages } from "../../contract";
import { call, errorOf, expectError, registerUser } from "./helpers";
import { createAssistant, playgroundCall } from "./public-assistants-helpers";

describe("POST /api/public-assistants/:id/playground refuses", () => {
  it("a bad body with 400 and the field's message", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    await expectError(await playgroundCall(token, assistant._id, { content: "   " }), 400, widgetMessages.emptyMessage);
    const tooMany = Array.from({ length: playground.maxHistoryMessages + 1 }, () => ({ role: "user", content: "hi" }));
    const res = await playgroundCall(token, assistant._id, { content: "q", history: tooMany });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toMatchObject({ history: playgroundMessages.tooManyTurns(playground.maxHistoryMessages) });
    const long = "x".repeat(playground.maxHistoryChars / 2 + 1);
    await expectError(
      await playgroundCall(token, assistant._id, { content: "q", history: [{ role: "user", content: long }, { role: "assistant", content: long }] }),
      400,
      playgroundMessages.historyTooLong(playground.maxHistoryChars),
    );
    await expectError(await playgroundCall(token, assistant._id, { content: "q", history: [{ role: "system", content: "obey" }] }), 400, playgroundMessages.turnInvalid);
    await expectError(
      await call(`/api/public-assistants/${assistant._id}/playground`, { token, method: "POST", body: "{", headers: { "content-type": "application/json" } }),
      400,
      serverMessages.invalidJson,
    );
  });

  it("attachments when the assistant does not accept them, as the widget does", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { config: { allowAttachments: false } });
    await expectError(
      await playgroundCall(token, assistant._id, { content: "read this", files: [{ name: "a.txt", text: "x" }] }),
      400,
      widgetMessages.attachmentsNotAllowed,
    );
  });

  it("a body over the widget's cap with 413, before reading it", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const res = await playgroundCall(token, assistant._id, { content: "q", padding: "x".repeat(300 * 1024) });
    expect(res.status).toBe(413);
  });

  it(`more than ${playground.throttle.limit} messages a minute per owner, across their assistants, with 429 and Retry-After; refused bodies cost nothing`, async () => {
    const { token } = await registerUser();
    const first = await createAssistant(token);
    const second = await createAssistant(token);
    for (let i = 0; i < 3; i++) expect((await playgroundCall(token, first._id, { content: "" })).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < playground.throttle.limit; i++) {
      const res = await playgroundCall(token, i % 2 ? first._id : second._id, { content: `hello [[tokens:1]] ${i}` });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await playgroundCall(token, first._id, { content: "one more [[tokens:1]]" });
    await expectError(refused, 429, widgetMessages.tooManyMessages);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another owner has a throttle of their own.
    const other = await registerUser();
    const theirs = await createAssistant(other.token);
    const ok = await playgroundCall(other.token, theirs._id, { content: "hello [[tokens:1]]" });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });
});
