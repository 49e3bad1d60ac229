import { RpcTarget } from "cloudflare:workers";
import { leadLimits, type LeadsResponse, type LeadTrigger } from "../../../contract";
import type { Gone } from "../gone";
import { handoffOf } from "../handoff-store";
import type { HubCore } from "../hub-core";
import type { OpenedHub } from "../hub-gate";
import type { HandoffTelling } from "../hub-handoff";
import { leadFormOf } from "../hub-leads";
import { InsightsStore } from "../insights-store";
import { LeadStore, type LeadCursor, type SavedLead } from "../lead-store";
import { checkLeadValues, leadEmail, type LeadValue } from "../lead-values";
import { sessionVisitor } from "../visitor-store";
import { guarded, whenOpen } from "./run";
import { visitorCheck, type IdentityRefusal } from "./visitors";

/** A visitor's lead: saved (with the owner's e-mail when due, and the handoff's telling when it set the reply's address), or why not. */
export type SubmitLeadResult =
  | { ok: true; lead: SavedLead; email: { userId: string; assistantName: string } | null; told: HandoffTelling | null }
  | { ok: false; reason: "no-session" | "off" | "too-many" }
  | { ok: false; invalid: string; field: string }
  | IdentityRefusal;

/** The export's page: its leads, the next cursor, and (first page) every field key with its label. */
export type LeadExportPage = { leads: SavedLead[]; next: LeadCursor | null; keys: { key: string; label: string }[] };

/**
 * `hub.leads()`: the leads visitors leave through the owner's form (lead-store.ts). The visitor's
 * side (the caller authorised the key; a signed visitor's token is checked here): `submit`,
 * against the form in the assistant's copy as it is now. The owner's side (the caller checked
 * ownership in D1): `list` and the export's `page`. Every method answers `gone` once the
 * assistant was deleted.
 */
export class LeadsFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /**
   * POST /api/widget/sessions/:id/lead: `off` when the form is off, `too-many` past
   * leadLimits.maxLeadsPerSession for this conversation, `invalid` with the message naming the
   * field; else the lead is saved, counted in Insights, its e-mail left for a person's reply when
   * a person was asked for, and the owner's e-mail reserved (the form's `emailOwner`, at most
   * leadLimits.maxOwnerEmailsPerHour per assistant).
   */
  submit(input: { sessionId: string; fields: Record<string, unknown>; trigger?: LeadTrigger | undefined; visitorToken?: string | undefined }): Promise<SubmitLeadResult | Gone> {
    return whenOpen(this.#core, async (opened): Promise<SubmitLeadResult> => {
      const first = opened.store.openSession(input.sessionId);
      if (!first) return { ok: false, reason: "no-session" };
      const refused = await visitorCheck(this.#core, first, input.visitorToken);
      if (refused) return refused;
      // From here on nothing awaits: the count and the save are one step.
      const session = opened.store.openSession(input.sessionId);
      if (!session) return { ok: false, reason: "no-session" };
      const form = leadFormOf(opened.assistant.record);
      if (!form.enabled) return { ok: false, reason: "off" };
      const leads = new LeadStore(this.#core.storage);
      if (leads.countForSession(session.id) >= leadLimits.maxLeadsPerSession) return { ok: false, reason: "too-many" };
      const checked = checkLeadValues(form, input.fields);
      if (!checked.ok) return { ok: false, invalid: checked.error, field: checked.field };
      const now = Date.now();
      const lead = this.#saveLead(opened, session, checked.values, input.trigger, now);
      const told = this.#leaveEmailForPerson(opened, session, checked.values);
      const { record } = opened.assistant;
      const email = form.emailOwner && leads.reserveOwnerEmail(lead.id, now) ? { userId: record.userId, assistantName: record.name } : null;
      await this.#core.webhooks.recordLead(lead);
      return { ok: true, lead, email, told };
    });
  }

  /** The owner's page of leads, newest first, `q` looked for in every value. */
  list(input: { page: number; q: string }): Promise<LeadsResponse | { ok: false; reason: "failed" } | Gone> {
    return guarded(this.#core, "leads", () => new LeadStore(this.#core.storage).list(input));
  }

  /** One page of the export after `after` (newest first), with every field key and label seen. */
  page(input: { after: LeadCursor | null; limit: number }): Promise<LeadExportPage | { ok: false; reason: "failed" } | Gone> {
    return guarded(this.#core, "lead-export", () => {
      const store = new LeadStore(this.#core.storage);
      const limit = Math.max(1, Math.min(leadLimits.exportPageSize, Math.trunc(input.limit) || 1));
      return { ...store.page(input.after, limit), keys: store.keys().map(({ key, label }) => ({ key, label })) };
    });
  }

  /**
   * The one step that creates a lead: saved with the session's context and its signed visitor,
   * counted in Insights (a counting error is logged, never thrown). Returns the lead as saved
   * (what `lead.created` describes).
   */
  #saveLead(opened: OpenedHub, session: NonNullable<ReturnType<OpenedHub["store"]["session"]>>, values: LeadValue[], trigger: LeadTrigger | undefined, now: number): SavedLead {
    const lead = new LeadStore(this.#core.storage).save({
      sessionId: session.id,
      values,
      trigger,
      referrer: session.referrer,
      locale: session.locale,
      visitor: sessionVisitor(session),
      at: now,
    });
    try {
      new InsightsStore(this.#core.storage).countLead(now);
    } catch (error) {
      console.error(JSON.stringify({ event: "insights-count-failed", assistantId: this.#core.assistantId, error: String(error) }));
    }
    return lead;
  }

  /** A lead's e-mail in a conversation where a person was asked for is the address for their reply (as POST …/handoff { email }). */
  #leaveEmailForPerson(opened: OpenedHub, session: NonNullable<ReturnType<OpenedHub["store"]["session"]>>, values: LeadValue[]): HandoffTelling | null {
    const email = leadEmail(values);
    if (!email || handoffOf(session).state === "none") return null;
    const left = this.#core.handoff.store(opened).leaveEmail(session, email);
    return left.changed ? this.#core.handoff.telling(opened, left.session, this.#core.handoff.ownerAndWatchers(opened)) : null;
  }
}
