import { csvCell, leadLimits, leadMessages, publicAssistantServerMessages, type Lead } from "../../../contract";
import type { LeadExportPage } from "../../assistant/facets/leads";
import { isGone } from "../../assistant/gone";
import type { LeadCursor } from "../../assistant/lead-store";
import { assistantHubUnavailable, reachAssistantHub } from "../../durable-objects/stubs";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/** UTF-8's byte order mark: Excel then reads the file as UTF-8 (Arabic, accents). */
const BOM = "\uFEFF";

/**
 * GET /api/public-assistants/:id/leads/export: every lead, newest first (at most
 * leadLimits.exportMaxRows), as CSV: a header row (the date, each field key ever stored under its
 * latest label, then the conversation's context), one row per lead, every cell through `csvCell`
 * (quoted, formula-safe). Streamed: the assistant's object is read a page of
 * leadLimits.exportPageSize at a time, so memory stays one page whatever the count. Ownership is
 * checked in D1 (another owner's assistant is a 404); the first page is read before the response,
 * so a refusal still gets its status.
 */
export async function exportLeads({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string } }): Promise<ReadableStream<Uint8Array>> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const readPage = async (after: LeadCursor | null): Promise<LeadExportPage> => {
    const result = await reachAssistantHub(ctx.env, assistant.id).leads().page({ after, limit: leadLimits.exportPageSize });
    if (isGone(result)) throw notFound();
    if ("ok" in result) throw assistantHubUnavailable(assistant.id, "lead-export", result.reason, publicAssistantServerMessages.assistantBusy);
    return result;
  };
  const first = await readPage(null);
  const keys = first.keys;
  const encoder = new TextEncoder();
  const line = (cells: string[]) => `${cells.map(csvCell).join(",")}\r\n`;
  const C = leadMessages.csvColumns;
  const header = line([C.createdAt, ...keys.map((k) => k.label), C.trigger, C.referrer, C.locale, C.visitorId, C.visitorName, C.visitorEmail, C.sessionId]);
  const row = (lead: Lead) => {
    const byKey = new Map(lead.values.map((v) => [v.key, v.value]));
    return line([
      new Date(lead.createdAt).toISOString(),
      ...keys.map((k) => byKey.get(k.key) ?? ""),
      lead.trigger ?? "",
      lead.referrer,
      lead.locale,
      lead.visitor?.id ?? "",
      lead.visitor?.name ?? "",
      lead.visitor?.email ?? "",
      lead.sessionId,
    ]);
  };
  let page: LeadExportPage | null = first;
  let written = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + header));
    },
    async pull(controller) {
      try {
        if (!page) {
          controller.close();
          return;
        }
        const room = leadLimits.exportMaxRows - written;
        const leads = page.leads.slice(0, room);
        written += leads.length;
        if (leads.length) controller.enqueue(encoder.encode(leads.map(row).join("")));
        page = page.next && written < leadLimits.exportMaxRows ? await readPage(page.next) : null;
        // A pull that enqueues nothing is not pulled again: close now (an assistant with no lead).
        if (!page) controller.close();
      } catch (error) {
        console.error(JSON.stringify({ event: "lead-export-failed", assistantId: assistant.id, error: String(error) }));
        controller.error(error);
      }
    },
  });
}
