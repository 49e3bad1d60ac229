import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { drizzle } from "drizzle-orm/d1";
import { errorCodes, errorStatus, serverMessages, type ErrorBody, type ErrorCode } from "../contract";
import * as schema from "./db/schema";
import { AppError } from "./http/errors";
import type { AppEnv } from "./http/context";
import { apiRoutes } from "./routes";
import { partyRoutes } from "./routes/parties";
import { widgetSocketRoutes } from "./routes/widget/socket";
import { serveStatic } from "./static";

/** Builds the Worker's Hono app: request ids, logging, the error envelope, /api and the static fallback. */
export function createApp() {
  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("db", drizzle(c.env.DB, { schema }));
    const started = Date.now();
    await next();
    c.header("x-request-id", requestId);
    if (c.req.path.startsWith("/api/")) {
      console.log(
        JSON.stringify({ requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started }),
      );
    }
  });

  app.onError((err, c) => {
    const requestId = c.get("requestId") ?? crypto.randomUUID();
    if (err instanceof AppError) {
      const body: ErrorBody = { error: err.message, code: err.code, requestId, ...err.extra };
      if (err.extra.retryAfter) c.header("retry-after", String(err.extra.retryAfter));
      return c.json(body, err.status as 400);
    }
    // Hono's own HTTP errors (a body over a limit, a malformed header…) keep their status and
    // get the envelope; their messages are Hono's fixed texts, safe to show.
    if (err instanceof HTTPException && err.status < 500) {
      const code: ErrorCode = errorCodes.find((k) => errorStatus[k] === err.status) ?? "VALIDATION_ERROR";
      const body: ErrorBody = { error: err.message || serverMessages.invalidInput, code, requestId };
      return c.json(body, err.status);
    }
    // Unknown errors never reach the client: log them with the request id, answer a generic 500.
    console.error(JSON.stringify({ requestId, error: String(err), stack: err instanceof Error ? err.stack : undefined }));
    const body: ErrorBody = { error: serverMessages.internal, code: "INTERNAL_ERROR", requestId };
    return c.json(body, errorStatus.INTERNAL_ERROR as 500);
  });

  app.route("/api", apiRoutes());
  app.all("/api/*", (c) => {
    const body: ErrorBody = { error: serverMessages.notFound, code: "NOT_FOUND", requestId: c.get("requestId") };
    return c.json(body, 404);
  });
  app.route("/parties/widget", widgetSocketRoutes());
  app.route("/parties", partyRoutes());
  app.get("*", serveStatic);
  app.all("*", (c) => c.redirect("/", 302));
  return app;
}
