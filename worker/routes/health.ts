import { Hono } from "hono";
import type { AppEnv } from "../http/context";

export function healthRoutes() {
  return new Hono<AppEnv>().get("/health", async (c) => {
    let database = "ok";
    try {
      await c.env.DB.prepare("select 1").first();
    } catch {
      database = "unavailable";
    }
    return c.json({ status: database === "ok" ? "ok" : "degraded", database, time: Date.now() }, database === "ok" ? 200 : 503);
  });
}
