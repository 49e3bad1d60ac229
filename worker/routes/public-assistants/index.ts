import { Hono } from "hono";
import { requireUser } from "../../http/auth";
import { teamGuard } from "../../http/team-guard";
import type { AppEnv } from "../../http/context";
import { apiKeyRoutes } from "./api-key";
import { chatRoutes } from "./chats";
import { createPublicAssistantRoute } from "./create";
import { deletePublicAssistantRoute } from "./delete";
import { fileRoutes } from "./files";
import { firstHourRoutes } from "./first-hour";
import { identitySecretRoutes } from "./identity-secret";
import { inboxRoutes } from "./inbox";
import { insightsRoute } from "./insights";
import { leadRoutes } from "./leads";
import { listPublicAssistantsRoute } from "./list";
import { playgroundRoute } from "./playground";
import { privacyRoutes } from "./privacy";
import { qaRoutes } from "./qa";
import { searchRoute } from "./search";
import { secretKeyRoutes } from "./secret-keys";
import { sourceRoutes } from "./sources";
import { textRoutes } from "./texts";
import { updatePublicAssistantRoute } from "./update";
import { webhookRoutes } from "./webhooks";

/**
 * /api/public-assistants: a workspace's embeddable assistants, their knowledge files, API keys (the
 * snippet's publishable key; secret keys for servers), visitor history and signed webhooks. Signed-in users only;
 * the team guard checks the caller's role in the assistant's workspace (http/route-permissions.ts):
 * a stranger gets 404 (another workspace's assistant, file or session), a role without the route's
 * permission 403.
 */
export function publicAssistantRoutes() {
  return new Hono<AppEnv>()
    .use("*", requireUser, teamGuard)
    .route("/", listPublicAssistantsRoute)
    .route("/", createPublicAssistantRoute)
    .route("/", updatePublicAssistantRoute)
    .route("/", deletePublicAssistantRoute)
    .route("/", apiKeyRoutes)
    .route("/", secretKeyRoutes)
    .route("/", identitySecretRoutes)
    .route("/", fileRoutes)
    .route("/", textRoutes)
    .route("/", searchRoute)
    .route("/", sourceRoutes)
    .route("/", chatRoutes)
    .route("/", inboxRoutes)
    .route("/", playgroundRoute)
    .route("/", insightsRoute)
    .route("/", qaRoutes)
    .route("/", leadRoutes)
    .route("/", webhookRoutes)
    .route("/", privacyRoutes)
    .route("/", firstHourRoutes);
}
