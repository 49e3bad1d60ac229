import type { TeamPermission } from "../../contract";

/** Any member of the workspace, whatever their role (the team's own page, the switcher). */
export const anyMember = "member" as const;
/** A signed-in user acting in no workspace yet (accepting an invitation). */
export const signedInOnly = "signed-in" as const;

/**
 * What a route needs: a permission of `teamPermissions` in the workspace it acts in, any
 * membership, or only a signed-in user. `selfParam`: the permission is not needed when that path
 * parameter is the caller's own user id (a member leaving).
 */
export type RouteRule =
  | TeamPermission
  | typeof anyMember
  | typeof signedInOnly
  | { permission: TeamPermission; selfParam: string };

const pa = "/api/public-assistants";

/**
 * The one table of every owner route: `METHOD path` (Hono's route path, as registered) → what it
 * needs. The guard (team-guard.ts) reads nothing else; a route missing here is refused with a 500
 * (tests/integration/authorization-matrix.test.ts lists the app's routes and fails on it).
 */
export const routePermissions: Readonly<Record<string, RouteRule>> = {
  // Assistants and their settings.
  [`GET ${pa}`]: "assistants.read",
  [`POST ${pa}`]: "assistants.manage",
  [`GET ${pa}/:id`]: "assistants.read",
  [`PUT ${pa}/:id`]: "assistants.manage",
  [`DELETE ${pa}/:id`]: "assistants.manage",
  [`GET ${pa}/:id/raw-api-key`]: "assistants.manage",
  [`POST ${pa}/:id/regenerate-key`]: "assistants.manage",
  [`GET ${pa}/:id/integration-code`]: "assistants.manage",
  [`GET ${pa}/:id/secret-keys`]: "assistants.manage",
  [`POST ${pa}/:id/secret-keys`]: "assistants.manage",
  [`DELETE ${pa}/:id/secret-keys/:keyId`]: "assistants.manage",
  [`GET ${pa}/:id/identity-secret`]: "assistants.manage",
  [`POST ${pa}/:id/identity-secret`]: "assistants.manage",
  [`DELETE ${pa}/:id/identity-secret/previous`]: "assistants.manage",
  [`PUT ${pa}/:id/avatar`]: "assistants.manage",
  [`DELETE ${pa}/:id/avatar`]: "assistants.manage",
  [`POST ${pa}/:id/onboarding`]: "assistants.manage",
  [`POST ${pa}/:id/playground`]: "assistants.manage",
  [`GET ${pa}/:id/lead-form`]: "assistants.read",
  [`PUT ${pa}/:id/lead-form`]: "assistants.manage",
  // Knowledge: files, texts, websites, search.
  [`POST ${pa}/:id/files`]: "assistants.manage",
  [`DELETE ${pa}/:id/files/:fileId`]: "assistants.manage",
  [`GET ${pa}/:id/files/:fileId/download`]: "assistants.read",
  [`POST ${pa}/:id/texts`]: "assistants.manage",
  [`GET ${pa}/:id/texts/:fileId`]: "assistants.read",
  [`PUT ${pa}/:id/texts/:fileId`]: "assistants.manage",
  [`GET ${pa}/:id/search`]: "assistants.read",
  [`GET ${pa}/:id/sources`]: "assistants.read",
  [`POST ${pa}/:id/sources`]: "assistants.manage",
  [`PATCH ${pa}/:id/sources/:sourceId`]: "assistants.manage",
  [`GET ${pa}/:id/sources/:sourceId/pages`]: "assistants.read",
  [`POST ${pa}/:id/sources/:sourceId/sync`]: "assistants.manage",
  [`DELETE ${pa}/:id/sources/:sourceId`]: "assistants.manage",
  // Webhooks (deliveries carry visitors' messages).
  [`GET ${pa}/:id/webhooks`]: "assistants.manage",
  [`POST ${pa}/:id/webhooks`]: "assistants.manage",
  [`PATCH ${pa}/:id/webhooks/:webhookId`]: "assistants.manage",
  [`DELETE ${pa}/:id/webhooks/:webhookId`]: "assistants.manage",
  [`POST ${pa}/:id/webhooks/:webhookId/test`]: "assistants.manage",
  [`GET ${pa}/:id/webhooks/:webhookId/deliveries`]: "assistants.manage",
  [`POST ${pa}/:id/webhooks/:webhookId/deliveries/:deliveryId/resend`]: "assistants.manage",
  [`POST ${pa}/:id/webhooks/:webhookId/rotate-secret`]: "assistants.manage",
  // History, Insights, Leads.
  [`GET ${pa}/:id/chats`]: "history.read",
  [`GET ${pa}/:id/chats/export`]: "history.read",
  [`GET ${pa}/:id/chats/debug`]: "history.read",
  [`GET ${pa}/:id/chats/:sessionId`]: "history.read",
  [`GET ${pa}/:id/insights`]: "insights.read",
  [`GET ${pa}/:id/leads`]: "leads.read",
  [`GET ${pa}/:id/leads/export`]: "leads.read",
  // The inbox: a person taking over.
  [`GET ${pa}/:id/inbox`]: "inbox.reply",
  [`POST ${pa}/:id/inbox/watch`]: "inbox.reply",
  [`POST ${pa}/:id/chats/:sessionId/takeover`]: "inbox.reply",
  [`DELETE ${pa}/:id/chats/:sessionId/takeover`]: "inbox.reply",
  [`POST ${pa}/:id/chats/:sessionId/messages`]: "inbox.reply",
  [`POST ${pa}/:id/chats/:sessionId/typing`]: "inbox.reply",
  [`POST ${pa}/:id/chats/:sessionId/read`]: "inbox.reply",
  // Curated answers.
  [`GET ${pa}/:id/qa`]: "assistants.read",
  [`GET ${pa}/:id/qa/export`]: "assistants.read",
  [`GET ${pa}/:id/qa/:qaId`]: "assistants.read",
  [`POST ${pa}/:id/qa`]: "qa.manage",
  [`POST ${pa}/:id/qa/import`]: "qa.manage",
  [`PATCH ${pa}/:id/qa/:qaId`]: "qa.manage",
  [`DELETE ${pa}/:id/qa/:qaId`]: "qa.manage",
  // Visitors' data (contract/schemas/privacy.ts).
  [`DELETE ${pa}/:id/chats/:sessionId`]: "privacy.manage",
  [`DELETE ${pa}/:id/visitors/:visitorId`]: "privacy.manage",
  [`GET ${pa}/:id/visitors/:visitorId/export`]: "privacy.manage",
  // Across a workspace's assistants.
  "GET /api/budgets": "assistants.read",
  "PUT /api/budgets": "assistants.manage",
  "GET /api/inbox/summary": "inbox.reply",
  // The team.
  "GET /api/team": anyMember,
  "PATCH /api/team": "team.admins",
  "POST /api/team/invitations": "team.manage",
  "DELETE /api/team/invitations/:invitationId": "team.manage",
  "POST /api/team/invitations/accept": signedInOnly,
  "PATCH /api/team/members/:userId": "team.manage",
  "DELETE /api/team/members/:userId": { permission: "team.manage", selfParam: "userId" },
  "POST /api/team/transfer": "team.admins",
  "GET /api/team/audit": "audit.read",
};

/** The route prefixes the guard sits on (and the authorization matrix walks). */
export const guardedPrefixes = [pa, "/api/team", "/api/budgets", "/api/inbox"] as const;
