import { privacyMessages } from "../../../contract";
import { unlessGone } from "../../assistant/gone";
import type { LeadCursor } from "../../assistant/lead-store";
import type { SessionCursor } from "../../assistant/privacy-store";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { AppError } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { recordAudit, type AuditActor } from "../team/audit";
import { checkVisitorId, visitorExportFilename } from "./visitor-id";

/** Conversations (with all their messages) and leads read per call of the assistant's object while streaming. */
const CONVERSATIONS_PAGE = 20;
const LEADS_PAGE = 100;

/**
 * GET …/visitors/:visitorId/export: one visitor's data (the right of access) as one JSON document
 * of the `visitorExport` shape: every conversation of theirs with all its messages (oldest
 * first), then their leads (newest first), streamed a page at a time (one call to the assistant's
 * object each) so memory stays bounded whatever the visitor left. 404 `visitorNotFound` when
 * nothing of the visitor is stored; 400 `visitorIdInvalid`; another owner's assistant: 404.
 * Recorded (`visitor.exported`) before the download starts.
 */
export async function exportVisitor({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; actor: AuditActor; assistantId: string; visitorId: string };
}): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const visitorId = checkVisitorId(input.visitorId);
  const hub = reachAssistantHub(ctx.env, assistant.id);
  if (unlessGone(await hub.privacy().hasVisitor(visitorId), false) !== true) throw new AppError("NOT_FOUND", privacyMessages.visitorNotFound);
  await recordAudit(ctx, { workspaceId: assistant.userId, actor: input.actor, action: "visitor.exported", assistant: { id: assistant.id, name: assistant.name }, target: visitorId });

  const encoder = new TextEncoder();
  let part: "conversations" | "leads" = "conversations";
  let sessionsAfter: SessionCursor | null = null;
  let leadsAfter: LeadCursor | null = null;
  let written = 0;
  const items = (list: unknown[]) => list.map((item, i) => (written + i > 0 ? "," : "") + JSON.stringify(item)).join("");

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const head = { exportedAt: Date.now(), assistant: { id: assistant.id, name: assistant.name }, visitorId };
      controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"conversations":[`));
    },
    async pull(controller) {
      try {
        if (part === "conversations") {
          const page = unlessGone(await hub.privacy().exportConversations({ visitorId, after: sessionsAfter, limit: CONVERSATIONS_PAGE }), { sessions: [], next: null });
          controller.enqueue(encoder.encode(items(page.sessions)));
          written += page.sessions.length;
          sessionsAfter = page.next;
          if (!page.next) {
            part = "leads";
            written = 0;
            controller.enqueue(encoder.encode(`],"leads":[`));
          }
          return;
        }
        const page = unlessGone(await hub.privacy().exportLeads({ visitorId, after: leadsAfter, limit: LEADS_PAGE }), { leads: [], next: null });
        controller.enqueue(encoder.encode(items(page.leads)));
        written += page.leads.length;
        leadsAfter = page.next;
        if (!page.next) {
          controller.enqueue(encoder.encode("]}"));
          controller.close();
        }
      } catch (error) {
        console.error(JSON.stringify({ assistantId: assistant.id, error: `visitor export failed: ${String(error)}` }));
        controller.error(error);
      }
    },
  });
  return { filename: visitorExportFilename(visitorId), body };
}
