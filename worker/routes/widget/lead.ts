import { Hono } from "hono";
import { leadSubmitBody } from "../../../contract";
import { clientIp } from "../../http/client-ip";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { submitLead } from "../../services/leads/submit-lead";
import { keyHeader, readBody, widgetCaller } from "./caller";
import { visitorTokenHeader } from "./sessions";

/**
 * A visitor leaves their details (contract/schemas/leads.ts): authorised as every widget session
 * call (publishable key and Origin, the session this assistant's, a signed visitor's token).
 * POST /sessions/:id/lead { fields, trigger? } → 201 { lead: { id, createdAt } }.
 */
export const widgetLeadRoutes = new Hono<AppEnv>().post("/sessions/:id/lead", async (c) => {
  const { assistant } = await widgetCaller(c, keyHeader(c));
  const body = await readBody(c, leadSubmitBody);
  const answer = await submitLead({
    ctx: serviceContext(c),
    input: {
      assistantId: assistant.id,
      sessionId: c.req.param("id"),
      fields: body.fields,
      trigger: body.trigger,
      visitorToken: visitorTokenHeader(c),
      ip: clientIp(c),
      appOrigin: new URL(c.req.url).origin,
    },
  });
  c.header("cache-control", "no-store");
  return c.json(answer, 201);
});
