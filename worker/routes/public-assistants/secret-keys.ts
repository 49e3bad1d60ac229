import { Hono } from "hono";
import { createSecretKeyBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { createSecretKey } from "../../services/secret-keys/create-secret-key";
import { listSecretKeys } from "../../services/secret-keys/list-secret-keys";
import { revokeSecretKey } from "../../services/secret-keys/revoke-secret-key";

/** An assistant's secret keys (`tala_sk_…`, for servers and /api/v1): list, create (value shown once), revoke. */
export const secretKeyRoutes = new Hono<AppEnv>()
  /** GET /:id/secret-keys → { secretKeys: [{ id, name, masked, createdAt, lastUsedAt }] }, keys in use, newest first. */
  .get("/:id/secret-keys", async (c) => {
    const secretKeys = await listSecretKeys({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    c.header("cache-control", "no-store");
    return c.json({ secretKeys });
  })
  /** POST /:id/secret-keys { name } → 201 { secretKey, key }: the only answer that carries the key. 409 past the cap. */
  .post("/:id/secret-keys", jsonBody(createSecretKeyBody), async (c) => {
    const created = await createSecretKey({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), name: c.req.valid("json").name },
    });
    c.header("cache-control", "no-store");
    return c.json(created, 201);
  })
  /** DELETE /:id/secret-keys/:keyId → 204; the key is refused from the next request. */
  .delete("/:id/secret-keys/:keyId", async (c) => {
    await revokeSecretKey({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), keyId: c.req.param("keyId") } });
    return c.body(null, 204);
  });
