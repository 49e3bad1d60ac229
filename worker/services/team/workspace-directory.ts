/**
 * Reads of a workspace shared by the team's verbs: its name and owner, its members, the
 * workspaces a user belongs to. A workspace's id is its first owner's user id; without a
 * `workspaces` row it is owned by that user and named after them (`defaultWorkspaceName`).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { teamLimits, teamMessages, type MemberRole, type TeamMember, type TeamRole, type Workspace } from "../../../contract";
import { users, workspaceMembers, workspaces } from "../../db/schema";
import type { ServiceContext } from "../context";

/** `defaultWorkspaceName` of an owner: their first name, else their e-mail. */
export const defaultNameOf = (owner: { firstName: string; email: string } | null | undefined) =>
  teamMessages.defaultWorkspaceName(owner?.firstName.trim() || owner?.email || "Tala");

export interface WorkspaceFacts {
  id: string;
  ownerId: string;
  /** The stored name, or the default from the owner's name. */
  name: string;
  /** True when a `workspaces` row exists (renamed or transferred). */
  stored: boolean;
}

/** The workspace's owner and name (one query). */
export async function workspaceFacts(ctx: ServiceContext, workspaceId: string): Promise<WorkspaceFacts> {
  const [row] = await ctx.db.all<{ ownerId: string | null; name: string | null; firstName: string | null; email: string | null }>(sql`
    SELECT w.owner_id AS ownerId, w.name AS name, u.first_name AS firstName, u.email AS email
    FROM (SELECT ${workspaceId} AS id) AS x
    LEFT JOIN ${workspaces} w ON w.id = x.id
    LEFT JOIN ${users} u ON u.id = coalesce(w.owner_id, x.id)`);
  const ownerId = row?.ownerId ?? workspaceId;
  const owner = row?.email != null ? { firstName: row.firstName ?? "", email: row.email } : null;
  return { id: workspaceId, ownerId, name: row?.name || defaultNameOf(owner), stored: row?.ownerId != null };
}

export const toWorkspace = (facts: WorkspaceFacts, role: TeamRole): Workspace => ({ id: facts.id, name: facts.name, ownerId: facts.ownerId, role });

const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

/** The owner first, then the members by when they joined (at most `maxMembers` + the owner). */
export async function listMembers(ctx: ServiceContext, facts: WorkspaceFacts): Promise<TeamMember[]> {
  const [owners, members] = await ctx.db.batch([
    ctx.db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, createdAt: users.createdAt }).from(users).where(eq(users.id, facts.ownerId)).limit(1),
    ctx.db
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: workspaceMembers.role, addedAt: workspaceMembers.addedAt })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(eq(workspaceMembers.workspaceId, facts.id))
      .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId))
      .limit(teamLimits.maxMembers),
  ]);
  const out: TeamMember[] = owners.map((o) => ({ userId: o.id, email: o.email, name: fullName(o), role: "owner" as const, addedAt: o.createdAt }));
  for (const m of members) out.push({ userId: m.id, email: m.email, name: fullName(m), role: m.role, addedAt: m.addedAt });
  return out;
}

/** A member's row (not the owner's), or null. */
export async function memberRow(ctx: ServiceContext, workspaceId: string, userId: string): Promise<{ role: MemberRole; email: string; name: string } | null> {
  const [row] = await ctx.db
    .select({ role: workspaceMembers.role, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .limit(1);
  return row ? { role: row.role, email: row.email, name: fullName(row) } : null;
}

/** How many members (the owner aside) the workspace has. */
export async function memberCount(ctx: ServiceContext, workspaceId: string): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)` }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId));
  return Number(row?.n ?? 0);
}

/** The most workspaces the switcher lists. */
const MAX_WORKSPACES = 100;

/**
 * Every workspace `userId` belongs to, their own (id = their user id) first, then by name: the
 * ones they own (theirs unless transferred away, and any transferred to them) and the ones they
 * are a member of. One query.
 */
export async function workspacesOf(ctx: ServiceContext, userId: string): Promise<Workspace[]> {
  const rows = await ctx.db.all<{ id: string; role: TeamRole; ownerId: string; name: string | null; firstName: string | null; email: string | null }>(sql`
    WITH mine(id, role) AS (
      SELECT workspace_id, role FROM ${workspaceMembers} WHERE user_id = ${userId}
      UNION SELECT id, 'owner' FROM ${workspaces} WHERE owner_id = ${userId}
      UNION SELECT ${userId}, 'owner' WHERE NOT EXISTS (SELECT 1 FROM ${workspaces} WHERE id = ${userId})
    )
    SELECT mine.id AS id, mine.role AS role, coalesce(w.owner_id, mine.id) AS ownerId, w.name AS name, u.first_name AS firstName, u.email AS email
    FROM mine
    LEFT JOIN ${workspaces} w ON w.id = mine.id
    LEFT JOIN ${users} u ON u.id = coalesce(w.owner_id, mine.id)
    LIMIT ${MAX_WORKSPACES}`);
  const list = rows.map((r) => ({
    id: r.id,
    role: r.role,
    ownerId: r.ownerId,
    name: r.name || defaultNameOf(r.email != null ? { firstName: r.firstName ?? "", email: r.email } : null),
  }));
  return list.sort((a, b) => Number(b.id === userId) - Number(a.id === userId) || a.name.localeCompare(b.name));
}

/**
 * The workspaces `userId` owns (their own unless transferred away, and any transferred to them),
 * each with its name and how many other people are in it. One query.
 */
export async function workspacesOwnedBy(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string; others: number }[]> {
  const rows = await ctx.db.all<{ id: string; name: string | null; others: number; firstName: string | null; email: string | null }>(sql`
    WITH owned(id) AS (
      SELECT id FROM ${workspaces} WHERE owner_id = ${userId}
      UNION SELECT ${userId} WHERE NOT EXISTS (SELECT 1 FROM ${workspaces} WHERE id = ${userId})
    )
    SELECT owned.id AS id, w.name AS name, u.first_name AS firstName, u.email AS email,
      (SELECT count(*) FROM ${workspaceMembers} m WHERE m.workspace_id = owned.id AND m.user_id != ${userId}) AS others
    FROM owned
    LEFT JOIN ${workspaces} w ON w.id = owned.id
    LEFT JOIN ${users} u ON u.id = ${userId}
    LIMIT ${MAX_WORKSPACES}`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name || defaultNameOf(r.email != null ? { firstName: r.firstName ?? "", email: r.email } : null),
    others: Number(r.others),
  }));
}
