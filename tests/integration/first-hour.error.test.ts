import { describe, expect, it } from "vitest";
import { assistantAvatar, avatarMessages, publicAssistantResponse, validationMessages, onboardingEvents } from "../../contract";
import { imageBytes, putAvatar, putAvatarForm } from "./first-hour-helpers";
import { call, expectError, json, registerUser } from "./helpers";
import { assistantFootprint, createAssistant } from "./public-assistants-helpers";

const maxKb = assistantAvatar.maxBytes / 1024;

describe("PUT /api/public-assistants/:id/avatar refusals", () => {
  it("refuses what is not a PNG, JPEG or WebP by its bytes, whatever its name and type say (415)", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Typed by bytes" });
    await expectError(await putAvatarForm(token, assistant._id, imageBytes("gif"), "logo.png", "image/png"), 415, avatarMessages.wrongType);
    await expectError(await putAvatar(token, assistant._id, new TextEncoder().encode("<svg onload=alert(1)>"), "image/png"), 415, avatarMessages.wrongType);
    expect((await assistantFootprint(assistant._id)).objects).toBe(0);
  });

  it("refuses an image over the limit, naming it (413), raw or in a form; nothing is stored", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Too big" });
    const big = imageBytes("png", assistantAvatar.maxBytes + 1);
    await expectError(await putAvatar(token, assistant._id, big, "image/png"), 413, avatarMessages.tooLarge(maxKb));
    await expectError(await putAvatarForm(token, assistant._id, big, "big.png", "image/png"), 413, avatarMessages.tooLarge(maxKb));
    // Exactly the limit is fine.
    expect((await putAvatar(token, assistant._id, imageBytes("png", assistantAvatar.maxBytes), "image/png")).status).toBe(200);
    expect((await assistantFootprint(assistant._id)).objects).toBe(1);
    const after = (await json(await call(`/api/public-assistants/${assistant._id}`, { token }), publicAssistantResponse)).assistant;
    expect(after.config.customization.avatarUrl).not.toBe("");
  });

  it("refuses an empty body or a form without the file (400)", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Empty" });
    await expectError(await putAvatar(token, assistant._id, new Uint8Array(0), "image/png"), 400, avatarMessages.empty);
    const form = new FormData();
    form.append("other", "x");
    await expectError(await call(`/api/public-assistants/${assistant._id}/avatar`, { token, method: "PUT", body: form }), 400, avatarMessages.empty);
  });

  it("an unknown avatar URL is a 404, a malformed one too", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Nothing here" });
    expect((await call(`/api/widget/avatar/${assistant._id}/abc123`)).status).toBe(404);
    expect((await call(`/api/widget/avatar/${assistant._id}/..%2F..%2Fsecret`)).status).toBe(404);
  });

  it("an unknown onboarding event is refused, naming the choices", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Events" });
    const res = await call(`/api/public-assistants/${assistant._id}/onboarding`, { token, json: { event: "installed" } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(validationMessages.oneOf("event", onboardingEvents));
  });
});
