import { describe, expect, it } from "vitest";
import { chatMessages, modelsResponse, settingsResponse } from "../../contract";
import { call, errorOf, json, registerUser } from "./helpers";

describe("/api/models and /api/settings", () => {
  it("lists the provider's models and default, and stores the user's choice", async () => {
    const { token } = await registerUser();
    const models = await json(await call("/api/models", { token }), modelsResponse);
    expect(models).toEqual({ models: ["mock-small", "mock-large"], default: "mock-small", selected: null, offline: false });

    const saved = await json(await call("/api/settings", { token, method: "PUT", json: { model: "mock-large" } }), settingsResponse);
    expect(saved.settings).toEqual({ model: "mock-large" });
    expect((await json(await call("/api/settings", { token }), settingsResponse)).settings.model).toBe("mock-large");
    expect((await json(await call("/api/models", { token }), modelsResponse)).selected).toBe("mock-large");

    await call("/api/settings", { token, method: "PUT", json: { model: null } });
    expect((await json(await call("/api/models", { token }), modelsResponse)).selected).toBeNull();
  });

  it("refuses a model the provider does not offer (400)", async () => {
    const { token } = await registerUser();
    const res = await call("/api/settings", { token, method: "PUT", json: { model: "gpt-17" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error).toBe(chatMessages.unknownModel);
    expect((await call("/api/settings", { token, method: "PUT", json: {} })).status).toBe(400);
  });
});
