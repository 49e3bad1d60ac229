import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import {
  contractErrorMap,
  errorCodes,
  errorStatus,
  requestMessages,
  serverMessages,
  type ErrorBody,
  type ErrorCode,
} from "../contract";
import { dbOf } from "./db/client";
import { allowedMethods } from "./http/allowed-methods";
import { AppError } from "./http/errors";
import type { AppEnv } from "./http/context";
import { apiRoutes } from "./routes";
import { partyRoutes } from "./routes/parties";
import { widgetCors } from "./routes/widget/cors";
import { widgetSocketRoutes } from "./routes/widget/socket";
import { serveStatic } from "./static";
import { isLocal } from "./env";
import { apiHeaders, baseSecurityHeaders, hstsValue } from "./http/security-headers";

/**
 * Every answer the Worker gives gets the base security headers; an answer without its own CSP (the
 * API's JSON, redirects, errors) gets the API's `default-src 'none'`: the dashboard shell and
 * uploaded files set theirs. HSTS only over https outside local mode. A WebSocket upgrade (101)
 * has no document to protect and its response must stay untouched.
 */
function applySecurityHeaders(c: Context<AppEnv>) {
  if (c.res.status === 101) return;
  for (const [name, value] of Object.entries(baseSecurityHeaders)) c.header(name, value);
  if (!isLocal(c.env) && new URL(c.req.url).protocol === "https:") c.header("strict-transport-security", hstsValue);
  if (!c.res.headers.has("content-security-policy")) {
    for (const [name, value] of Object.entries(apiHeaders)) c.header(name, value);
  }
}

// Every zod issue without a message of its own gets a contract sentence naming the field and the
// limit (contract/validation.ts) instead of zod's default text, wherever the Worker parses.
z.config({ customError: contractErrorMap });

/** Builds the Worker's Hono app: request ids, logging, the error envelope, /api and the static fallback. */
export function createApp() {
  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("db", dbOf(c.env.DB));
    const started = Date.now();
    await next();
    c.header("x-request-id", requestId);
    applySecurityHeaders(c);
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
    // get the envelope, with a contract sentence instead of the framework's text.
    if (err instanceof HTTPException && err.status < 500) {
      const code: ErrorCode = errorCodes.find((k) => errorStatus[k] === err.status) ?? "VALIDATION_ERROR";
      const message = { 404: serverMessages.notFound, 413: requestMessages.tooLarge }[err.status as number] ?? requestMessages.unreadable;
      const body: ErrorBody = { error: message, code, requestId };
      return c.json(body, err.status);
    }
    // Unknown errors never reach the client: log them with the request id, answer a generic 500.
    console.error(JSON.stringify({ requestId, error: String(err), stack: err instanceof Error ? err.stack : undefined }));
    const body: ErrorBody = { error: serverMessages.internal, code: "INTERNAL_ERROR", requestId };
    return c.json(body, errorStatus.INTERNAL_ERROR as 500);
  });

  app.route("/api", apiRoutes());
  // A path that exists with other methods is a 405 naming them (Allow); one that exists with none, a 404.
  app.all("/api/*", (c) => {
    const requestId = c.get("requestId");
    const allowed = allowedMethods(app, c.req.path, "/api/", widgetCors);
    if (allowed.length && !allowed.includes(c.req.method)) {
      c.header("allow", allowed.join(", "));
      const body: ErrorBody = { error: serverMessages.methodNotAllowed(c.req.method, allowed), code: "METHOD_NOT_ALLOWED", requestId };
      return c.json(body, 405);
    }
    const body: ErrorBody = { error: serverMessages.notFound, code: "NOT_FOUND", requestId };
    return c.json(body, 404);
  });
  app.route("/parties/widget", widgetSocketRoutes());
  app.route("/parties", partyRoutes());
  app.get("*", serveStatic);
  app.all("*", (c) => c.redirect("/", 302));
  return app;
}
