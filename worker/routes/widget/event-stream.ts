import type { Context } from "hono";
import { formatWidgetSseEvent, type WidgetServerFrame } from "../../../contract";
import type { AppEnv } from "../../http/context";

export interface WidgetEventStreamOptions {
  /**
   * A caller who hangs up aborts the turn's `signal` (nothing of it is kept: the owner's
   * Playground). Without it the turn runs to its end whoever listens, so a visitor's answer is
   * saved even when they went away (the widget's messages).
   */
  stopWhenGone?: boolean;
}

/**
 * An SSE answer of widget server events (`event: <name>` + `data: <json>`): `run` emits frames
 * while the Worker keeps the request alive (waitUntil); the stream closes when `run` settles.
 * A write to a caller who went away fails quietly. Shared by POST /api/widget/sessions/:id/messages
 * and the owner's POST /api/public-assistants/:id/playground.
 */
export function widgetEventStream(
  c: Context<AppEnv>,
  run: (emit: (frame: WidgetServerFrame) => void, signal: AbortSignal) => Promise<void>,
  { stopWhenGone = false }: WidgetEventStreamOptions = {},
): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const controller = new AbortController();
  const emit = (frame: WidgetServerFrame) => {
    writer.write(encoder.encode(formatWidgetSseEvent(frame))).catch(() => {
      if (stopWhenGone) controller.abort();
    });
  };
  const done = run(emit, controller.signal).finally(() => writer.close().catch(() => {}));
  c.executionCtx.waitUntil(done);
  return new Response(readable, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
