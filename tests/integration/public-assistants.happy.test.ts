import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  ASSISTANT_NAME,
  apiKeyResponse,
  integrationCodeResponse,
  publicAssistantDefaults,
  publicAssistantListResponse,
  publicAssistantResponse,
} from "../../contract";
import { findAssistantByKey } from "../../worker/services/public-assistants/find-assistant-by-key";
import { call, callWithEnv, json, registerUser } from "./helpers";
import { createAssistant, testServiceContext } from "./public-assistants-helpers";

const keyPattern = /^tala_pk_[A-Za-z0-9_-]{43}$/;
const maskedPattern = /^tala_pk_[A-Za-z0-9_-]{4}…[A-Za-z0-9_-]{4}$/;

describe("POST /api/public-assistants", () => {
  it("fills every missing field with the spec's defaults", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, {});
    expect(assistant).toMatchObject({
      name: "",
      description: "",
      isActive: true,
      config: {
        maxMessagesPerSession: 10,
        dailyLimit: 100,
        allowAttachments: false,
        customization: { primaryColor: "#2962FF", headerText: ASSISTANT_NAME, welcomeMessage: "Hello! How can I help you today?" },
      },
      integration: { widgetPosition: "bottom-right", widgetSize: "medium" },
      instructions: "",
      allowedOrigins: [],
      showSources: true,
      files: [],
      stats: { totalSessions: 0 },
    });
    expect(assistant.config).toEqual(publicAssistantDefaults.config);
    expect(assistant.apiKey).toMatch(maskedPattern);
    expect(assistant.createdAt).toBe(assistant.updatedAt);
  });

  it("keeps what the body gives, normalising colour and origins", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, {
      name: "  Support bot ",
      description: "Answers shipping questions",
      isActive: false,
      config: { maxMessagesPerSession: 50, dailyLimit: 10, allowAttachments: true, customization: { primaryColor: "#00ff7f", headerText: "Help" } },
      integration: { widgetPosition: "top-left", widgetSize: "large" },
      instructions: "Answer in French.",
      allowedOrigins: ["HTTPS://Shop.Example.com:443/", "http://localhost:3000", "https://shop.example.com"],
      showSources: false,
    });
    expect(assistant).toMatchObject({
      name: "Support bot",
      description: "Answers shipping questions",
      isActive: false,
      config: {
        maxMessagesPerSession: 50,
        dailyLimit: 10,
        allowAttachments: true,
        customization: { primaryColor: "#00FF7F", headerText: "Help", welcomeMessage: "Hello! How can I help you today?" },
      },
      integration: { widgetPosition: "top-left", widgetSize: "large" },
      instructions: "Answer in French.",
      allowedOrigins: ["https://shop.example.com", "http://localhost:3000"],
      showSources: false,
    });
  });
});

describe("GET /api/public-assistants", () => {
  it("lists the owner's assistants newest first under `assistants`, keys masked", async () => {
    const { token } = await registerUser();
    const first = await createAssistant(token, { name: "First" });
    const second = await createAssistant(token, { name: "Second" });
    await createAssistant((await registerUser()).token, { name: "Someone else's" });

    const { assistants } = await json(await call("/api/public-assistants", { token }), publicAssistantListResponse);
    expect(assistants.map((a) => a._id)).toEqual([second._id, first._id]);
    for (const a of assistants) expect(a.apiKey).toMatch(maskedPattern);

    const one = await json(await call(`/api/public-assistants/${first._id}`, { token }), publicAssistantResponse);
    expect(one.assistant).toEqual(first);
  });

  it("answers an empty list for a new owner", async () => {
    const { token } = await registerUser();
    expect(await json(await call("/api/public-assistants", { token }), publicAssistantListResponse)).toEqual({ assistants: [] });
  });
});

