import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { widgetAvatarRoute } from "./avatar";
import { widgetConfigRoute } from "./config";
import { widgetCors } from "./cors";
import { widgetEventRoutes } from "./events";
import { widgetFeedbackRoute } from "./feedback";
import { widgetHandoffRoutes } from "./handoff";
import { widgetLeadRoutes } from "./lead";
import { widgetMessageRoutes } from "./messages";
import { widgetSessionRoutes } from "./sessions";

/**
 * /api/widget: the embeddable widget's HTTP API (contract/schemas/widget.ts), called from other
 * sites with the assistant's key in X-Assistant-Key. CORS on every route; no cookies.
 */
export function widgetRoutes() {
  return new Hono<AppEnv>()
    .use("*", widgetCors)
    .route("/", widgetConfigRoute)
    .route("/", widgetAvatarRoute)
    .route("/", widgetSessionRoutes)
    .route("/", widgetMessageRoutes)
    .route("/", widgetEventRoutes)
    .route("/", widgetFeedbackRoute)
    .route("/", widgetHandoffRoutes)
    .route("/", widgetLeadRoutes);
}
