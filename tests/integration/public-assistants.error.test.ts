import { describe, expect, it } from "vitest";
import {
  publicAssistantResponse,
  publicAssistantServerMessages as M,
  serverMessages,
  widgetPositions,
  widgetSizes,
  type PublicAssistantBody,
} from "../../contract";
import { call, callWithEnv, errorOf, expectError, json, registerUser } from "./helpers";
import { createAssistant, everyRoute, routeInit } from "./public-assistants-helpers";

const maxMessagesRange = M.maxMessagesRange(1, 50);
const dailyLimitRange = M.dailyLimitRange(10, 1000);

describe("POST /api/public-assistants: validation", () => {
  const cases: [string, unknown, string, string][] = [
    ["messages per session 0", { config: { maxMessagesPerSession: 0 } }, maxMessagesRange, "config.maxMessagesPerSession"],
    ["messages per session 51", { config: { maxMessagesPerSession: 51 } }, maxMessagesRange, "config.maxMessagesPerSession"],
    ["messages per session 10.5", { config: { maxMessagesPerSession: 10.5 } }, maxMessagesRange, "config.maxMessagesPerSession"],
    ["messages per session as text", { config: { maxMessagesPerSession: "10" } }, maxMessagesRange, "config.maxMessagesPerSession"],
    ["daily limit 9", { config: { dailyLimit: 9 } }, dailyLimitRange, "config.dailyLimit"],
    ["daily limit 1001", { config: { dailyLimit: 1001 } }, dailyLimitRange, "config.dailyLimit"],
    ["daily limit 99.5", { config: { dailyLimit: 99.5 } }, dailyLimitRange, "config.dailyLimit"],
    ["daily limit null", { config: { dailyLimit: null } }, dailyLimitRange, "config.dailyLimit"],
    ["a colour name", { config: { customization: { primaryColor: "blue" } } }, M.invalidColor, "config.customization.primaryColor"],
    ["a short hex colour", { config: { customization: { primaryColor: "#FFF" } } }, M.invalidColor, "config.customization.primaryColor"],
    ["an unknown position", { integration: { widgetPosition: "middle" } }, M.invalidPosition(widgetPositions), "integration.widgetPosition"],
    ["an unknown size", { integration: { widgetSize: "huge" } }, M.invalidSize(widgetSizes), "integration.widgetSize"],
    ["isActive as text", { isActive: "yes" }, M.mustBeBoolean("isActive"), "isActive"],
    ["attachments as a number", { config: { allowAttachments: 1 } }, M.mustBeBoolean("allowAttachments"), "config.allowAttachments"],
    ["a name too long", { name: "n".repeat(101) }, M.textTooLong("Name", 100), "name"],
    ["config as a string", { config: "big" }, M.mustBeObject("config"), "config"],
    ["a bare host as origin", { allowedOrigins: ["example.com"] }, M.invalidOrigin("example.com"), "allowedOrigins.0"],
    ["an origin with a path", { allowedOrigins: ["https://a.example/shop"] }, M.invalidOrigin("https://a.example/shop"), "allowedOrigins.0"],
    ["an ftp origin", { allowedOrigins: ["https://ok.example", "ftp://files.example"] }, M.invalidOrigin("ftp://files.example"), "allowedOrigins.1"],
    ["a wildcard origin", { allowedOrigins: ["https://*.example.com"] }, M.invalidOrigin("https://*.example.com"), "allowedOrigins.0"],
    ["an origin with a query", { allowedOrigins: ["https://a.example?x=1"] }, M.invalidOrigin("https://a.example?x=1"), "allowedOrigins.0"],
    ["an origin with credentials", { allowedOrigins: ["https://me:pw@a.example"] }, M.invalidOrigin("https://me:pw@a.example"), "allowedOrigins.0"],
    ["origins as a string", { allowedOrigins: "https://a.example" }, M.allowedOriginsList, "allowedOrigins"],
    [
      "too many origins",
      { allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://site${i}.example`) },
      M.tooManyOrigins(50),
      "allowedOrigins",
    ],
  ];

  it.each(cases)("refuses %s with 400 and a message naming the rule", async (_label, body, message, field) => {
    const { token } = await registerUser();
    const res = await call("/api/public-assistants", { token, json: body });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", error: message });
    expect(error.fields?.[field]).toBe(message);
  });

  it("accepts the range bounds exactly", async () => {
    const { token } = await registerUser();
    const low = await createAssistant(token, { config: { maxMessagesPerSession: 1, dailyLimit: 10 } });
    const high = await createAssistant(token, { config: { maxMessagesPerSession: 50, dailyLimit: 1000 } });
    expect(low.config).toMatchObject({ maxMessagesPerSession: 1, dailyLimit: 10 });
    expect(high.config).toMatchObject({ maxMessagesPerSession: 50, dailyLimit: 1000 });
  });

  it("refuses a body that is not JSON", async () => {
    const { token } = await registerUser();
    const res = await call("/api/public-assistants", { token, method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    await expectError(res, 400, serverMessages.invalidJson);
  });
});

describe("PUT /api/public-assistants/:id: validation", () => {
  it("refuses out-of-range values and changes nothing", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Keep", config: { dailyLimit: 200 } });
    const bodies: PublicAssistantBody[] = [
      { name: "Changed", config: { dailyLimit: 5 } },
      { name: "Changed", config: { maxMessagesPerSession: 100 } },
    ];
    for (const body of bodies) {
      const res = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: body });
      expect(res.status).toBe(400);
    }
    const after = await json(await call(`/api/public-assistants/${assistant._id}`, { token }), publicAssistantResponse);
    expect(after.assistant).toEqual(assistant);
  });
});

