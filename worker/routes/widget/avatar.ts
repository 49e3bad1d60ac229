import { Hono } from "hono";
import { assistantAvatar } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { notFound } from "../../http/errors";
import { readWidgetAvatar } from "../../services/first-hour/assistant-avatar";

/**
 * GET /avatar/:assistantId/:version → the assistant's avatar, for the widget on any site (no key:
 * it is shown to every visitor anyway). Its checked type, nosniff, a CSP that runs nothing, and a
 * year's cache: a new upload has a new version in its URL.
 */
export const widgetAvatarRoute = new Hono<AppEnv>().get("/avatar/:assistantId/:version", async (c) => {
  const image = await readWidgetAvatar({ ctx: { env: c.env }, input: { assistantId: c.req.param("assistantId"), version: c.req.param("version") } });
  if (!image) throw notFound();
  return new Response(image.body, {
    headers: {
      "content-type": image.type,
      "content-length": String(image.size),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "cross-origin",
      "cache-control": `public, max-age=${assistantAvatar.cacheSeconds}, immutable`,
    },
  });
});
