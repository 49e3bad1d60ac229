import type { Db } from "../db/client";
import type { Env } from "../env";

/**
 * What every service receives as `ctx`: the bindings and the request's database client.
 * Built once per request by `serviceContext(c)` in worker/http/service-context.ts.
 */
export interface ServiceContext {
  env: Env;
  db: Db;
}
