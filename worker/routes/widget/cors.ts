import type { Context, MiddlewareHandler } from "hono";
import { visitorIdentity, widget } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { OriginNotAllowedError } from "../../services/widget/authorize-widget-call";

const ALLOW_HEADERS = ["content-type", widget.keyHeader.toLowerCase(), visitorIdentity.tokenHeader.toLowerCase(), "authorization", "x-request-id"].join(", ");
const EXPOSE_HEADERS = "x-request-id, retry-after";

/** Requests whose Origin the assistant refused: their response does not reflect it. */
const refused = new WeakSet<Request>();

/** Notes that this request's Origin was refused (the route is about to answer 403). */
export function refuseCors(c: Context, error: unknown) {
  if (error instanceof OriginNotAllowedError) refuseCorsOrigin(c);
}

/** Notes that this request's Origin was refused, for a route that learnt it from a service's result rather than an error. */
export function refuseCorsOrigin(c: Context) {
  refused.add(c.req.raw);
}

/**
 * CORS for /api/widget/* and /api/v1/*: pages on other sites call these with `fetch`, without
 * cookies (no Allow-Credentials). A preflight cannot carry the key's value, so it is answered for
 * any Origin; the call itself is checked against the assistant's allowlist by the route, and its
 * response reflects the Origin unless the allowlist refused it. `vary: origin` on every response.
 */
export const widgetCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (c.req.method === "OPTIONS") {
    const headers = new Headers({
      vary: "origin",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "600",
    });
    if (origin) headers.set("access-control-allow-origin", origin);
    return new Response(null, { status: 204, headers });
  }
  await next();
  c.header("vary", "origin", { append: true });
  if (origin && !refused.has(c.req.raw)) {
    c.header("access-control-allow-origin", origin);
    c.header("access-control-expose-headers", EXPOSE_HEADERS);
  }
};
