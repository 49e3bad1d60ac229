import { Hono } from "hono";
import { capRequestBody } from "../http/body-limit";
import type { AppEnv } from "../http/context";
import { authRoutes } from "./auth";
import { budgetRoutes } from "./budgets";
import { chatAttachmentRoutes } from "./chat-attachments";
import { chatFrameRoutes } from "./chat-frames";
import { configRoutes } from "./config";
import { devRoutes } from "./dev";
import { healthRoutes } from "./health";
import { inboxRoutes } from "./inbox";
import { chatRoutes } from "./chats";
import { modelRoutes, settingsRoutes } from "./models";
import { projectRoutes } from "./projects";
import { publicAssistantRoutes } from "./public-assistants";
import { teamRoutes } from "./team";
import { v1Routes } from "./v1";
import { widgetRoutes } from "./widget";

/** Every /api route, one sub-app per resource folder. */
export function apiRoutes() {
  const api = new Hono<AppEnv>();
  // Before any route reads a body: every JSON body has a cap (contract requestBodyLimits).
  api.use("*", capRequestBody);
  api.route("/", healthRoutes());
  api.route("/auth", authRoutes());
  api.route("/", configRoutes());
  api.route("/", devRoutes());
  api.route("/chats", chatRoutes());
  api.route("/chat", chatAttachmentRoutes());
  api.route("/chat", chatFrameRoutes());
  api.route("/projects", projectRoutes());
  api.route("/public-assistants", publicAssistantRoutes());
  api.route("/budgets", budgetRoutes());
  api.route("/inbox", inboxRoutes());
  api.route("/team", teamRoutes());
  api.route("/models", modelRoutes());
  api.route("/settings", settingsRoutes());
  api.route("/widget", widgetRoutes());
  api.route("/v1", v1Routes());
  return api;
}
