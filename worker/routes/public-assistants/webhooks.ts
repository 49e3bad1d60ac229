import { Hono } from "hono";
import { webhookCreateBody, webhookPatchBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { createWebhook } from "../../services/webhooks/create-webhook";
import { deleteWebhook } from "../../services/webhooks/delete-webhook";
import { listDeliveries } from "../../services/webhooks/list-deliveries";
import { listWebhooks } from "../../services/webhooks/list-webhooks";
import { resendDelivery } from "../../services/webhooks/resend-delivery";
import { rotateWebhookSecret } from "../../services/webhooks/rotate-webhook-secret";
import { testWebhook } from "../../services/webhooks/test-webhook";
import { updateWebhook } from "../../services/webhooks/update-webhook";

/**
 * An assistant's signed webhooks (contract/schemas/webhooks.ts): endpoints, a test event, the
 * deliveries and their resend, the secret's rotation. A secret is in the create and rotate
 * answers only (no-store); another owner's assistant or webhook is a 404.
 */
export const webhookRoutes = new Hono<AppEnv>()
  /** GET /:id/webhooks → { webhooks, events } */
  .get("/:id/webhooks", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await listWebhooks({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } }));
  })
  /** POST /:id/webhooks webhookCreateBody → 201 { webhook, secret } */
  .post("/:id/webhooks", jsonBody(webhookCreateBody), async (c) => {
    const created = await createWebhook({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), body: c.req.valid("json"), appOrigin: new URL(c.req.url).origin },
    });
    c.header("cache-control", "private, no-store");
    return c.json(created, 201);
  })
  /** PATCH /:id/webhooks/:webhookId webhookPatchBody → { webhook } */
  .patch("/:id/webhooks/:webhookId", jsonBody(webhookPatchBody), async (c) => {
    const input = { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId"), patch: c.req.valid("json"), appOrigin: new URL(c.req.url).origin };
    return c.json(await updateWebhook({ ctx: serviceContext(c), input }));
  })
  /** DELETE /:id/webhooks/:webhookId → 204 */
  .delete("/:id/webhooks/:webhookId", async (c) => {
    await deleteWebhook({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId") } });
    return c.body(null, 204);
  })
  /** POST /:id/webhooks/:webhookId/test → 202 { delivery } */
  .post("/:id/webhooks/:webhookId/test", async (c) => {
    return c.json(await testWebhook({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId") } }), 202);
  })
  /** GET /:id/webhooks/:webhookId/deliveries → { deliveries } newest first */
  .get("/:id/webhooks/:webhookId/deliveries", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await listDeliveries({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId") } }));
  })
  /** POST /:id/webhooks/:webhookId/deliveries/:deliveryId/resend → 202 { delivery } */
  .post("/:id/webhooks/:webhookId/deliveries/:deliveryId/resend", async (c) => {
    const input = { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId"), deliveryId: c.req.param("deliveryId") };
    return c.json(await resendDelivery({ ctx: serviceContext(c), input }), 202);
  })
  /** POST /:id/webhooks/:webhookId/rotate-secret → { secret } */
  .post("/:id/webhooks/:webhookId/rotate-secret", async (c) => {
    c.header("cache-control", "private, no-store");
    return c.json(await rotateWebhookSecret({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), webhookId: c.req.param("webhookId") } }));
  });
