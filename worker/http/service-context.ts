import type { Context } from "hono";
import type { ServiceContext } from "../services/context";
import type { AppEnv } from "./context";

/** The services' view of a request: bindings and the request's db client, nothing from Hono. */
export const serviceContext = (c: Context<AppEnv>): ServiceContext => ({ env: c.env, db: c.var.db });
