import { eq } from "drizzle-orm";
import { can, userRoomId, type TeamRole } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { callFacet, getAssistantHub, getChatRoom } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";

/** Assistants' objects told at once. */
const CONCURRENCY = 10;

/**
 * After a member was removed, left, or got another role (committed in D1): with no role left, or
 * one without `inbox.reply`, every assistant of the workspace drops the inbox watch leases of
 * their room (`user-<id>`), so their open socket gets no further inbox frame from it; and their
 * room gets a `team-changed` frame so the dashboard re-reads its workspaces. Their next request
 * is checked against D1 anyway (the guard reads membership per request). Awaited, within
 * `teamLimits.revocationMs` in practice; failures are logged, never thrown: the change committed.
 */
export async function revokeMemberAccess({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { workspaceId: string; userId: string; role: TeamRole | null };
}): Promise<void> {
  const room = userRoomId(input.userId);
  const tell = getChatRoom(ctx.env, room)
    .teamChanged({ workspaceId: input.workspaceId })
    .catch((error: unknown) => console.error(JSON.stringify({ event: "team-changed-frame-failed", room, error: String(error) })));
  if (can(input.role, "inbox.reply")) {
    await tell;
    return;
  }
  try {
    const assistants = await ctx.db.select({ id: publicAssistants.id }).from(publicAssistants).where(eq(publicAssistants.userId, input.workspaceId));
    for (let i = 0; i < assistants.length; i += CONCURRENCY) {
      const batch = assistants.slice(i, i + CONCURRENCY);
      const results = await Promise.allSettled(batch.map((a) => callFacet(getAssistantHub(ctx.env, a.id).handoff(), (h) => h.unwatch(room))));
      // A deleted assistant (gone) has no watcher left to drop.
      results.forEach((r, j) => {
        if (r.status === "rejected") console.error(JSON.stringify({ event: "inbox-unwatch-failed", assistantId: batch[j]!.id, room, error: String(r.reason) }));
      });
    }
  } catch (error) {
    console.error(JSON.stringify({ event: "member-access-revocation-failed", workspaceId: input.workspaceId, room, error: String(error) }));
  }
  await tell;
}
