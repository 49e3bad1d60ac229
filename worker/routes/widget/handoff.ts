import { Hono } from "hono";
import { widgetHandoffBody } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { cancelHandoff, requestHandoff } from "../../services/handoff/visitor-handoff";
import { keyHeader, readBody, widgetCaller } from "./caller";
import { visitorTokenHeader } from "./sessions";

/**
 * A visitor asks for a person (contract/schemas/handoff.ts): authorised as every widget session
 * call (publishable key and Origin, the session this assistant's, a signed visitor's token).
 * POST /sessions/:id/handoff { email? } → 202 { handoff }; DELETE the same → 202 { handoff }.
 */
export const widgetHandoffRoutes = new Hono<AppEnv>()
  .post("/sessions/:id/handoff", async (c) => {
    const { assistant } = await widgetCaller(c, keyHeader(c));
    const body = await readBody(c, widgetHandoffBody);
    const answer = await requestHandoff({
      ctx: serviceContext(c),
      input: { assistantId: assistant.id, sessionId: c.req.param("id"), email: body.email, visitorToken: visitorTokenHeader(c), ip: clientIp(c), appOrigin: new URL(c.req.url).origin },
    });
    c.header("cache-control", "no-store");
    return c.json(answer, 202);
  })
  .delete("/sessions/:id/handoff", async (c) => {
    const { assistant } = await widgetCaller(c, keyHeader(c));
    const answer = await cancelHandoff({ ctx: serviceContext(c), input: { assistantId: assistant.id, sessionId: c.req.param("id"), visitorToken: visitorTokenHeader(c) } });
    c.header("cache-control", "no-store");
    return c.json(answer, 202);
  });
