import { describe, expect, it } from "vitest";
import { leadLimits as L, leadMessages as M } from "../../contract";
import { call, expectError } from "./helpers";
import { leadAssistant, leadConversation, leadsPath, putLeadForm, submitLead } from "./lead-helpers";
import { startSession } from "./widget-helpers";

describe("PUT …/lead-form refuses what the contract refuses, naming the field and limit", () => {
  it.each([
    ["a body that is no object", [1, 2], M.formMustBeObject],
    ["no field", { fields: [] }, M.fieldsRequired],
    ["too many fields", { fields: Array.from({ length: 7 }, (_, i) => ({ key: `text${(i % 6) + 1}`, kind: "text", label: { en: `T${i}` } })) }, M.tooManyFields(L.maxFields)],
    ["an unknown kind", { fields: [{ key: "name", kind: "age" }] }, M.fieldKindInvalid(L.fieldKinds)],
    ["a key that does not match its kind", { fields: [{ key: "email", kind: "name" }] }, M.fieldKeyInvalid],
    ["a field twice", { fields: [{ key: "name", kind: "name" }, { key: "name", kind: "name" }] }, M.duplicateField("name")],
    ["a text field without a label", { fields: [{ key: "text1", kind: "text" }] }, M.labelRequired],
    ["a label too long", { fields: [{ key: "name", kind: "name", label: { en: "x".repeat(L.maxLabelChars + 1) } }] }, M.labelTooLong(L.maxLabelChars)],
    ["an intro too long", { intro: { fr: "x".repeat(L.maxIntroChars + 1) } }, M.introTooLong(L.maxIntroChars)],
    ["a thank-you line too long", { thanks: { ar: "x".repeat(L.maxThanksChars + 1) } }, M.thanksTooLong(L.maxThanksChars)],
    ["after too many messages", { afterMessages: L.afterMessages.max + 1 }, M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max)],
    ["after a fraction of a message", { afterMessages: 1.5 }, M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max)],
    ["an unknown mode before the first message", { beforeFirstMessage: "always" }, M.beforeFirstMessageInvalid(L.beforeFirstMessageModes)],
    ["enabled that is no boolean", { enabled: "yes" }, M.mustBeBoolean("enabled")],
  ])("%s", async (_name, body, message) => {
    const { token, assistantId } = await leadAssistant();
    await expectError(await putLeadForm(token, assistantId, body), 400, message);
  });

  it("a refused PUT changes nothing", async () => {
    const { token, assistantId } = await leadAssistant();
    await expectError(await putLeadForm(token, assistantId, { enabled: true, afterMessages: 99 }), 400, M.afterMessagesRange(0, 50));
    const res = await call(`/api/public-assistants/${assistantId}/lead-form`, { token });
    expect(((await res.json()) as { leadForm: { enabled: boolean } }).leadForm.enabled).toBe(false);
  });
});

describe("POST …/lead refuses what the form refuses", () => {
  it("403 while the form is off", async () => {
    const { key } = await leadAssistant();
    const { sessionId } = await startSession(key);
    await expectError(await submitLead(key, sessionId, { fields: { email: "a@example.com" } }), 403, M.formOff);
  });

  it("400 for each rule, naming the field's label", async () => {
    const { key, sessionId } = await leadConversation({
      emailOwner: false,
      fields: [
        { key: "name", kind: "name", required: true, label: { en: "Full name" } },
        { key: "email", kind: "email", required: true },
        { key: "phone", kind: "phone" },
        { key: "text1", kind: "text", label: { en: "Budget" } },
      ],
    });
    const base = { name: "Ada", email: "ada@example.com" };
    const cases: [unknown, string][] = [
      [{ fields: "name=Ada" }, M.fieldsMustBeObject],
      [{}, M.fieldsMustBeObject],
      [{ fields: { email: "ada@example.com" } }, M.valueRequired("Full name")],
      [{ fields: { name: "   ", email: "ada@example.com" } }, M.valueRequired("Full name")],
      [{ fields: { ...base, company: "Acme" } }, M.unknownField("company")],
      [{ fields: { ...base, name: "x".repeat(L.maxValueChars.name + 1) } }, M.valueTooLong("Full name", L.maxValueChars.name)],
      [{ fields: { ...base, text1: "x".repeat(L.maxValueChars.text + 1) } }, M.valueTooLong("Budget", L.maxValueChars.text)],
      [{ fields: { ...base, email: "ada at example" } }, M.emailInvalidFor("E-mail")],
      [{ fields: { ...base, phone: "call me maybe" } }, M.phoneInvalidFor("Phone", L.phoneDigits.min, L.phoneDigits.max)],
      [{ fields: { ...base, phone: "12 34" } }, M.phoneInvalidFor("Phone", L.phoneDigits.min, L.phoneDigits.max)],
      [{ fields: { ...base, text1: { amount: 5 } } }, M.valueMustBeText("Budget")],
      [{ fields: { ...base, name: ["Ada"] } }, M.valueMustBeText("Full name")],
    ];
    for (const [body, message] of cases) await expectError(await submitLead(key, sessionId, body), 400, message);
    // None of them counted against the conversation's leads.
    for (let i = 0; i < L.maxLeadsPerSession; i++) expect((await submitLead(key, sessionId, { fields: base })).status).toBe(201);
  });

  it("an unknown trigger is refused", async () => {
    const { key, sessionId } = await leadConversation({ emailOwner: false });
    const res = await submitLead(key, sessionId, { fields: { email: "a@example.com" }, trigger: "popup" });
    expect(res.status).toBe(400);
  });

  it("a session that does not exist is a 404", async () => {
    const { key } = await leadConversation({ emailOwner: false });
    const res = await submitLead(key, "no-such-session", { fields: { email: "a@example.com" } });
    expect(res.status).toBe(404);
  });
});

describe("GET …/leads refuses bad paging and search", () => {
  it.each([
    ["?page=0", M.pageInvalid],
    ["?page=abc", M.pageInvalid],
    [`?page=${L.maxPage + 1}`, M.pageInvalid],
    [`?q=${"x".repeat(L.maxQueryChars + 1)}`, M.searchTooLong(L.maxQueryChars)],
  ])("%s", async (query, message) => {
    const { token, assistantId } = await leadAssistant();
    await expectError(await call(leadsPath(assistantId, query), { token }), 400, message);
  });
});