describe("unknown ids", () => {
  it("answer 404 on every route", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    for (const route of everyRoute(crypto.randomUUID(), crypto.randomUUID())) {
      const res = await call(route.path, routeInit(route, { token }));
      expect(res.status, `${route.method} ${route.path}`).toBe(404);
      expect((await errorOf(res)).code).toBe("NOT_FOUND");
    }
    // A real assistant with an unknown file id.
    for (const [method, suffix] of [
      ["DELETE", ""],
      ["GET", "/download"],
    ] as const) {
      const res = await call(`/api/public-assistants/${assistant._id}/files/${crypto.randomUUID()}${suffix}`, { token, method });
      expect(res.status).toBe(404);
    }
  });
});

describe("query validation", () => {
  it("checks history pagination bounds", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token);
    const cases: [string, string][] = [
      ["page=0", M.pageInvalid],
      ["page=-1", M.pageInvalid],
      ["page=abc", M.pageInvalid],
      ["page=1.5", M.pageInvalid],
      ["limit=0", M.pageSizeInvalid(50)],
      ["limit=51", M.pageSizeInvalid(50)],
      ["limit=ten", M.pageSizeInvalid(50)],
    ];
    for (const [query, message] of cases) {
      await expectError(await call(`/api/public-assistants/${_id}/chats?${query}`, { token }), 400, message);
    }
    expect((await call(`/api/public-assistants/${_id}/chats?page=1&limit=50`, { token })).status).toBe(200);
  });

  it("requires a search query", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token);
    await expectError(await call(`/api/public-assistants/${_id}/search`, { token }), 400, M.searchQueryRequired);
    await expectError(await call(`/api/public-assistants/${_id}/search?q=%20%20`, { token }), 400, M.searchQueryRequired);
    await expectError(await call(`/api/public-assistants/${_id}/search?q=${"a".repeat(501)}`, { token }), 400, M.searchQueryTooLong(500));
    await expectError(await call(`/api/public-assistants/${_id}/search?q=x&limit=21`, { token }), 400, M.searchLimitInvalid(20));
  });
});

describe("encryption secret", () => {
  const production = { ENVIRONMENT: "production", ENCRYPTION_KEY: undefined };

  it("production without ENCRYPTION_KEY refuses to issue or show keys with 503, and lists still work", async () => {
    const { token } = await registerUser();
    const existing = await createAssistant(token);
    await expectError(await callWithEnv(production, "/api/public-assistants", { token, json: { name: "x" } }), 503, M.encryptionKeyMissing);
    for (const [method, path] of [
      ["GET", "raw-api-key"],
      ["POST", "regenerate-key"],
      ["GET", "integration-code"],
    ] as const) {
      await expectError(await callWithEnv(production, `/api/public-assistants/${existing._id}/${path}`, { token, method }), 503, M.encryptionKeyMissing);
    }
    const list = await callWithEnv(production, "/api/public-assistants", { token });
    expect(list.status).toBe(200);
    // Nothing was created by the refused call.
    expect(((await list.json()) as { assistants: unknown[] }).assistants).toHaveLength(1);
  });

  it("refuses a too-short ENCRYPTION_KEY", async () => {
    const { token } = await registerUser();
    const res = await callWithEnv({ ENVIRONMENT: "production", ENCRYPTION_KEY: "short" }, "/api/public-assistants", { token, json: {} });
    await expectError(res, 503, M.encryptionKeyTooShort(16));
  });

  it("says so when a key was sealed under another ENCRYPTION_KEY", async () => {
    const { token } = await registerUser();
    const sealedLocally = await createAssistant(token);
    const res = await callWithEnv({ ENCRYPTION_KEY: "a-different-secret-than-the-local-one" }, `/api/public-assistants/${sealedLocally._id}/raw-api-key`, {
      token,
    });
    await expectError(res, 503, M.apiKeyUnreadable);
  });
});
