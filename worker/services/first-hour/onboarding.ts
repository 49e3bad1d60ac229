/**
 * The first-hour checklist's record (`config.onboarding`, contract schemas/first-hour.ts): what only
 * the dashboard sees happen. Each write is one statement on the stored config (json_set), so it
 * never overwrites a settings save, and it leaves `updated_at` alone: nothing a widget caller may
 * do depends on it.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { OnboardingEvent, OnboardingRecord } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { assistantWorkspace, requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { readConfig } from "../public-assistants/to-public-assistant";

type Field = keyof OnboardingRecord;

/** `config.onboarding.{field}` = value, the object made when a config stored before it has none. */
const setField = (field: Field, value: number | null) =>
  sql`json_set(${publicAssistants.config}, '$.onboarding', json_set(coalesce(json_extract(${publicAssistants.config}, '$.onboarding'), '{}'), ${`$.${field}`}, ${value}))`;

const owned = (ctx: ServiceContext, input: { userId: string; assistantId: string }) =>
  and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, assistantWorkspace(ctx, input)));

/** The first Playground message: written once (later ones find it set and change nothing). */
export async function markPlaygroundUsed({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string } }): Promise<void> {
  await ctx.db
    .update(publicAssistants)
    .set({ config: setField("playgroundAt", Date.now()) })
    .where(and(owned(ctx, input), isNull(sql`json_extract(${publicAssistants.config}, '$.onboarding.playgroundAt')`)));
}

/** POST …/onboarding { event }: the snippet copied (first time kept), the checklist hidden or shown again. */
export async function recordOnboardingEvent({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; event: OnboardingEvent };
}): Promise<OnboardingRecord> {
  await requirePublicAssistant({ ctx, input });
  const now = Date.now();
  const change =
    input.event === "snippetCopied"
      ? { set: setField("snippetCopiedAt", now), onlyIfUnset: "snippetCopiedAt" as Field }
      : input.event === "dismissed"
        ? { set: setField("dismissedAt", now), onlyIfUnset: null }
        : { set: setField("dismissedAt", null), onlyIfUnset: null };
  const where = change.onlyIfUnset
    ? and(owned(ctx, input), isNull(sql`json_extract(${publicAssistants.config}, ${`$.onboarding.${change.onlyIfUnset}`})`))
    : owned(ctx, input);
  await ctx.db.update(publicAssistants).set({ config: change.set }).where(where);
  const [row] = await ctx.db.select({ config: publicAssistants.config }).from(publicAssistants).where(owned(ctx, input)).limit(1);
  if (!row) throw notFound();
  return readConfig(row.config).onboarding;
}
