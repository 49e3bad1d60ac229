import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { widgetCors } from "../widget/cors";
import { chatCompletionsRoute } from "./chat-completions";
import { modelsRoute } from "./models";

/** /api/v1: the OpenAI-compatible API of public assistants (Bearer = one of the assistant's secret keys, `tala_sk_…`). CORS on every route. */
export function v1Routes() {
  return new Hono<AppEnv>().use("*", widgetCors).route("/", chatCompletionsRoute).route("/", modelsRoute);
}
