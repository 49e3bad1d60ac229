import { describe, expect, it } from "vitest";
import { csvCell, leadFormInput, leadMessages, leadLimits } from "../index";

describe("leadFormInput", () => {
  it("takes a form of known and text fields with labels in the widget's locales", () => {
    const parsed = leadFormInput.parse({
      enabled: true,
      fields: [
        { key: "email", kind: "email", required: true },
        { key: "text1", kind: "text", label: { en: " Order number ", fr: "Numéro de commande" } },
      ],
      intro: { en: "Leave your details", ar: "" },
    });
    expect(parsed.fields?.[1]).toEqual({ key: "text1", kind: "text", label: { en: "Order number", fr: "Numéro de commande" }, required: false });
    // An emptied line stays in the body: on PUT it clears that language's line (the others are merged).
    expect(parsed.intro).toEqual({ en: "Leave your details", ar: "" });
  });

  it("refuses a key that does not match its kind, a duplicate, an unlabelled text field and a seventh field", () => {
    const issues = (body: unknown) => leadFormInput.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ fields: [{ key: "phone", kind: "email" }] })).toContain(leadMessages.fieldKeyInvalid);
    expect(issues({ fields: [{ key: "name", kind: "name" }, { key: "name", kind: "name" }] })).toContain(leadMessages.duplicateField("name"));
    expect(issues({ fields: [{ key: "text1", kind: "text" }] })).toContain(leadMessages.labelRequired);
    const seven = ["name", "email", "phone", "company", "text1", "text2", "text3"].map((key) => ({ key, kind: key.startsWith("text") ? "text" : key, label: { en: "x" } }));
    expect(issues({ fields: seven })).toContain(leadMessages.tooManyFields(leadLimits.maxFields));
    expect(issues({ afterMessages: 51 })).toContain(leadMessages.afterMessagesRange(0, 50));
  });
});

describe("csvCell", () => {
  it("neutralises formulas and quotes every cell", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe(`"'=HYPERLINK(""x"")"`);
    for (const lead of ["+1", "-2", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(lead).startsWith(`"'`)).toBe(true);
    expect(csvCell("Ada")).toBe(`"Ada"`);
  });
});
