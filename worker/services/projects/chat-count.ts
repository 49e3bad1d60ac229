import { sql } from "drizzle-orm";

/**
 * Correlated count of a project's chats, for a select over `projects`. Written with qualified
 * names: drizzle renders `${column}` unqualified in a one-table select, and an unqualified `id`
 * inside the subquery would mean chats.id.
 */
export const chatCountColumn = sql<number>`(SELECT count(*) FROM "chats" WHERE "chats"."project_id" = "projects"."id")`.mapWith(Number);
