/**
 * An assistant's avatar or logo: one R2 object under the assistant
 * (`assistants/{id}/avatar/{version}`, so deleting the assistant's prefix deletes it), its public
 * URL in `config.customization.avatarUrl`. A new upload is a new version, so the URL can be cached
 * for good; the old object goes once the new URL is saved.
 */
import { and, eq, sql } from "drizzle-orm";
import { api, widgetAvatarPath } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { assistantWorkspace, requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { assistantStoragePrefix, deleteStoredObjects } from "../public-assistants/storage";
import { nextUpdatedAt } from "../public-assistants/to-public-assistant";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";
import type { AvatarType } from "./avatar-image";

const avatarPrefix = (assistantId: string) => `${assistantStoragePrefix(assistantId)}avatar/`;
const avatarKey = (assistantId: string, version: string) => `${avatarPrefix(assistantId)}${version}`;

/** Ids and versions Tala makes: anything else in a public URL is a 404 without touching R2. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

type Input = { userId: string; assistantId: string };

/** Writes `avatarUrl` into the stored config in one statement (a concurrent settings save keeps it), then refreshes the object's copy. */
async function saveAvatarUrl(ctx: ServiceContext, input: Input, url: string): Promise<void> {
  const token = await assistantChanging({ ctx, input });
  const updated = await ctx.db
    .update(publicAssistants)
    .set({ config: sql`json_set(${publicAssistants.config}, '$.customization.avatarUrl', ${url})`, updatedAt: nextUpdatedAt() })
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, assistantWorkspace(ctx, input))))
    .returning({ id: publicAssistants.id });
  await revokeWidgetSockets({ ctx, input: { assistantId: input.assistantId, token } });
  if (updated.length === 0) throw notFound();
}

/** Every stored avatar of the assistant but `keep`. */
async function dropOtherAvatars(ctx: ServiceContext, assistantId: string, keep?: string): Promise<void> {
  const listed = await ctx.env.FILES.list({ prefix: avatarPrefix(assistantId), limit: 1000 });
  const stale = listed.objects.map((o) => o.key).filter((key) => key !== keep);
  if (stale.length) await deleteStoredObjects(ctx.env.FILES, stale);
}

/** PUT …/avatar: stores the checked image and returns its public URL (the request's origin). */
export async function setAssistantAvatar({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: Input & { bytes: Uint8Array; type: AvatarType; origin: string };
}): Promise<{ avatarUrl: string }> {
  await requirePublicAssistant({ ctx, input });
  const version = crypto.randomUUID().replace(/-/g, "");
  const key = avatarKey(input.assistantId, version);
  await ctx.env.FILES.put(key, input.bytes, { httpMetadata: { contentType: input.type } });
  const avatarUrl = `${input.origin}${api.basePath}${widgetAvatarPath(input.assistantId, version)}`;
  try {
    await saveAvatarUrl(ctx, input, avatarUrl);
  } catch (error) {
    // Nothing points at it: it must not stay behind.
    await ctx.env.FILES.delete(key).catch(() => {});
    throw error;
  }
  await dropOtherAvatars(ctx, input.assistantId, key);
  return { avatarUrl };
}

/** DELETE …/avatar: the widget shows its default mark again. */
export async function removeAssistantAvatar({ ctx, input }: { ctx: ServiceContext; input: Input }): Promise<{ avatarUrl: string }> {
  await requirePublicAssistant({ ctx, input });
  await saveAvatarUrl(ctx, input, "");
  await dropOtherAvatars(ctx, input.assistantId);
  return { avatarUrl: "" };
}

/** GET /api/widget/avatar/{assistantId}/{version}: the stored image, or null (404). Public: no owner, no key. */
export async function readWidgetAvatar({
  ctx,
  input,
}: {
  ctx: Pick<ServiceContext, "env">;
  input: { assistantId: string; version: string };
}): Promise<{ body: ReadableStream; type: string; size: number } | null> {
  if (!SAFE_SEGMENT.test(input.assistantId) || !SAFE_SEGMENT.test(input.version)) return null;
  const object = await ctx.env.FILES.get(avatarKey(input.assistantId, input.version));
  if (!object) return null;
  return { body: object.body, type: object.httpMetadata?.contentType ?? "application/octet-stream", size: object.size };
}
