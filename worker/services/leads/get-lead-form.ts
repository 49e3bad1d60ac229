import type { LeadFormResponse } from "../../../contract";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { readConfig } from "../public-assistants/to-public-assistant";

/** GET /api/public-assistants/:id/lead-form: the owner's form (the defaults, off, when never set). Another owner's assistant is a 404. */
export async function getLeadForm({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string } }): Promise<LeadFormResponse> {
  const row = await requirePublicAssistant({ ctx, input });
  return { leadForm: readConfig(row.config).leadForm };
}
