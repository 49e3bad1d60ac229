import { defaultLeadForm, type LeadForm } from "../../contract";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { contactIntent } from "../widget/contact-intent";
import type { HandoffLanguage } from "../widget/handoff-intent";
import { LeadStore } from "./lead-store";

/**
 * The lead form in a visitor's turn (hub-visitor-turn.ts): when a reply offers it. Never for a
 * conversation that already sent a lead. Synchronous local SQLite, no import from `cloudflare:workers`.
 */

/**
 * The form in the object's copy of the assistant. A copy stored before forms existed has none: the
 * owner never set one, so it is the default (off) until the owner's next write refreshes the copy.
 */
export const leadFormOf = (record: PublicAssistantRecord): LeadForm => (record.config as { leadForm?: LeadForm }).leadForm ?? defaultLeadForm;

/**
 * The visitor asked to be contacted (contact-intent.ts) and the owner's form shows then
 * (`whenAsked`): the reply is `leadMessages.offerReply[language]`, no model, no budget. Null otherwise.
 */
export function leadOfferFor(storage: Pick<DurableObjectStorage, "sql" | "transactionSync">, record: PublicAssistantRecord, sessionId: string, content: string): HandoffLanguage | null {
  const form = leadFormOf(record);
  if (!form.enabled || !form.whenAsked) return null;
  const language = contactIntent(content);
  return language && !new LeadStore(storage).hasLead(sessionId) ? language : null;
}

/** The retrieval found nothing above the relevance floor (a knowledge gap) and the form shows then (`whenUnanswered`): the model's reply offers it. */
export function offersLeadFormOnGap(storage: Pick<DurableObjectStorage, "sql" | "transactionSync">, record: PublicAssistantRecord, sessionId: string, gap: boolean): boolean {
  const form = leadFormOf(record);
  return gap && form.enabled && form.whenUnanswered && !new LeadStore(storage).hasLead(sessionId);
}
