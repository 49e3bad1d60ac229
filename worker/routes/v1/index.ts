import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { widgetCors } from "../widget/cors";
import { chatCompletionsRoute } from "./chat-completions";

/** /api/v1: the OpenAI-compatible API of public assistants (Bearer = the assistant's API key). CORS on every route. */
export function v1Routes() {
  return new Hono<AppEnv>().use("*", widgetCors).route("/", chatCompletionsRoute);
}
