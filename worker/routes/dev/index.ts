import { Hono } from "hono";
import { outboxQuery, type outboxResponse } from "../../../contract";
import type { z } from "zod";
import { isLocal } from "../../env";
import type { AppEnv } from "../../http/context";
import { notFound } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { queryParams } from "../../http/validate";
import { listOutboxEmails } from "../../services/email/list-outbox-emails";

/** /api/dev: local-mode tools. Anywhere else they answer 404, exactly like a path that does not exist. */
export function devRoutes() {
  return new Hono<AppEnv>().get(
    "/dev/outbox",
    async (c, next) => {
      if (!isLocal(c.env)) throw notFound();
      await next();
    },
    queryParams(outboxQuery),
    async (c) => {
      const body: z.infer<typeof outboxResponse> = {
        emails: await listOutboxEmails({ ctx: serviceContext(c), input: c.req.valid("query") }),
      };
      return c.json(body);
    },
  );
}
