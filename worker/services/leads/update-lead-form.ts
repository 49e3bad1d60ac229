import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { LeadForm, LeadFormResponse, leadFormInput } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { nextUpdatedAt, readConfig } from "../public-assistants/to-public-assistant";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";

/**
 * PUT /api/public-assistants/:id/lead-form: the body (already checked with `leadFormInput`) over
 * the current form, field by field (what is missing keeps its value; `fields` is the whole list;
 * the intro and thank-you lines language by language),
 * saved in the assistant's config through the same path as its settings: the assistant's object
 * is told before the D1 write and refreshes its copy after it (`configChanging`/`configChanged`),
 * so the widget's config and the next turn see the form with no extra D1 read.
 */
export async function updateLeadForm({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; changes: z.output<typeof leadFormInput> };
}): Promise<LeadFormResponse> {
  const row = await requirePublicAssistant({ ctx, input });
  const config = readConfig(row.config);
  const defined = Object.fromEntries(Object.entries(input.changes).filter(([, v]) => v !== undefined)) as Partial<LeadForm>;
  const leadForm: LeadForm = {
    ...config.leadForm,
    ...defined,
    // The lines merge per language: a body naming only French keeps the English; "" clears one.
    intro: byLocale(config.leadForm.intro, defined.intro),
    thanks: byLocale(config.leadForm.thanks, defined.thanks),
  };
  const token = await assistantChanging({ ctx, input });
  const updated = await ctx.db
    .update(publicAssistants)
    // Only the form's key: a settings save or an avatar upload at the same moment keeps its own change.
    .set({ config: sql`json_set(${publicAssistants.config}, '$.leadForm', json(${JSON.stringify(leadForm)}))`, updatedAt: nextUpdatedAt() })
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, row.userId)))
    .returning({ id: publicAssistants.id });
  // Deleted between the read and the write.
  if (updated.length === 0) throw notFound();
  await revokeWidgetSockets({ ctx, input: { assistantId: input.assistantId, token } });
  return { leadForm };
}

/** `changes` over `base` language by language; an empty text removes that language's line. */
function byLocale(base: LeadForm["intro"], changes: LeadForm["intro"] | undefined): LeadForm["intro"] {
  if (!changes) return base;
  return Object.fromEntries(Object.entries({ ...base, ...changes }).filter(([, text]) => typeof text === "string" && text !== "")) as LeadForm["intro"];
}
