import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

const ROUTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface RoutedHandler {
  method: string;
  path: string;
}

/**
 * The methods `app` answers at `path` under `prefix`, asked of its own router, for a 405's
 * `Allow`: each method some route of its own has there (catch-alls such as `prefix*` and
 * middleware do not count), HEAD with GET, and OPTIONS when `preflight` (a middleware) answers
 * it there. Empty: no route has the path, whatever the method (a 404).
 */
export function allowedMethods(app: Hono<AppEnv>, path: string, prefix: string, preflight?: MiddlewareHandler<AppEnv>): string[] {
  const routesAt = (method: string) => {
    const [matches] = app.router.match(method, path);
    return matches.map(([[handler, route]]) => ({ handler: handler as unknown, route: route as RoutedHandler }));
  };
  const routed = (method: string) => routesAt(method).some(({ route }) => route.method === method && route.path.startsWith(prefix) && route.path !== `${prefix}*`);
  const allowed: string[] = ROUTED_METHODS.filter(routed);
  if (!allowed.length) return [];
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  if (preflight && routesAt("OPTIONS").some(({ handler }) => handler === preflight)) allowed.push("OPTIONS");
  return allowed;
}
