import { describe, expect, it } from "vitest";
import { defaultLeadForm, leadLimits, leadMessages as M, type LeadForm } from "../../contract";
import { checkLeadValues, leadEmail, leadSearchText, validPhone } from "./lead-values";

const form: Pick<LeadForm, "fields"> = {
  fields: [
    { key: "name", kind: "name", label: {}, required: false },
    { key: "email", kind: "email", label: { en: "Work e-mail", fr: "E-mail pro" }, required: true },
    { key: "phone", kind: "phone", label: {}, required: false },
    { key: "text1", kind: "text", label: { fr: "Projet" }, required: false },
  ],
};

describe("checkLeadValues: a submission against the owner's form", () => {
  it("keeps the values in the form's order with their labels, cleaned and trimmed; empty optional ones are left out", () => {
    const checked = checkLeadValues(form, { email: "  ada@example.com ", name: "Ada\u202e Lovelace", phone: "", text1: "A shop" });
    expect(checked).toEqual({
      ok: true,
      values: [
        { key: "name", kind: "name", label: "Name", value: "Ada Lovelace" },
        { key: "email", kind: "email", label: "Work e-mail", value: "ada@example.com" },
        { key: "text1", kind: "text", label: "Projet", value: "A shop" },
      ],
    });
  });

  it("refuses with a message naming the field's label", () => {
    expect(checkLeadValues(form, { name: "Ada" })).toEqual({ ok: false, error: M.valueRequired("Work e-mail"), field: "email" });
    expect(checkLeadValues(form, { email: "not-an-address" })).toEqual({ ok: false, error: M.emailInvalidFor("Work e-mail"), field: "email" });
    expect(checkLeadValues(form, { email: "a@b.co", phone: "12" })).toEqual({ ok: false, error: M.phoneInvalidFor("Phone", 6, 20), field: "phone" });
    expect(checkLeadValues(form, { email: "a@b.co", name: 42 })).toEqual({ ok: false, error: M.valueMustBeText("Name"), field: "name" });
    expect(checkLeadValues(form, { email: "a@b.co", name: "x".repeat(leadLimits.maxValueChars.name + 1) })).toEqual({
      ok: false,
      error: M.valueTooLong("Name", leadLimits.maxValueChars.name),
      field: "name",
    });
    expect(checkLeadValues(form, { email: "a@b.co", company: "Acme" })).toEqual({ ok: false, error: M.unknownField("company"), field: "fields" });
    expect(checkLeadValues(form, { email: "a@b.co", ["__proto__"]: "x" })).toMatchObject({ ok: false, field: "fields" });
  });

  it("quotes at most 40 characters of an unknown key", () => {
    const checked = checkLeadValues(defaultLeadForm, { ["k".repeat(5000)]: "x" });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toBe(M.unknownField("k".repeat(40)));
  });

  it("phones: the contract's characters and 6 to 20 digits", () => {
    expect(validPhone("+33 (0)1 23 45 67 89")).toBe(true);
    expect(validPhone("555-0100")).toBe(true);
    expect(validPhone("12345")).toBe(false);
    expect(validPhone("1".repeat(21))).toBe(false);
    expect(validPhone("call me")).toBe(false);
  });

  it("the search text is every value lower-cased; the e-mail is the e-mail field's", () => {
    const values = [
      { key: "name", kind: "name" as const, label: "Name", value: "ÉLISE" },
      { key: "email", kind: "email" as const, label: "E-mail", value: "E@x.io" },
    ];
    expect(leadSearchText(values)).toBe("élise\ne@x.io");
    expect(leadEmail(values)).toBe("E@x.io");
    expect(leadEmail(values.slice(0, 1))).toBeNull();
  });
});
