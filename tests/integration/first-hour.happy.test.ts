import { describe, expect, it } from "vitest";
import { assistantAvatar, assistantAvatarResponse, onboardingResponse, publicAssistantResponse, widgetConfigResponse } from "../../contract";
import { imageBytes, pathOf, putAvatar, putAvatarForm } from "./first-hour-helpers";
import { call, json, registerUser } from "./helpers";
import { assistantFootprint, createAssistant, playgroundCall } from "./public-assistants-helpers";
import { SHOP_ORIGIN, sseFrames, widgetAssistant, widgetCall } from "./widget-helpers";

const getAssistant = async (token: string, id: string) => (await json(await call(`/api/public-assistants/${id}`, { token }), publicAssistantResponse)).assistant;

describe("PUT /api/public-assistants/:id/avatar", () => {
  it("stores the image, types it by its bytes, and serves the same bytes to the widget with a year's cache", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const png = imageBytes("png", 2048);
    // Declared as a JPEG named .gif: the bytes decide.
    const res = await putAvatarForm(token, assistant._id, png, "logo.gif", "image/jpeg");
    expect(res.status, await res.clone().text()).toBe(200);
    const { avatarUrl } = await json(res, assistantAvatarResponse);
    expect(avatarUrl).toMatch(new RegExp(`^http://tala\\.test/api/widget/avatar/${assistant._id}/[A-Za-z0-9_-]+$`));
    expect((await getAssistant(token, assistant._id)).config.customization.avatarUrl).toBe(avatarUrl);

    const served = await call(pathOf(avatarUrl));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(served.headers.get("cache-control")).toBe(`public, max-age=${assistantAvatar.cacheSeconds}, immutable`);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);

    // The widget's config carries it, with the owner's other choices of look.
    const config = await json(await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN }), widgetConfigResponse);
    expect(config.assistant).toMatchObject({ avatarUrl, theme: "auto", language: "auto", availabilityLine: "", contactLine: "" });
  });

  it("takes a raw body; a new upload is a new URL and the old image is gone", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Logo swap" });
    const first = await json(await putAvatar(token, assistant._id, imageBytes("webp"), "image/webp"), assistantAvatarResponse);
    const second = await json(await putAvatar(token, assistant._id, imageBytes("jpeg"), "image/png"), assistantAvatarResponse);
    expect(second.avatarUrl).not.toBe(first.avatarUrl);
    expect((await call(pathOf(first.avatarUrl))).status).toBe(404);
    const served = await call(pathOf(second.avatarUrl));
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect((await assistantFootprint(assistant._id)).objects).toBe(1);
  });

  it("DELETE takes it away: the widget shows its default mark and the stored image is gone", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "No logo" });
    const { avatarUrl } = await json(await putAvatar(token, assistant._id, imageBytes("png")), assistantAvatarResponse);
    const res = await call(`/api/public-assistants/${assistant._id}/avatar`, { token, method: "DELETE" });
    expect(await json(res, assistantAvatarResponse)).toEqual({ avatarUrl: "" });
    expect((await getAssistant(token, assistant._id)).config.customization.avatarUrl).toBe("");
    expect((await call(pathOf(avatarUrl))).status).toBe(404);
  });

  it("goes with the assistant when it is deleted", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Short-lived" });
    const { avatarUrl } = await json(await putAvatar(token, assistant._id, imageBytes("png")), assistantAvatarResponse);
    expect((await call(`/api/public-assistants/${assistant._id}`, { token, method: "DELETE" })).status).toBe(204);
    expect((await call(pathOf(avatarUrl))).status).toBe(404);
    expect((await assistantFootprint(assistant._id)).objects).toBe(0);
  });

  it("a settings save keeps the avatar, and the widget config carries the owner's theme, language and lines", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { avatarUrl } = await json(await putAvatar(token, assistant._id, imageBytes("png")), assistantAvatarResponse);
    const res = await call(`/api/public-assistants/${assistant._id}`, {
      token,
      method: "PUT",
      json: { config: { customization: { theme: "dark", language: "fr", availabilityLine: "Nous répondons en une heure", contactLine: "help@shop.example" } } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const config = await json(await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN }), widgetConfigResponse);
    expect(config.assistant).toMatchObject({
      avatarUrl,
      theme: "dark",
      language: "fr",
      availabilityLine: "Nous répondons en une heure",
      contactLine: "help@shop.example",
    });
  });
});

describe("the first-hour record", () => {
  it("starts empty; the snippet copied and the checklist hidden and shown again are kept", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Checklist" });
    expect(assistant.config.onboarding).toEqual({ playgroundAt: null, snippetCopiedAt: null, dismissedAt: null });
    const copied = await json(await call(`/api/public-assistants/${assistant._id}/onboarding`, { token, json: { event: "snippetCopied" } }), onboardingResponse);
    expect(copied.onboarding.snippetCopiedAt).toEqual(expect.any(Number));
    // A second copy keeps the first time.
    const again = await json(await call(`/api/public-assistants/${assistant._id}/onboarding`, { token, json: { event: "snippetCopied" } }), onboardingResponse);
    expect(again.onboarding.snippetCopiedAt).toBe(copied.onboarding.snippetCopiedAt);
    const hidden = await json(await call(`/api/public-assistants/${assistant._id}/onboarding`, { token, json: { event: "dismissed" } }), onboardingResponse);
    expect(hidden.onboarding.dismissedAt).toEqual(expect.any(Number));
    const shown = await json(await call(`/api/public-assistants/${assistant._id}/onboarding`, { token, json: { event: "restored" } }), onboardingResponse);
    expect(shown.onboarding).toEqual({ playgroundAt: null, snippetCopiedAt: copied.onboarding.snippetCopiedAt, dismissedAt: null });
    // A settings save keeps the record.
    await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { name: "Checklist 2" } });
    expect((await getAssistant(token, assistant._id)).config.onboarding.snippetCopiedAt).toBe(copied.onboarding.snippetCopiedAt);
  });

  it("the first Playground message is recorded", async () => {
    const { token, assistant } = await widgetAssistant();
    const frames = await sseFrames(await playgroundCall(token, assistant._id, { content: "Hello" }));
    expect(frames.at(-1)?.event).toBe("remaining-messages");
    expect((await getAssistant(token, assistant._id)).config.onboarding.playgroundAt).toEqual(expect.any(Number));
  });
});
