import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { accountRoutes } from "./account";
import { codeRoutes } from "./codes";
import { deleteAccountRoutes } from "./delete-account";
import { googleRoutes } from "./google";
import { sessionRoutes } from "./session";

/** /api/auth: every account endpoint of spec section 7. */
export function authRoutes() {
  return new Hono<AppEnv>()
    .route("/", sessionRoutes)
    .route("/", codeRoutes)
    .route("/", googleRoutes)
    .route("/", accountRoutes)
    .route("/", deleteAccountRoutes);
}
