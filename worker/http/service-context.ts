import type { Context } from "hono";
import type { ServiceContext } from "../services/context";
import type { AppEnv } from "./context";

/** The request's `waitUntil`, or undefined where Hono has no execution context (it throws on access then). */
function waitUntilOf(c: Context<AppEnv>): ServiceContext["waitUntil"] {
  let executionCtx: Context<AppEnv>["executionCtx"];
  try {
    executionCtx = c.executionCtx;
  } catch {
    return undefined;
  }
  return (promise) => executionCtx.waitUntil(promise);
}

/** The services' view of a request: bindings, the request's db client and its `waitUntil`, nothing from Hono. */
export const serviceContext = (c: Context<AppEnv>): ServiceContext => ({ env: c.env, db: c.var.db, waitUntil: waitUntilOf(c), access: c.var.access });
