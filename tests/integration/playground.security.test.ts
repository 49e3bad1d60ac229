import { describe, expect, it } from "vitest";
import { apiKeyResponse, serverMessages } from "../../contract";
import { call, expectError, json, registerUser } from "./helpers";
import { assistantFootprint, createAssistant, playgroundCall, uploadFiles } from "./public-assistants-helpers";

describe("POST /api/public-assistants/:id/playground security", () => {
  it("is the owner's only: no token 401, a widget or secret key 401, another owner 404 without a word of the knowledge", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token);
    const upload = await uploadFiles(owner.token, assistant._id, [{ name: "secret.txt", bytes: "The vault code word is Bellerophon.", type: "text/plain" }]);
    expect(upload.status).toBe(201);
    const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: owner.token }), apiKeyResponse);
    const before = await assistantFootprint(assistant._id);
    const body = { content: "What is the vault code word?" };

    await expectError(await playgroundCall(undefined, assistant._id, body), 401, serverMessages.authRequired);
    await expectError(await playgroundCall(undefined, assistant._id, body, { headers: { "x-assistant-key": apiKey } }), 401, serverMessages.authRequired);
    // A key is no user's credential (the Bearer scheme is for Google ID tokens): refused like an expired one.
    await expectError(await playgroundCall(undefined, assistant._id, body, { headers: { authorization: `Bearer ${apiKey}` } }), 401, serverMessages.sessionExpired);

    const intruder = await registerUser();
    await createAssistant(intruder.token);
    const res = await playgroundCall(intruder.token, assistant._id, body);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Bellerophon");
    expect(await assistantFootprint(assistant._id)).toEqual(before);
  });
});
