import { Hono } from "hono";
import { feedbackBody, visitorIdentity, type FeedbackResponse } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { rateVisitorAnswer } from "../../services/widget/rate-visitor-answer";
import { keyHeader, readBody, widgetCaller } from "./caller";

/**
 * POST /sessions/:id/messages/:messageId/feedback { rating: "up" | "down" } → { messageId, rating }:
 * a visitor rates an answer of their conversation (the widget's thumbs). Publishable key and
 * Origin as every widget call (a secret key is refused with 401), then the body, then the
 * per-IP feedback throttle (429) and the assistant's own object (404 session or message, 400 the
 * visitor's own message). A second rating replaces the first.
 */
export const widgetFeedbackRoute = new Hono<AppEnv>().post("/sessions/:id/messages/:messageId/feedback", async (c) => {
  const { assistant } = await widgetCaller(c, keyHeader(c));
  const { rating } = await readBody(c, feedbackBody);
  const rated = await rateVisitorAnswer({
    ctx: serviceContext(c),
    input: {
      assistantId: assistant.id,
      sessionId: c.req.param("id"),
      messageId: c.req.param("messageId"),
      rating,
      ip: clientIp(c),
      visitorToken: c.req.header(visitorIdentity.tokenHeader),
    },
  });
  const body: FeedbackResponse = rated;
  c.header("cache-control", "no-store");
  return c.json(body);
});
