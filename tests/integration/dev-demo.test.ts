import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiKeyResponse, widgetConfigResponse } from "../../contract";
import { DEMO_ASSISTANT_ID, DEMO_FILE } from "../../worker/services/dev/demo-assistant";
import { call, callWithEnv, errorOf, json } from "./helpers";
import { hubRows } from "./public-assistants-helpers";
import { widgetCall } from "./widget-helpers";

const count = async (sql: string, ...params: string[]) => (await env.DB.prepare(sql).bind(...params).first<{ n: number }>())?.n;

describe("GET /api/dev/demo-assistant", () => {
  it("seeds the demo once, even under two parallel first calls, and answers the same working key", async () => {
    const [a, b] = await Promise.all([call("/api/dev/demo-assistant"), call("/api/dev/demo-assistant")]);
    expect(a.status, await a.clone().text()).toBe(200);
    expect(b.status, await b.clone().text()).toBe(200);
    const { apiKey } = await json(a, apiKeyResponse);
    expect((await json(b, apiKeyResponse)).apiKey).toBe(apiKey);
    expect(apiKey).toMatch(/^tala_pk_/);

    const again = await json(await call("/api/dev/demo-assistant"), apiKeyResponse);
    expect(again.apiKey).toBe(apiKey);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE email = ?1", "demo@tala.local")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM public_assistants WHERE name = ?1", "Tala Guide")).toBe(1);
    // The knowledge lives in the assistant's own object.
    expect(Number((await hubRows(DEMO_ASSISTANT_ID, "SELECT COUNT(*) AS n FROM knowledge_files WHERE status = 'ready'"))[0]?.n)).toBe(1);
    const chunks = Number((await hubRows(DEMO_ASSISTANT_ID, "SELECT COUNT(*) AS n FROM knowledge_chunks WHERE file_id = ?", DEMO_FILE.id))[0]?.n);
    expect(chunks).toBeGreaterThan(0);

    const res = await widgetCall("/api/widget/config", { key: apiKey, origin: "http://127.0.0.1:8787" });
    expect(res.status, await res.clone().text()).toBe(200);
    const { assistant } = await json(res, widgetConfigResponse);
    expect(assistant).toMatchObject({ id: DEMO_ASSISTANT_ID, name: "Tala Guide", showSources: true });
    expect(assistant.welcomeMessage).toContain("Tala");
  });

  it("answers 404, like an unknown path, when not local", async () => {
    const res = await callWithEnv({ ENVIRONMENT: "production" }, "/api/dev/demo-assistant");
    expect(res.status).toBe(404);
    const unknown = await errorOf(await call("/api/dev/nothing-here"));
    expect(await errorOf(res)).toMatchObject({ code: unknown.code, error: unknown.error });
  });
});
