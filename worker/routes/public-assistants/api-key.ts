import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { getIntegrationCode } from "../../services/public-assistants/get-integration-code";
import { regenerateApiKey } from "../../services/public-assistants/regenerate-api-key";
import { revealApiKey } from "../../services/public-assistants/reveal-api-key";

/** The full API key (decrypted for the owner), a new one, and the embed snippet. 503 when ENCRYPTION_KEY is missing in production. */
export const apiKeyRoutes = new Hono<AppEnv>()
  /** GET /:id/raw-api-key → { apiKey } */
  .get("/:id/raw-api-key", async (c) => {
    const apiKey = await revealApiKey({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    c.header("cache-control", "no-store");
    return c.json({ apiKey });
  })
  /** POST /:id/regenerate-key → { apiKey }; the old key stops working at once. */
  .post("/:id/regenerate-key", async (c) => {
    const apiKey = await regenerateApiKey({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    c.header("cache-control", "no-store");
    return c.json({ apiKey });
  })
  /** GET /:id/integration-code → { integrationCode, apiKey }: the script tag for this Tala's origin, full key inside. */
  .get("/:id/integration-code", async (c) => {
    const origin = new URL(c.req.url).origin;
    const code = await getIntegrationCode({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), origin } });
    c.header("cache-control", "no-store");
    return c.json(code);
  });
