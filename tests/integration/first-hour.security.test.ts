import { describe, expect, it } from "vitest";
import { assistantAvatarResponse, publicAssistantResponse } from "../../contract";
import { imageBytes, pathOf, putAvatar } from "./first-hour-helpers";
import { call, json, registerUser } from "./helpers";
import { assistantFootprint, createAssistant } from "./public-assistants-helpers";

describe("the first-hour routes belong to the assistant's owner", () => {
  it("another owner's assistant is a 404 for the avatar (put and delete) and the onboarding record; nothing changes", async () => {
    const owner = await registerUser();
    const stranger = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Mine" });
    const { avatarUrl } = await json(await putAvatar(owner.token, assistant._id, imageBytes("png")), assistantAvatarResponse);

    expect((await putAvatar(stranger.token, assistant._id, imageBytes("jpeg"), "image/jpeg")).status).toBe(404);
    expect((await call(`/api/public-assistants/${assistant._id}/avatar`, { token: stranger.token, method: "DELETE" })).status).toBe(404);
    expect((await call(`/api/public-assistants/${assistant._id}/onboarding`, { token: stranger.token, json: { event: "dismissed" } })).status).toBe(404);

    const after = (await json(await call(`/api/public-assistants/${assistant._id}`, { token: owner.token }), publicAssistantResponse)).assistant;
    expect(after.config.customization.avatarUrl).toBe(avatarUrl);
    expect(after.config.onboarding.dismissedAt).toBeNull();
    expect((await call(pathOf(avatarUrl))).status).toBe(200);
    expect((await assistantFootprint(assistant._id)).objects).toBe(1);
  });

  it("needs a signed-in owner", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Locked" });
    expect((await putAvatar(undefined, assistant._id, imageBytes("png"))).status).toBe(401);
    expect((await call(`/api/public-assistants/${assistant._id}/onboarding`, { json: { event: "dismissed" } })).status).toBe(401);
  });

  it("the avatar cannot be set through the settings update", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "No injection" });
    await call(`/api/public-assistants/${assistant._id}`, {
      token,
      method: "PUT",
      json: { config: { customization: { avatarUrl: "https://evil.example/x.svg" }, onboarding: { dismissedAt: 1 } } },
    });
    const after = (await json(await call(`/api/public-assistants/${assistant._id}`, { token }), publicAssistantResponse)).assistant;
    expect(after.config.customization.avatarUrl).toBe("");
    expect(after.config.onboarding.dismissedAt).toBeNull();
  });
});
