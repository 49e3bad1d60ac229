import { describe, expect, it } from "vitest";
import { webhookLimits as L, webhookMessages as M } from "../../contract";
import { call, expectError } from "./helpers";
import { createWebhook, hookedAssistant, hooksPath, receiver } from "./webhooks-helpers";

describe("webhooks: refusals with the contract's messages", () => {
  it("an assistant has at most maxPerAssistant endpoints", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    for (let i = 1; i < L.maxPerAssistant; i++) await createWebhook(t.token, t.assistant._id, { url: receiver().url, events: ["lead.created"] });
    const res = await call(hooksPath(t.assistant._id), { token: t.token, method: "POST", json: { url: receiver().url, events: ["lead.created"] } });
    await expectError(res, 409, M.tooMany(L.maxPerAssistant));
  });

  it("the body's fields name what is wrong", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const post = (body: unknown) => call(hooksPath(t.assistant._id), { token: t.token, method: "POST", json: body });
    await expectError(await post({ events: ["lead.created"] }), 400, M.urlRequired);
    await expectError(await post({ url: "   ", events: ["lead.created"] }), 400, M.urlRequired);
    await expectError(await post({ url: `https://example.com/${"a".repeat(L.maxUrlChars)}`, events: ["lead.created"] }), 400, M.urlTooLong(L.maxUrlChars));
    await expectError(await post({ url: "not a url", events: ["lead.created"] }), 400, M.urlInvalid);
    await expectError(await post({ url: "ftp://example.com/x", events: ["lead.created"] }), 400, M.urlInvalid);
    await expectError(await post({ url: "http://user:pw@127.0.0.1/x", events: ["lead.created"] }), 400, M.urlHasCredentials);
    await expectError(await post({ url: receiver().url, events: [] }), 400, M.eventsRequired);
    await expectError(await post({ url: receiver().url }), 400, M.eventsRequired);
    await expectError(await post({ url: receiver().url, events: ["message.deleted"] }), 400, M.eventInvalid(L.events));
    await expectError(await post({ url: receiver().url, events: [L.testEvent] }), 400, M.eventInvalid(L.events));
    await expectError(await post({ url: receiver().url, events: ["lead.created"], description: "d".repeat(L.maxDescriptionChars + 1) }), 400, M.descriptionTooLong(L.maxDescriptionChars));
    const patch = (body: unknown) => call(hooksPath(t.assistant._id, `/${t.webhook.id}`), { token: t.token, method: "PATCH", json: body });
    await expectError(await patch({ enabled: "yes" }), 400, M.enabledInvalid);
    await expectError(await patch({ url: "javascript:alert(1)" }), 400, M.urlInvalid);
    await expectError(await patch({ events: [] }), 400, M.eventsRequired);
  });

  it("an unknown webhook or delivery is a 404 on every route", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const missing = "wh_doesnotexist";
    const routes: [string, string, unknown?][] = [
      ["PATCH", `/${missing}`, { description: "x" }],
      ["DELETE", `/${missing}`],
      ["POST", `/${missing}/test`],
      ["GET", `/${missing}/deliveries`],
      ["POST", `/${missing}/deliveries/whd_x/resend`],
      ["POST", `/${missing}/rotate-secret`],
    ];
    for (const [method, path, body] of routes) {
      await expectError(await call(hooksPath(t.assistant._id, path), { token: t.token, method, ...(body ? { json: body } : {}) }), 404, M.webhookNotFound);
    }
    await expectError(await call(hooksPath(t.assistant._id, `/${t.webhook.id}/deliveries/whd_x/resend`), { token: t.token, method: "POST" }), 404, M.deliveryNotFound);
  });

  it("signed out: 401", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    expect((await call(hooksPath(t.assistant._id))).status).toBe(401);
  });
});
