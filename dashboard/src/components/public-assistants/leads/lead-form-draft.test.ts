import { describe, expect, it } from "vitest";
import { defaultLeadForm, leadLimits, leadMessages, widgetLeadStrings, type LeadForm } from "../../../../../contract";
import { addableKinds, addField, checkDraft, draftOf, errorSlot, errorsBySlot, isDirty, localLine, moveField, removeField, updateField, visitorLabel } from "./lead-form-draft";
import { defaultFieldLabel } from "./lead-form-editor";

const form: LeadForm = { ...defaultLeadForm, enabled: true };

describe("the lead form draft", () => {
  it("adds a known kind once, keyed by its kind, and text fields as text1… while there is room", () => {
    let d = draftOf(form);
    expect(addableKinds(d)).toEqual(["phone", "company", "text"]);
    d = addField(addField(d, "text"), "text");
    expect(d.fields.map((f) => f.key)).toEqual(["name", "email", "text1", "text2"]);
    expect(addField(d, "email")).toBe(d);
    d = addField(addField(d, "phone"), "company");
    expect(d.fields).toHaveLength(leadLimits.maxFields);
    expect(addableKinds(d)).toEqual([]);
    // A removed text key is free again.
    d = addField(removeField(d, 2), "text");
    expect(d.fields.map((f) => f.key)).toEqual(["name", "email", "text2", "phone", "company", "text1"]);
  });

  it("moves a field up and down within the list, and no further", () => {
    const d = draftOf(form);
    expect(moveField(d, 1, -1).fields.map((f) => f.key)).toEqual(["email", "name"]);
    expect(moveField(d, 1, 1)).toBe(d);
    expect(moveField(d, 0, -1)).toBe(d);
  });

  it("checks with the contract: a text field with no label, a count out of range, each on its own slot", () => {
    const d = { ...addField(draftOf(form), "text"), afterMessages: "51" };
    const checked = checkDraft(d);
    expect(checked).toEqual({
      ok: false,
      errors: { "fields.2.label": leadMessages.labelRequired, afterMessages: leadMessages.afterMessagesRange(leadLimits.afterMessages.min, leadLimits.afterMessages.max) },
    });
    const fixed = { ...updateField(d, 2, { label: { en: "Budget" } }), afterMessages: "3" };
    const ok = checkDraft(fixed);
    expect(ok.ok && ok.body.afterMessages).toBe(3);
    expect(checkDraft({ ...fixed, afterMessages: "" }).ok).toBe(false);
  });

  it("sends a server error to the slot it names", () => {
    expect(["fields.2.label.fr", "fields.2.label", "fields.3.key", "fields.3", "fields", "intro.ar", "afterMessages", "_", "whatever"].map(errorSlot)).toEqual([
      "fields.2.label",
      "fields.2.label",
      "fields.3",
      "fields.3",
      "fields",
      "intro",
      "afterMessages",
      "form",
      "form",
    ]);
    expect(errorsBySlot({ "intro.en": "a", "intro.fr": "b" })).toEqual({ intro: "a" });
  });

  it("shows a visitor the owner's label in their language, else the English one, else the widget's default", () => {
    const field = { key: "name", kind: "name" as const, label: { fr: "Votre nom" }, required: true };
    const defaults = (kind: string, locale: string) => `${kind}:${locale}`;
    expect(visitorLabel(field, "fr", defaults)).toBe("Votre nom");
    expect(visitorLabel(field, "ar", defaults)).toBe("name:ar");
    expect(visitorLabel({ ...field, label: { en: "Full name" } }, "ar", defaults)).toBe("Full name");
    expect(localLine({ en: "Hi" }, "fr", "default")).toBe("Hi");
    expect(localLine({}, "fr", "default")).toBe("default");
  });

  it("is dirty only when something an owner would see changed (an emptied label is no change)", () => {
    const d = draftOf(form);
    expect(isDirty(d, form)).toBe(false);
    expect(isDirty(updateField(d, 0, { label: { en: "" } }), form)).toBe(false);
    expect(isDirty(updateField(d, 0, { required: true }), form)).toBe(true);
  });
});

describe("a known kind's default label", () => {
  it("is the widget's own word in the language being edited, so the placeholder and preview read as the visitor will", () => {
    expect(defaultFieldLabel("name", "fr")).toBe(widgetLeadStrings.fr.leadKinds.name);
    expect(defaultFieldLabel("phone", "ar")).toBe(widgetLeadStrings.ar.leadKinds.phone);
    expect(defaultFieldLabel("email")).toBe(widgetLeadStrings.en.leadKinds.email);
    expect(visitorLabel({ key: "company", kind: "company", label: {}, required: false }, "fr", defaultFieldLabel)).toBe("Entreprise");
  });
});
