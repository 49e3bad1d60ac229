import { and, eq } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { publicAssistantServerMessages, widgetSocketClose, type PublicAssistant, type PublicAssistantChanges } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";
import { assistantWorkspace, findPublicAssistant, requirePublicAssistant } from "./find-public-assistant";
import { loadPublicAssistants } from "./list-public-assistants";
import { type PublicAssistantRow, mergeConfig, mergeIntegration, nextUpdatedAt, readConfig, readIntegration, toPublicAssistantRecord } from "./to-public-assistant";

/**
 * Merges the body over the assistant's current settings (config, customization and integration
 * field by field) and saves it, then refreshes the assistant's own object's copy. The API key does not change. Switched off, the assistant's open
 * widget sockets close; with origins taken off the allowlist, those from them close.
 */
export async function updatePublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; changes: PublicAssistantChanges };
}): Promise<PublicAssistant> {
  // The config is read, merged and written whole: the write only lands on the config it was merged
  // over, so a write of another key at the same moment (an avatar upload, the lead form, the
  // checklist's record) is read again and kept rather than overwritten.
  let current = await requirePublicAssistant({ ctx, input });
  for (let attempt = 1; ; attempt++) {
    const written = await writeOnce(ctx, input, current);
    if (written.ok) return written.result;
    const again = await findPublicAssistant({ ctx, input, fresh: true });
    if (!again) throw notFound();
    if (attempt >= CONFIG_WRITE_ATTEMPTS) throw new AppError("CONFLICT", publicAssistantServerMessages.changedMeanwhile);
    current = again;
  }
}

/** Tries before a save that keeps meeting another write of the config gives up (409). */
const CONFIG_WRITE_ATTEMPTS = 3;

async function writeOnce(
  ctx: ServiceContext,
  input: { userId: string; assistantId: string; changes: PublicAssistantChanges },
  current: PublicAssistantRow,
): Promise<{ ok: true; result: PublicAssistant } | { ok: false }> {
  const { changes } = input;
  const set: SQLiteUpdateSetSource<typeof publicAssistants> = { updatedAt: nextUpdatedAt() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.isActive !== undefined) set.isActive = changes.isActive;
  if (changes.instructions !== undefined) set.instructions = changes.instructions;
  if (changes.showSources !== undefined) set.showSources = changes.showSources;
  if (changes.allowedOrigins !== undefined) set.allowedOrigins = JSON.stringify(changes.allowedOrigins);
  if (changes.config !== undefined) set.config = JSON.stringify(mergeConfig(readConfig(current.config), changes.config));
  if (changes.integration !== undefined) {
    set.integration = JSON.stringify(mergeIntegration(readIntegration(current.integration), changes.integration));
  }
  // The assistant's object re-reads D1 from now until the write is done (revoke-widget-sockets.ts).
  const token = await assistantChanging({ ctx, input });
  const updated = await ctx.db
    .update(publicAssistants)
    .set(set)
    .where(
      and(
        eq(publicAssistants.id, input.assistantId),
        eq(publicAssistants.userId, assistantWorkspace(ctx, input)),
        ...(changes.config !== undefined ? [eq(publicAssistants.config, current.config)] : []),
      ),
    )
    .returning({ id: publicAssistants.id });
  // Deleted between the read and the write, or its config changed meanwhile: the caller reads again.
  if (updated.length === 0) {
    await revokeWidgetSockets({ ctx, input: { assistantId: input.assistantId, token } });
    return { ok: false };
  }
  const { assistantId } = input;
  if (changes.isActive === false && current.isActive) {
    await revokeWidgetSockets({ ctx, input: { assistantId, token, close: widgetSocketClose.unavailable } });
  } else if (changes.allowedOrigins !== undefined && originsNarrowed(toPublicAssistantRecord(current).allowedOrigins, changes.allowedOrigins)) {
    await revokeWidgetSockets({ ctx, input: { assistantId, token, close: widgetSocketClose.originNotAllowed, allowedOrigins: changes.allowedOrigins } });
  } else {
    // Every other change only refreshes the assistant's copy (settings, instructions, limits).
    await revokeWidgetSockets({ ctx, input: { assistantId, token } });
  }
  // Read again: the row the route guard loaded is the one before this write.
  const [result] = await loadPublicAssistants(ctx, assistantWorkspace(ctx, input), assistantId);
  if (!result) throw notFound();
  return { ok: true, result };
}

/** True when a socket allowed under `before` may be refused under `after` (an empty list allows every origin). */
function originsNarrowed(before: readonly string[], after: readonly string[]): boolean {
  if (after.length === 0) return false;
  return before.length === 0 || before.some((origin) => !after.includes(origin));
}
