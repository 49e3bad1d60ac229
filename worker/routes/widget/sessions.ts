import { Hono } from "hono";
import { createWidgetSessionBody, widget } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { getWidgetSession } from "../../services/widget/get-widget-session";
import { startVisitorSession } from "../../services/widget/start-visitor-session";
import { requireVisitorSession } from "../../services/widget/visitor-session-rows";
import { keyHeader, readBody, widgetCaller } from "./caller";

/** A visitor's conversation: start or resume it, and read it back after a reload. */
export const widgetSessionRoutes = new Hono<AppEnv>()
  /** POST /sessions { visitorSessionId?, referrer, locale } → 201 new | 200 resumed: { sessionId, messages, remaining }. */
  .post("/sessions", async (c) => {
    const caller = await widgetCaller(c, keyHeader(c));
    const body = await readBody(c, createWidgetSessionBody);
    const { created, session } = await startVisitorSession({
      ctx: serviceContext(c),
      input: {
        assistant: caller.assistant,
        visitorSessionId: body.visitorSessionId,
        referrer: body.referrer,
        // The widget sends navigator.language; the browser's first Accept-Language is the fallback.
        locale: body.locale || (c.req.header("accept-language")?.split(",")[0]?.split(";")[0]?.trim().slice(0, widget.maxLocaleChars) ?? ""),
        origin: caller.origin,
        userAgent: c.req.header("user-agent") ?? "",
        ip: clientIp(c),
      },
    });
    c.header("cache-control", "no-store");
    return c.json(session, created ? 201 : 200);
  })
  /** GET /sessions/:id → { sessionId, messages, remaining }; another assistant's or an unknown session is a 404. */
  .get("/sessions/:id", async (c) => {
    const { assistant } = await widgetCaller(c, keyHeader(c));
    const ctx = serviceContext(c);
    const row = await requireVisitorSession(ctx, { assistantId: assistant.id, sessionId: c.req.param("id") });
    c.header("cache-control", "no-store");
    return c.json(await getWidgetSession({ ctx, input: { assistant, row } }));
  });
