/**
 * The pure half of the Leads list (leads-list.tsx): who a lead is at a glance (the name, e-mail,
 * phone and company, else the first values), the rest of its values, what showed the form; and
 * the Lead form card's line (its fields and when it shows).
 * No React, no DOM: unit-tested beside it.
 */
import { leadsUi, type Lead, type LeadForm } from "../../../../../contract";
import { fieldName } from "./lead-form-draft";

const F = leadsUi.form;

type Value = Lead["values"][number];

export interface LeadSummary {
  /** The first line: the name, else the e-mail, else the first value, else the signed visitor, else "Visitor". */
  title: string;
  /** Contact lines under it: e-mail, phone, company (whichever the title is not). */
  contact: string[];
  /** Every other value, with the label it was asked under. */
  details: { label: string; value: string }[];
}

const contactKinds = ["email", "phone", "company"] as const;

export function summarizeLead(lead: Lead): LeadSummary {
  const given = lead.values.filter((v) => v.value.trim() !== "");
  const byKind = (kind: Value["kind"]) => given.find((v) => v.kind === kind);
  const titleValue = byKind("name") ?? byKind("email") ?? given[0];
  const title = titleValue?.value ?? lead.visitor?.name ?? lead.visitor?.email ?? leadsUi.anonymous;
  const used = new Set<Value>(titleValue ? [titleValue] : []);
  const contact: string[] = [];
  for (const kind of contactKinds) {
    const v = byKind(kind);
    if (v && !used.has(v)) {
      contact.push(v.value);
      used.add(v);
    }
  }
  const details = given.filter((v) => !used.has(v)).map((v) => ({ label: v.label, value: v.value }));
  return { title, contact, details };
}

/** What showed the form, in the owner's words; "" when the widget did not say. */
export function triggerText(trigger: Lead["trigger"]): string {
  return trigger ? (leadsUi.triggers[trigger] ?? "") : "";
}

/** The form at a glance: its fields and when it shows. */
export function formSummary(form: LeadForm): string {
  const W = F.summaryWhen;
  const when = [
    form.beforeFirstMessage !== "off" ? W.beforeFirst : null,
    form.afterMessages > 0 ? W.after(form.afterMessages) : null,
    form.whenAsked ? W.asked : null,
    form.whenUnanswered ? W.unanswered : null,
  ].filter((w): w is string => w !== null);
  const fields = form.fields.map(fieldName).join(", ");
  if (!when.length) return F.summaryNever(fields);
  return F.summary(fields, F.summaryOr(when));
}
