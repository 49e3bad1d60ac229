import { isGone } from "../../assistant/gone";
import { Hono, type Context } from "hono";
import { createWidgetSessionBody, stripUnsafeText, visitorIdentity, visitorIdentityMessages, widget, widgetMessages } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { AppError, unauthorized } from "../../http/errors";
import { checkSessionProof, proofNeededError } from "../../services/widget/bot-defence";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { keyHeader, readBody, widgetCaller } from "./caller";

/**
 * A visitor's conversation: start or resume it, and read it back after a reload. The key's
 * assistant comes from D1 (one read); the session lives in the assistant's own object.
 */
export const widgetSessionRoutes = new Hono<AppEnv>()
  /**
   * POST /sessions { visitorSessionId?, referrer, locale, userToken?, proof? } → 201 new | 200 resumed: { sessionId, messages, remaining, visitor? }.
   * Resumes `visitorSessionId` when it is an open session of this assistant and of the same
   * caller (anonymous, or the same verified visitor); only a new session counts against
   * the per-IP throttle (429), and only a new one may need a proof-of-work
   * (worker/widget/README.md "Bot defence"): 428 CHALLENGE_REQUIRED with `challenge` when none
   * came, 403 with a fresh `challenge` when the one that came was refused. A `userToken` that does
   * not verify is a 401, never anonymous.
   */
  .post("/sessions", async (c) => {
    const caller = await widgetCaller(c, keyHeader(c));
    const body = await readBody(c, createWidgetSessionBody).catch((error: unknown) => {
      // A malformed token is refused as any token that does not verify: 401, not a form error.
      const tokenError = error instanceof AppError ? error.extra.fields?.userToken : undefined;
      throw tokenError ? unauthorized(tokenError) : error;
    });
    const ip = clientIp(c);
    const target = { assistantId: caller.assistant.id, address: ip };
    const proof = await checkSessionProof(c.env, body.proof, { ...target, requestId: c.get("requestId") });
    const started = await reachAssistantHub(c.env, caller.assistant.id, widgetMessages.assistantUnreachable).visitors().start({
      visitorSessionId: body.visitorSessionId,
      referrer: body.referrer,
      // The widget sends navigator.language; the browser's first Accept-Language is the fallback.
      locale: body.locale || stripUnsafeText(c.req.header("accept-language")?.split(",")[0]?.split(";")[0]?.trim().slice(0, widget.maxLocaleChars) ?? ""),
      origin: caller.origin,
      // Shown to the owner: cleaned as the body's texts are (a header can carry C1 controls).
      userAgent: stripUnsafeText(c.req.header("user-agent") ?? ""),
      ip,
      proof,
      userToken: body.userToken,
    });
    // Deleted between the D1 read and the hub: refused as the D1 read would have.
    if (isGone(started)) throw unauthorized(widgetMessages.unavailable);
    if (!started.ok && "identity" in started) throw unauthorized(started.identity);
    // A proof-of-work is needed (428) or the one sent was refused (403): either way with a fresh challenge.
    if (!started.ok && "proof" in started) throw await proofNeededError(c.env, { ...target, ...started.proof });
    if (!started.ok) throw new AppError("RATE_LIMITED", widgetMessages.tooManySessions, { retryAfter: started.retryAfter });
    c.header("cache-control", "no-store");
    return c.json(started.session, started.created ? 201 : 200);
  })
  /**
   * GET /sessions/:id → { sessionId, messages, remaining, visitor? }; another assistant's or an
   * unknown session is a 404; a verified visitor's needs X-Visitor-Token of that visitor (401).
   */
  .get("/sessions/:id", async (c) => {
    const { assistant } = await widgetCaller(c, keyHeader(c));
    const found = await reachAssistantHub(c.env, assistant.id, widgetMessages.assistantUnreachable).visitors().get({
      sessionId: c.req.param("id"),
      visitorToken: visitorTokenHeader(c),
    });
    if (isGone(found)) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    if (!found.ok && "identity" in found) throw unauthorized(found.identity);
    if (!found.ok) throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    c.header("cache-control", "no-store");
    return c.json(found.value);
  })
  /**
   * GET /conversations + X-Visitor-Token → { visitor, conversations }: a verified visitor's open
   * conversations on this assistant (from any device), newest first. Without a token,
   * or with one that does not verify, 401 with the reason. No per-IP throttle, as the other
   * widget reads: a token cannot be guessed (HMAC), and the list is one indexed query.
   */
  .get("/conversations", async (c) => {
    const caller = await widgetCaller(c, keyHeader(c));
    const token = visitorTokenHeader(c);
    if (!token) throw unauthorized(visitorIdentityMessages.tokenRequired);
    const listed = await reachAssistantHub(c.env, caller.assistant.id, widgetMessages.assistantUnreachable).visitors().conversations({
      visitorToken: token,
    });
    if (isGone(listed)) throw unauthorized(widgetMessages.unavailable);
    if (!listed.ok && "identity" in listed) throw unauthorized(listed.identity);
    if (!listed.ok) throw unauthorized(widgetMessages.unavailable);
    c.header("cache-control", "no-store");
    return c.json(listed.value);
  });

/** The visitor's token of a widget call (X-Visitor-Token), bounded; undefined when absent. */
export function visitorTokenHeader(c: Context<AppEnv>): string | undefined {
  const value = c.req.header(visitorIdentity.tokenHeader)?.trim();
  // Longer than any token: passed on as is, the verifier refuses it without decoding.
  return value ? value.slice(0, visitorIdentity.maxTokenChars + 1) : undefined;
}
