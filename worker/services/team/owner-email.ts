/**
 * The address of a workspace's owner, for the e-mails its assistants send "to the owner" (a new
 * lead, a visitor asking for a person, a webhook turned off, a budget reached). The owner is
 * `workspaces.owner_id` when the workspace has a row (renamed or transferred), else the user
 * whose id is the workspace's (an assistant's `user_id`): after a transfer the e-mails follow the
 * new owner, never the former one (who may have left, or be a deleted account's tombstone).
 * One D1 query; null when the owner's account is gone.
 */
export async function workspaceOwnerEmail(db: D1Database, workspaceId: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT u.email AS email FROM (SELECT ?1 AS id) AS x
       LEFT JOIN workspaces w ON w.id = x.id
       JOIN users u ON u.id = coalesce(w.owner_id, x.id)`,
    )
    .bind(workspaceId)
    .first<{ email: string }>();
  return row?.email ?? null;
}
