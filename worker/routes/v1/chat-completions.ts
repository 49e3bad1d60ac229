import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { admitChatCompletion, type ChatCompletionBody } from "../../services/openai-compat/admit-chat-completion";
import { refuseCorsOrigin } from "../widget/cors";
import { answerChatCompletion } from "./chat-completion-answer";
import { refusalResponse } from "./openai-errors";

/**
 * POST /chat/completions: OpenAI's Chat Completions, answered by the public assistant whose secret
 * key (`tala_sk_…`) is the Bearer token, from its curated answers and knowledge base (the widget's
 * matching, retrieval and prompt: an `exact` pair replies without the model). `model`
 * is accepted and echoed; the caller's system messages are added to the assistant's instructions.
 * Each request counts one message against the assistant's daily limit (no session limit: an API
 * caller has no visitor session). Nothing is saved to the visitor history.
 */
export const chatCompletionsRoute = new Hono<AppEnv>().post("/chat/completions", async (c) => {
  const body = await c.req.json().then(
    (value: unknown): ChatCompletionBody => ({ parsed: true, value }),
    (): ChatCompletionBody => ({ parsed: false }),
  );
  const admitted = await admitChatCompletion({
    ctx: serviceContext(c),
    input: { authorization: c.req.header("authorization"), origin: c.req.header("origin"), body },
  });
  if (admitted.outcome === "refused") {
    // A refused browser Origin is not reflected by CORS.
    if (admitted.originRefused) refuseCorsOrigin(c);
    return refusalResponse(admitted);
  }
  return answerChatCompletion(c, admitted);
});
