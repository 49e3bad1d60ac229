import { describe, expect, it } from "vitest";
import { leadMessages as M, visitorIdentity, visitorIdentityMessages as V, widgetMessages } from "../../contract";
import { call, expectError, registerUser } from "./helpers";
import { createIdentitySecret, startSignedSession, visitorToken } from "./identity-helpers";
import { exportPath, leadAssistant, leadConversation, setLeadForm, leadFormPath, leadsOf, leadsPath, putLeadForm, submitLead, submittedLead } from "./lead-helpers";
import { SHOP_ORIGIN, startSession } from "./widget-helpers";

/** Leads are their owner's only; a visitor submits only to their own session, as a widget call. */
describe("the owner's routes", () => {
  it("another owner gets 404 on every route, and nothing changes; anonymous is 401", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    await submittedLead(key, sessionId, { email: "secret@example.com" });
    const other = await registerUser();
    for (const res of [
      await call(leadFormPath(assistantId), { token: other.token }),
      await putLeadForm(other.token, assistantId, { enabled: false }),
      await call(leadsPath(assistantId), { token: other.token }),
      await call(exportPath(assistantId), { token: other.token }),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("secret@example.com");
    }
    for (const path of [leadFormPath(assistantId), leadsPath(assistantId), exportPath(assistantId)]) expect((await call(path)).status).toBe(401);
    expect((await leadsOf(token, assistantId)).total).toBe(1);
    const form = await call(leadFormPath(assistantId), { token });
    expect(((await form.json()) as { leadForm: { enabled: boolean } }).leadForm.enabled).toBe(true);
  });
});

describe("a visitor's lead", () => {
  it("goes only to a session of the key's assistant: another assistant's key, no key or a bad key is refused", async () => {
    const mine = await leadConversation({ emailOwner: false });
    const theirs = await leadConversation({ emailOwner: false });
    await expectError(await submitLead(theirs.key, mine.sessionId, { fields: { email: "x@example.com" } }), 404, widgetMessages.sessionNotFound);
    expect((await submitLead(undefined, mine.sessionId, { fields: { email: "x@example.com" } })).status).toBe(401);
    expect((await submitLead(`${mine.key.slice(0, -4)}zzzz`, mine.sessionId, { fields: { email: "x@example.com" } })).status).toBe(401);
    expect((await leadsOf(mine.token, mine.assistantId)).total).toBe(0);
    expect((await leadsOf(theirs.token, theirs.assistantId)).total).toBe(0);
  });

  it("an Origin the assistant does not allow is refused", async () => {
    const { token, key, assistantId } = await leadAssistant({ allowedOrigins: [SHOP_ORIGIN] });
    await setLeadForm(token, assistantId, { enabled: true, emailOwner: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    expect((await submitLead(key, sessionId, { fields: { email: "x@example.com" } }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await submitLead(key, sessionId, { fields: { email: "x@example.com" } }, { origin: SHOP_ORIGIN })).status).toBe(201);
  });

  it("a signed visitor's session needs that visitor's token; their id, name and e-mail go with the lead", async () => {
    const { token, key, assistantId } = await leadConversation({ emailOwner: false });
    const { secret } = await createIdentitySecret(token, assistantId);
    const alice = await visitorToken(secret, { sub: "alice", name: "Alice Doe", email: "alice@example.com" });
    const { sessionId } = await startSignedSession(key, alice);
    const body = { fields: { email: "alice.work@example.com" } };
    await expectError(await submitLead(key, sessionId, body), 401, V.tokenRequired);
    const mallory = await visitorToken(secret, { sub: "mallory" });
    await expectError(await submitLead(key, sessionId, body, { headers: { [visitorIdentity.tokenHeader]: mallory } }), 401, V.tokenRequired);
    expect((await submitLead(key, sessionId, body, { headers: { [visitorIdentity.tokenHeader]: alice } })).status).toBe(201);
    const [lead] = (await leadsOf(token, assistantId)).leads;
    expect(lead).toMatchObject({ sessionId, visitor: { id: "alice", name: "Alice Doe", email: "alice@example.com" }, values: [{ key: "email", value: "alice.work@example.com" }] });
  });

  it("control and bidirectional characters are stripped from the form's labels too: the list, the export's header and the widget read them clean", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({
      emailOwner: false,
      fields: [
        { key: "name", kind: "name", label: { en: "Full\r\nname\u0007" } },
        { key: "email", kind: "email", required: true },
        { key: "text1", kind: "text", label: { en: "Bud\u202eteg\u0000", fr: "\u2066Budget\u2069" } },
      ],
    });
    const saved = (await (await call(leadFormPath(assistantId), { token })).json()) as { leadForm: { fields: { label: Record<string, string> }[] } };
    expect(saved.leadForm.fields.map((f) => f.label)).toEqual([{ en: "Full name" }, {}, { en: "Budteg", fr: "Budget" }]);
    await submittedLead(key, sessionId, { name: "Ann", email: "ann@example.com", text1: "5k" });
    const [lead] = (await leadsOf(token, assistantId)).leads;
    expect(lead?.values.map((v) => v.label)).toEqual(["Full name", M.defaultLabels.email, "Budteg"]);
    const csv = await (await call(exportPath(assistantId), { token })).text();
    // eslint-disable-next-line no-control-regex
    expect(csv.split("\r\n")[0]).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/);
    // A text field whose label is nothing but such characters has no label: refused.
    await expectError(await putLeadForm(token, assistantId, { fields: [{ key: "text1", kind: "text", label: { en: "\u202e\u0000" } }] }), 400, M.labelRequired);
  });

  it("control and bidirectional characters are stripped from values; keys outside the form are refused, not stored", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    await submittedLead(key, sessionId, { name: "Eve\u202e\u0000moc.live", email: "eve@example.com" });
    const [lead] = (await leadsOf(token, assistantId)).leads;
    expect(lead?.values[0]?.value).toBe("Evemoc.live");
    await expectError(await submitLead(key, sessionId, { fields: { email: "eve@example.com", __proto__: { x: 1 }, constructor: "x" } }), 400, M.unknownField("constructor"));
  });
});
