import { Hono } from "hono";
import { playgroundMessageBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { afterResponse } from "../../services/context";
import { markPlaygroundUsed } from "../../services/first-hour/onboarding";
import { beginPlaygroundTurn } from "../../services/public-assistants/begin-playground-turn";
import { runVisitorTurn } from "../../widget/visitor-turn";
import { widgetEventStream } from "../widget/event-stream";

/**
 * POST /:id/playground { content, files?, clientMessageId, history?, locale? } → text/event-stream
 * of the widget's events (new-message, thinking, message-delta, new-message with sources or
 * message-error, remaining-messages: the owner's playground throttle). The owner chats with their
 * assistant as a visitor would: the same retrieval, prompt and model (or offline excerpts), counted
 * against no visitor limit and saved nowhere. Refusals before the answer (404, 400, 429) are plain
 * HTTP errors with the envelope. An owner who closes the page stops the answer.
 */
export const playgroundRoute = new Hono<AppEnv>().post("/:id/playground", jsonBody(playgroundMessageBody), async (c) => {
  const message = c.req.valid("json");
  const ctx = serviceContext(c);
  const { turn, finish } = await beginPlaygroundTurn({
    ctx,
    input: { userId: c.var.user.id, assistantId: c.req.param("id"), message },
  });
  // The first-hour checklist's "tried in the Playground": once, off the answer's path.
  if (turn.assistant.config.onboarding.playgroundAt === null) {
    await afterResponse(ctx, "onboarding-playground-failed", () => markPlaygroundUsed({ ctx, input: { userId: c.var.user.id, assistantId: turn.assistant.id } }));
  }
  return widgetEventStream(c, (emit, signal) => runVisitorTurn({ env: c.env, emit, signal, finish }, turn, message), { stopWhenGone: true });
});
