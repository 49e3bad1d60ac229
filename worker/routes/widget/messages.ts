import { Hono } from "hono";
import { formatWidgetSseEvent, widgetSendMessageData, type WidgetServerFrame } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { admitVisitorMessage } from "../../services/widget/admit-visitor-message";
import { requireVisitorSession } from "../../services/widget/visitor-session-rows";
import { runVisitorTurn } from "../../widget/visitor-turn";
import { keyHeader, readBody, widgetCaller } from "./caller";

/**
 * POST /sessions/:id/messages { content, files?, clientMessageId } → text/event-stream of the same
 * events as the socket (`event: <name>` + `data: <json>`), ending after `remaining-messages`.
 * The fallback of a widget whose WebSocket cannot connect. Refusals before the answer starts (bad
 * key, origin, session, body, limits) are plain HTTP errors with the envelope (401/403/404/400/429).
 * The answer runs to its end even if the visitor goes away (waitUntil): it is saved either way.
 */
export const widgetMessageRoutes = new Hono<AppEnv>().post("/sessions/:id/messages", async (c) => {
  const { assistant } = await widgetCaller(c, keyHeader(c));
  const ctx = serviceContext(c);
  const session = await requireVisitorSession(ctx, { assistantId: assistant.id, sessionId: c.req.param("id") });
  const message = await readBody(c, widgetSendMessageData);
  const admission = await admitVisitorMessage({ ctx, input: { assistant, session, ip: clientIp(c), fileCount: message.files.length } });
  if (!admission.ok) throw new AppError(admission.code, admission.error, admission.retryAfter ? { retryAfter: admission.retryAfter } : {});

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const emit = (frame: WidgetServerFrame) => {
    // A visitor who went away makes writes fail: the turn goes on and is saved.
    writer.write(encoder.encode(formatWidgetSseEvent(frame))).catch(() => {});
  };
  const turn = runVisitorTurn({ ctx, emit, signal: new AbortController().signal }, { assistant, session, message, remaining: admission.remaining }).finally(() =>
    writer.close().catch(() => {}),
  );
  c.executionCtx.waitUntil(turn);
  return new Response(readable, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
