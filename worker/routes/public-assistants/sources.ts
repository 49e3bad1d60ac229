import { Hono } from "hono";
import { addWebSourceBody, updateWebSourceBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { addWebSource, deleteWebSource, listWebPages, listWebSources, syncWebSource, updateWebSource } from "../../services/web-sources/web-sources";

/**
 * An assistant's website sources: pages read from the owner's site and indexed like
 * files. Adding and syncing answer 202: the crawl runs in the queue consumer.
 */
export const sourceRoutes = new Hono<AppEnv>()
  /** GET /:id/sources → { sources } */
  .get("/:id/sources", async (c) => {
    const sources = await listWebSources({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    return c.json({ sources });
  })
  /** POST /:id/sources { url, scope, maxPages?, schedule? } → 202 { source } */
  .post("/:id/sources", jsonBody(addWebSourceBody), async (c) => {
    const source = await addWebSource({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...c.req.valid("json") } });
    return c.json({ source }, 202);
  })
  /** PATCH /:id/sources/:sourceId { maxPages?, schedule? } → { source } */
  .patch("/:id/sources/:sourceId", jsonBody(updateWebSourceBody), async (c) => {
    const source = await updateWebSource({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), sourceId: c.req.param("sourceId"), changes: c.req.valid("json") },
    });
    return c.json({ source });
  })
  /** GET /:id/sources/:sourceId/pages → { pages } */
  .get("/:id/sources/:sourceId/pages", async (c) => {
    const pages = await listWebPages({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sourceId: c.req.param("sourceId") } });
    return c.json({ pages });
  })
  /** POST /:id/sources/:sourceId/sync → 202 { source }; 409 while a sync runs */
  .post("/:id/sources/:sourceId/sync", async (c) => {
    const source = await syncWebSource({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sourceId: c.req.param("sourceId") } });
    return c.json({ source }, 202);
  })
  /** DELETE /:id/sources/:sourceId → 204; its pages leave the index */
  .delete("/:id/sources/:sourceId", async (c) => {
    await deleteWebSource({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), sourceId: c.req.param("sourceId") } });
    return c.body(null, 204);
  });
