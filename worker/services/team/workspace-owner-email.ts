/**
 * The address of a workspace's owner today: the `workspaces` row's owner once ownership was
 * transferred, else the user whose id is the workspace's. Null when there is nobody to write to
 * (the account is gone, or is a tombstone with no address). One D1 query, off any visitor's path:
 * the owner's e-mails (a visitor asking for a person, a new lead, a budget notice, a webhook
 * turned off) read it when they are sent.
 */
export async function workspaceOwnerEmail(db: D1Database, workspaceId: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT email FROM users WHERE id = coalesce((SELECT owner_id FROM workspaces WHERE id = ?1), ?1)")
    .bind(workspaceId)
    .first<{ email: string }>();
  return row?.email ? row.email : null;
}
