import { Hono } from "hono";
import { knowledgeTextBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { createKnowledgeText, getKnowledgeText, updateKnowledgeText } from "../../services/public-assistants/knowledge-texts";

/**
 * An assistant's text snippets: knowledge typed in the dashboard, a knowledge file of kind "text"
 * (listed with the files, deleted with DELETE /:id/files/:fileId). Another owner's assistant or
 * text, or a file that is not a text, is a 404.
 */
export const textRoutes = new Hono<AppEnv>()
  /** POST /:id/texts { title, content } → 201 { file, title, content }, indexed before the answer */
  .post("/:id/texts", jsonBody(knowledgeTextBody), async (c) => {
    const text = await createKnowledgeText({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...c.req.valid("json") } });
    return c.json(text, 201);
  })
  /** GET /:id/texts/:fileId → { file, title, content } */
  .get("/:id/texts/:fileId", async (c) => {
    return c.json(await getKnowledgeText({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), fileId: c.req.param("fileId") } }));
  })
  /** PUT /:id/texts/:fileId { title, content } → { file, title, content }, indexed again (the old passages swapped out in one step) */
  .put("/:id/texts/:fileId", jsonBody(knowledgeTextBody), async (c) => {
    const input = { userId: c.var.user.id, assistantId: c.req.param("id"), fileId: c.req.param("fileId"), ...c.req.valid("json") };
    return c.json(await updateKnowledgeText({ ctx: serviceContext(c), input }));
  });
