import { Hono } from "hono";
import type { AppEnv } from "../http/context";
import { healthRoutes } from "./health";

/** Every /api route, one sub-app per resource folder. */
export function apiRoutes() {
  const api = new Hono<AppEnv>();
  api.route("/", healthRoutes());
  return api;
}
