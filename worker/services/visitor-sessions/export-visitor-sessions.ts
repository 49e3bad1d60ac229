import { unlessGone } from "../../assistant/gone";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { assistantAudit, recordAudit } from "../team/audit";

/** Sessions read per query while streaming an export. */
const EXPORT_PAGE = 20;

/**
 * GET …/chats/export: the assistant's whole visitor history as one JSON document (the
 * `chatHistoryExport` shape), streamed page by page (one call to the assistant's own object
 * each) so a long history never sits in memory.
 * Sessions come oldest first, paged by (startedAt, id), so sessions started during the export
 * are appended, never repeated or skipped; `total` closes the document and counts what was written.
 */
export async function exportVisitorSessions({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const hub = reachAssistantHub(ctx.env, assistant.id);
  const encoder = new TextEncoder();
  let after: { startedAt: number; id: string } | null = null;
  let written = 0;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const head = { assistantId: assistant.id, assistantName: assistant.name, exportedAt: Date.now() };
      controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"sessions":[`));
    },
    async pull(controller) {
      try {
        const page = unlessGone(await hub.history().exportPage({ after, limit: EXPORT_PAGE }), { sessions: [], next: null });
        if (!page.sessions.length) {
          controller.enqueue(encoder.encode(`],"total":${written}}`));
          controller.close();
          return;
        }
        const chunk = page.sessions.map((s, i) => (written + i > 0 ? "," : "") + JSON.stringify(s)).join("");
        written += page.sessions.length;
        after = page.next;
        controller.enqueue(encoder.encode(chunk));
      } catch (error) {
        console.error(JSON.stringify({ assistantId: assistant.id, error: `export failed: ${String(error)}` }));
        controller.error(error);
      }
    },
  });
  await recordAudit(ctx, assistantAudit(ctx, assistant, "chats.exported", { target: "chat history JSON" }));
  return { filename: `chat-history-${assistant.id}.json`, body };
}
