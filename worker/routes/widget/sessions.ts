import { Hono } from "hono";
import { createWidgetSessionBody, widget, widgetMessages } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError, unauthorized } from "../../http/errors";
import { checkSessionProof, proofNeededError } from "../../services/widget/bot-defence";
import { reachAssistantHub } from "../../widget/get-assistant-hub";
import { keyHeader, readBody, widgetCaller } from "./caller";

/**
 * A visitor's conversation: start or resume it, and read it back after a reload. The key's
 * assistant comes from D1 (one read); the session lives in the assistant's own object.
 */
export const widgetSessionRoutes = new Hono<AppEnv>()
  /**
   * POST /sessions { visitorSessionId?, referrer, locale, proof? } → 201 new | 200 resumed: { sessionId, messages, remaining }.
   * Resumes `visitorSessionId` when it is an open session of this assistant; only a new session
   * counts against the per-IP throttle (429), and only a new one may need a proof-of-work (issue
   * 13, worker/widget/README.md "Bot defence"): 428 CHALLENGE_REQUIRED with `challenge` when none
   * came, 403 with a fresh `challenge` when the one that came was refused.
   */
  .post("/sessions", async (c) => {
    const caller = await widgetCaller(c, keyHeader(c));
    const body = await readBody(c, createWidgetSessionBody);
    const ip = clientIp(c);
    const target = { assistantId: caller.assistant.id, address: ip };
    const proof = await checkSessionProof(c.env, body.proof, { ...target, requestId: c.get("requestId") });
    const started = await reachAssistantHub(c.env, caller.assistant.id, widgetMessages.assistantUnreachable).startSession({
      assistantId: caller.assistant.id,
      visitorSessionId: body.visitorSessionId,
      referrer: body.referrer,
      // The widget sends navigator.language; the browser's first Accept-Language is the fallback.
      locale: body.locale || (c.req.header("accept-language")?.split(",")[0]?.split(";")[0]?.trim().slice(0, widget.maxLocaleChars) ?? ""),
      origin: caller.origin,
      userAgent: c.req.header("user-agent") ?? "",
      ip,
      proof,
    });
    // Deleted between the D1 read and the hub: refused as the D1 read would have.
    if (!started.ok && "unavailable" in started) throw unauthorized(widgetMessages.unavailable);
    // A proof-of-work is needed (428) or the one sent was refused (403): either way with a fresh challenge.
    if (!started.ok && "proof" in started) throw await proofNeededError(c.env, { ...target, ...started.proof });
    if (!started.ok) throw new AppError("RATE_LIMITED", widgetMessages.tooManySessions, { retryAfter: started.retryAfter });
    c.header("cache-control", "no-store");
    return c.json(started.session, started.created ? 201 : 200);
  })
  /** GET /sessions/:id → { sessionId, messages, remaining }; another assistant's or an unknown session is a 404. */
  .get("/sessions/:id", async (c) => {
    const { assistant } = await widgetCaller(c, keyHeader(c));
    const session = await reachAssistantHub(c.env, assistant.id, widgetMessages.assistantUnreachable).getSession({ assistantId: assistant.id, sessionId: c.req.param("id") });
    if (!session) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    c.header("cache-control", "no-store");
    return c.json(session);
  });
