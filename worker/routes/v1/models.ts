import { Hono, type Context } from "hono";
import { openAiCompatMessages as M, type OpenAiModelList } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { describeApiModels } from "../../services/openai-compat/describe-api-models";
import { refuseCorsOrigin } from "../widget/cors";
import { openAiError, refusalResponse } from "./openai-errors";

/** The caller's models, or the response refusing its key (the same as chat completions'). */
async function modelsOf(c: Context<AppEnv>) {
  const listed = await describeApiModels({
    ctx: serviceContext(c),
    input: { authorization: c.req.header("authorization"), origin: c.req.header("origin") },
  });
  if (listed.outcome === "listed") return listed.models;
  if (listed.originRefused) refuseCorsOrigin(c);
  return refusalResponse(listed);
}

/**
 * GET /models and GET /models/{id}: OpenAI's model list and model, so clients that list models
 * first work. A secret key sees one model, its assistant, by the name chat completions answers
 * with; any other id is OpenAI's 404 (`model_not_found`).
 */
export const modelsRoute = new Hono<AppEnv>()
  .get("/models", async (c) => {
    const models = await modelsOf(c);
    if (models instanceof Response) return models;
    const body: OpenAiModelList = { object: "list", data: models };
    return c.json(body);
  })
  .get("/models/:id{.+}", async (c) => {
    const models = await modelsOf(c);
    if (models instanceof Response) return models;
    const id = c.req.param("id");
    const model = models.find((m) => m.id === id);
    if (!model) return openAiError(404, "invalid_request_error", M.modelNotFound(id), "model_not_found", {}, "model");
    return c.json(model);
  });