describe("PUT /api/public-assistants/:id", () => {
  it("merges a partial body over the current values", async () => {
    const { token } = await registerUser();
    const created = await createAssistant(token, { name: "Bot", config: { dailyLimit: 500, customization: { headerText: "Ask us" } } });
    const res = await call(`/api/public-assistants/${created._id}`, {
      token,
      method: "PUT",
      json: { config: { customization: { welcomeMessage: "Hi there" } }, integration: { widgetSize: "small" }, isActive: false },
    });
    expect(res.status).toBe(200);
    const { assistant } = await json(res, publicAssistantResponse);
    expect(assistant).toMatchObject({
      name: "Bot",
      isActive: false,
      config: { maxMessagesPerSession: 10, dailyLimit: 500, customization: { primaryColor: "#2962FF", headerText: "Ask us", welcomeMessage: "Hi there" } },
      integration: { widgetPosition: "bottom-right", widgetSize: "small" },
    });
    expect(assistant.apiKey).toBe(created.apiKey);
    expect(assistant.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);

    // The spec's "same body": the whole create body is accepted too.
    const full = await json(
      await call(`/api/public-assistants/${created._id}`, {
        token,
        method: "PUT",
        json: { name: "Renamed", description: "d", isActive: true, config: assistant.config, integration: assistant.integration, allowedOrigins: [] },
      }),
      publicAssistantResponse,
    );
    expect(full.assistant).toMatchObject({ name: "Renamed", description: "d", isActive: true, config: assistant.config });
  });
});

describe("API keys", () => {
  it("reveals the full key, which matches the mask and finds the assistant", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
    expect(apiKey).toMatch(keyPattern);
    expect(assistant.apiKey).toBe(`tala_pk_${apiKey.slice(8, 12)}…${apiKey.slice(-4)}`);
    const found = await findAssistantByKey(testServiceContext(), apiKey);
    expect(found).toMatchObject({ id: assistant._id, isActive: true, config: assistant.config });
  });

  it("regenerating replaces the key: the old one stops working at once", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const ctx = testServiceContext();
    const { apiKey: oldKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);

    const res = await call(`/api/public-assistants/${assistant._id}/regenerate-key`, { token, method: "POST" });
    expect(res.status).toBe(200);
    const { apiKey: newKey } = await json(res, apiKeyResponse);
    expect(newKey).toMatch(keyPattern);
    expect(newKey).not.toBe(oldKey);

    expect(await findAssistantByKey(ctx, oldKey)).toBeNull();
    expect((await findAssistantByKey(ctx, newKey))?.id).toBe(assistant._id);
    const revealed = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
    expect(revealed.apiKey).toBe(newKey);
    const listed = await json(await call(`/api/public-assistants/${assistant._id}`, { token }), publicAssistantResponse);
    expect(listed.assistant.apiKey).toBe(`tala_pk_${newKey.slice(8, 12)}…${newKey.slice(-4)}`);
  });

  it("gives the integration snippet for this server's origin with the full key", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
    const res = await call(`/api/public-assistants/${assistant._id}/integration-code`, { token });
    expect(res.status).toBe(200);
    const code = await json(res, integrationCodeResponse);
    expect(code.apiKey).toBe(apiKey);
    expect(code.integrationCode).toBe(
      `<script src="http://tala.test/widget.js" data-assistant-key="${apiKey}" data-host="http://tala.test" async></script>`,
    );
  });

  it("works with a configured ENCRYPTION_KEY (production)", async () => {
    const { token } = await registerUser();
    const production = { ENVIRONMENT: "production", ENCRYPTION_KEY: "a-production-secret-of-decent-length" };
    const created = await callWithEnv(production, "/api/public-assistants", { token, json: { name: "Prod" } });
    expect(created.status).toBe(201);
    const { assistant } = await json(created, publicAssistantResponse);
    const revealed = await json(await callWithEnv(production, `/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
    expect(revealed.apiKey).toMatch(keyPattern);
    expect((await findAssistantByKey(testServiceContext(), revealed.apiKey))?.id).toBe(assistant._id);
  });
});

describe("DELETE /api/public-assistants/:id", () => {
  it("answers 204 and the assistant is gone", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
    const res = await call(`/api/public-assistants/${assistant._id}`, { token, method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await call(`/api/public-assistants/${assistant._id}`, { token })).status).toBe(404);
    expect(await json(await call("/api/public-assistants", { token }), publicAssistantListResponse)).toEqual({ assistants: [] });
    expect(await findAssistantByKey(testServiceContext(), apiKey)).toBeNull();
    const row = await env.DB.prepare("SELECT id FROM public_assistants WHERE id = ?1").bind(assistant._id).first();
    expect(row).toBeNull();
  });
});
