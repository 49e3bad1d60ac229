import { Hono } from "hono";
import { rotateIdentitySecretBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { endIdentitySecretGrace, getIdentitySecret, rotateIdentitySecret } from "../../services/visitor-identity/identity-secret";

/** The assistant's visitor identity secret (contract/schemas/visitors.ts): status, create/rotate (shown once), end the grace. */
export const identitySecretRoutes = new Hono<AppEnv>()
  /** GET /:id/identity-secret → identitySecretStatus { current, previous } (masked, never the secret). */
  .get("/:id/identity-secret", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await getIdentitySecret({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } }));
  })
  /** POST /:id/identity-secret { graceHours? } → 201 identitySecretCreated: the only answer carrying the secret. */
  .post("/:id/identity-secret", jsonBody(rotateIdentitySecretBody), async (c) => {
    const created = await rotateIdentitySecret({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), graceHours: c.req.valid("json").graceHours },
    });
    c.header("cache-control", "private, no-store");
    return c.json(created, 201);
  })
  /** DELETE /:id/identity-secret/previous → identitySecretStatus: the rotated-out secret stops now. */
  .delete("/:id/identity-secret/previous", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await endIdentitySecretGrace({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } }));
  });
