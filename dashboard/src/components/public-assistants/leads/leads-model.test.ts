import { describe, expect, it } from "vitest";
import { defaultLeadForm, leadSchema, leadsUi, type Lead } from "../../../../../contract";
import { formSummary, summarizeLead, triggerText } from "./leads-model";

const lead = (values: [Lead["values"][number]["kind"], string, string][], extra: Partial<Lead> = {}): Lead =>
  leadSchema.parse({
    id: "l1",
    sessionId: "s1",
    createdAt: 1,
    values: values.map(([kind, label, value], i) => ({ key: kind === "text" ? `text${i}` : kind, kind, label, value })),
    referrer: "",
    locale: "en",
    ...extra,
  });

describe("summarizeLead", () => {
  it("titles a lead by its name, lists e-mail, phone and company under it, and the rest as details", () => {
    const s = summarizeLead(
      lead([
        ["text", "Budget", "10k"],
        ["email", "E-mail", "ada@example.com"],
        ["name", "Name", "Ada"],
        ["company", "Company", "Analytical"],
        ["phone", "Phone", "+44 20 1234 5678"],
      ]),
    );
    expect(s).toEqual({ title: "Ada", contact: ["ada@example.com", "+44 20 1234 5678", "Analytical"], details: [{ label: "Budget", value: "10k" }] });
  });

  it("without a name: the e-mail, else the first value given, else the signed visitor, else Visitor", () => {
    expect(summarizeLead(lead([["email", "E-mail", "a@b.co"], ["phone", "Phone", "123456"]])).title).toBe("a@b.co");
    expect(summarizeLead(lead([["name", "Name", " "], ["text", "Need", "A demo"]]))).toEqual({ title: "A demo", contact: [], details: [] });
    expect(summarizeLead(lead([], { visitor: { id: "u1", name: "Grace" } })).title).toBe("Grace");
    expect(summarizeLead(lead([])).title).toBe(leadsUi.anonymous);
  });

  it("says what showed the form in words, nothing when the widget did not say", () => {
    expect(triggerText("asked")).toBe(leadsUi.triggers.asked);
    expect(triggerText(undefined)).toBe("");
  });
});

describe("the lead form card's summary", () => {
  it("names the fields and when the form shows, or that it never does", () => {
    expect(formSummary(defaultLeadForm)).toBe("Name, E-mail · Shown when a visitor asks to be contacted or when the assistant does not know.");
    expect(formSummary({ ...defaultLeadForm, beforeFirstMessage: "required", afterMessages: 3, whenUnanswered: false })).toBe(
      "Name, E-mail · Shown before the first message, after 3 messages or when a visitor asks to be contacted.",
    );
    expect(formSummary({ ...defaultLeadForm, whenAsked: false, whenUnanswered: false })).toBe(leadsUi.form.summaryNever("Name, E-mail"));
  });
});
