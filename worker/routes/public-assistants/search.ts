import { Hono } from "hono";
import { knowledgeSearchQuery } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { queryParams } from "../../http/validate";
import { searchKnowledge } from "../../services/public-assistants/search-knowledge";

/** GET /:id/search?q=&limit= → { results: [{ fileId, fileName, heading, excerpt, score }], mode } */
export const searchRoute = new Hono<AppEnv>().get("/:id/search", queryParams(knowledgeSearchQuery), async (c) => {
  const { q, limit } = c.req.valid("query");
  return c.json(await searchKnowledge({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), query: q, limit } }));
});
