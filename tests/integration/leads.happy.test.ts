import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { appRoutes, defaultLeadForm, handoffMessages, leadMessages, visitorSessionResponse, type WidgetMessage } from "../../contract";
import { assistantStorageMigrations } from "../../worker/assistant/storage-migrations";
import { LeadStore } from "../../worker/assistant/lead-store";
import { applyStorageMigrations } from "../../worker/durable-objects/storage-migrations";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, evictDurableObject, json, outbox } from "./helpers";
import { askedForPerson, emailsTo, hubRows, visitorSays, visitorView } from "./handoff-helpers";
import { insightsOf, utcDate } from "./insights-helpers";
import { exportPath, leadAssistant, leadConversation, leadFormPath, leadsOf, parseCsv, setLeadForm, submittedLead, widgetConfig } from "./lead-helpers";
import { openWidgetSocket, startSession } from "./widget-helpers";

const messagesOf = (frames: { event: string; data: unknown }[]) =>
  frames.filter((f) => f.event === "new-message").map((f) => (f.data as { message: WidgetMessage }).message);
const replyOf = (frames: { event: string; data: unknown }[]) => messagesOf(frames).find((m) => m.role === "assistant");

describe("the owner's lead form", () => {
  it("reads the defaults (off) until set; a PUT merges over the current form and the widget config carries it only when on", async () => {
    const { token, key, assistantId } = await leadAssistant();
    const first = await json(await call(leadFormPath(assistantId), { token }));
    expect(first).toEqual({ leadForm: defaultLeadForm });
    expect((await widgetConfig(key)).assistant.leadForm).toBeUndefined();

    const saved = await setLeadForm(token, assistantId, {
      enabled: true,
      intro: { en: "Tell us how to reach you", fr: "Dites-nous comment vous joindre" },
      fields: [
        { key: "name", kind: "name", required: true },
        { key: "phone", kind: "phone", label: { en: "Mobile" } },
      ],
      afterMessages: 3,
    });
    expect(saved).toMatchObject({ enabled: true, afterMessages: 3, whenAsked: true, intro: { en: "Tell us how to reach you" } });
    // What is missing keeps its value.
    const again = await setLeadForm(token, assistantId, { whenUnanswered: false });
    expect(again).toMatchObject({ enabled: true, afterMessages: 3, whenUnanswered: false, intro: { fr: "Dites-nous comment vous joindre" } });
    expect(again.fields.map((f) => f.key)).toEqual(["name", "phone"]);
    // The lines merge language by language: naming French keeps English; "" clears one.
    const french = await setLeadForm(token, assistantId, { intro: { fr: "Laissez vos coordonnées" }, thanks: { ar: "شكرا" } });
    expect(french.intro).toEqual({ en: "Tell us how to reach you", fr: "Laissez vos coordonnées" });
    expect(french.thanks).toEqual({ ar: "شكرا" });
    const cleared = await setLeadForm(token, assistantId, { intro: { fr: "Dites-nous comment vous joindre" }, thanks: { ar: "" } });
    expect(cleared.intro).toEqual({ en: "Tell us how to reach you", fr: "Dites-nous comment vous joindre" });
    expect(cleared.thanks).toEqual({});
    const again2 = cleared;
    expect(again2).toMatchObject({ enabled: true, afterMessages: 3, whenUnanswered: false });
    expect(await json(await call(leadFormPath(assistantId), { token }))).toEqual({ leadForm: again2 });

    const shown = (await widgetConfig(key)).assistant.leadForm;
    expect(shown).toMatchObject({ afterMessages: 3, whenUnanswered: false, fields: [{ key: "name", required: true }, { key: "phone", label: { en: "Mobile" } }] });
    expect(shown).not.toHaveProperty("emailOwner");
    expect(shown).not.toHaveProperty("enabled");
    // Other settings saved later keep the form (mergeConfig keeps it).
    expect((await call(`/api/public-assistants/${assistantId}`, { token, method: "PUT", json: { name: "Renamed" } })).status).toBe(200);
    expect((await widgetConfig(key)).assistant.leadForm?.afterMessages).toBe(3);

    await setLeadForm(token, assistantId, { enabled: false });
    expect((await widgetConfig(key)).assistant.leadForm).toBeUndefined();
  });
});

describe("a visitor's lead", () => {
  it("is saved (201) and listed newest first with its labels, page, locale and trigger; search finds any value in any case", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    const lead = await submittedLead(key, sessionId, { name: "  Élise Martin ", email: "elise@example.fr" }, "asked");
    expect(lead).toEqual({ id: expect.any(String), createdAt: expect.any(Number) });
    const other = await startSession(key);
    await submittedLead(key, other.sessionId, { email: "100%_sure@example.com" });

    const page = await leadsOf(token, assistantId);
    expect(page).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(page.leads[1]).toMatchObject({
      id: lead.id,
      sessionId,
      trigger: "asked",
      referrer: "https://shop.example/help",
      locale: "en-US",
      values: [
        { key: "name", kind: "name", label: "Name", value: "Élise Martin" },
        { key: "email", kind: "email", label: "E-mail", value: "elise@example.fr" },
      ],
    });
    expect(page.leads[1]?.visitor).toBeUndefined();
    expect((await leadsOf(token, assistantId, "?q=%C3%89LISE")).leads.map((l) => l.id)).toEqual([lead.id]);
    expect((await leadsOf(token, assistantId, "?q=example.fr")).total).toBe(1);
    // % and _ are taken literally.
    expect((await leadsOf(token, assistantId, "?q=100%25_")).total).toBe(1);
    expect((await leadsOf(token, assistantId, "?q=%25")).total).toBe(1);
    expect((await leadsOf(token, assistantId, "?q=nobody")).total).toBe(0);
  });

  it("pages the list 25 at a time, newest first", async () => {
    const { token, assistantId } = await leadAssistant();
    const now = Date.now();
    await runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
      const store = new LeadStore(state.storage);
      for (let i = 0; i < 30; i++) {
        store.save({ sessionId: `s${i}`, values: [{ key: "name", kind: "name", label: "Name", value: `Visitor ${i}` }], referrer: "", locale: "", at: now - i * 1000 });
      }
    });
    const second = await leadsOf(token, assistantId, "?page=2");
    expect(second).toMatchObject({ total: 30, page: 2, totalPages: 2 });
    expect(second.leads.map((l) => l.values[0]?.value)).toEqual(["Visitor 25", "Visitor 26", "Visitor 27", "Visitor 28", "Visitor 29"]);
    expect((await leadsOf(token, assistantId, "?q=visitor 7")).leads.map((l) => l.values[0]?.value)).toEqual(["Visitor 7"]);
  });

  it("exports a CSV attachment: BOM, a header of every field's label, formula cells neutralised, Arabic intact", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({
      emailOwner: false,
      fields: [
        { key: "name", kind: "name" },
        { key: "email", kind: "email", required: true },
        { key: "text1", kind: "text", label: { en: "Project" } },
      ],
    });
    await submittedLead(key, sessionId, { name: "=HYPERLINK(\"http://evil.example\",\"x\")", email: "a@example.com", text1: "+1 million, \"quoted\"" });
    await submittedLead(key, sessionId, { name: "سارة العلوي", email: "sara@example.ma", text1: "@SUM(A1)" });
    const res = await call(exportPath(assistantId), { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="leads-${assistantId}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(new TextDecoder().decode(bytes.slice(3)));
    const C = leadMessages.csvColumns;
    expect(rows[0]).toEqual([C.createdAt, "Name", "E-mail", "Project", C.trigger, C.referrer, C.locale, C.visitorId, C.visitorName, C.visitorEmail, C.sessionId]);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.slice(1, 4)).toEqual(["سارة العلوي", "sara@example.ma", "'@SUM(A1)"]);
    expect(rows[2]?.slice(1, 4)).toEqual(["'=HYPERLINK(\"http://evil.example\",\"x\")", "a@example.com", "'+1 million, \"quoted\""]);
    expect(rows[2]?.[10]).toBe(sessionId);
  });

  it("e-mails the owner about each new lead with its values and a link to the conversation", async () => {
    const { ownerEmail, key, assistantId, sessionId } = await leadConversation({ fields: [{ key: "name", kind: "name" }, { key: "phone", kind: "phone", label: { en: "Mobile" } }] });
    await submittedLead(key, sessionId, { name: "Omar", phone: "+212 600 11 22 33" });
    // The outbox also holds the owner's sign-up e-mail.
    const mail = (await emailsTo(ownerEmail, 2)).find((m) => m.subject === leadMessages.ownerEmailSubject("Shop helper"));
    expect(mail?.text).toContain("Name: Omar");
    expect(mail?.text).toContain("Mobile: +212 600 11 22 33");
    expect(mail?.text).toContain(appRoutes.historyConversation(assistantId, sessionId));
  });

  it("with the owner's e-mail off, no e-mail goes", async () => {
    const { ownerEmail, key, sessionId } = await leadConversation({ emailOwner: false });
    await submittedLead(key, sessionId, { email: "quiet@example.com" });
    await new Promise((r) => setTimeout(r, 300));
    // The outbox also holds the owner's sign-up e-mail.
    expect((await outbox(ownerEmail)).filter((m) => m.subject === leadMessages.ownerEmailSubject("Shop helper"))).toHaveLength(0);
  });

  it("counts in Insights per day", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    await submittedLead(key, sessionId, { email: "one@example.com" });
    await submittedLead(key, sessionId, { email: "two@example.com" });
    const insights = await insightsOf(token, assistantId, 7);
    expect(insights.leads).toHaveLength(7);
    expect(insights.leads?.at(-1)).toEqual({ date: utcDate(Date.now()), count: 2 });
    expect(insights.leads?.slice(0, 6).every((d) => d.count === 0)).toBe(true);
  });

  it("leaves its e-mail for a person's reply when a person was asked for", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false }, { body: { config: { handoff: { visitorAction: true, emailOwner: false } } } });
    await askedForPerson(key, sessionId);
    await submittedLead(key, sessionId, { name: "Ada", email: "ada.reply@example.com" }, "handoff");
    expect((await hubRows(assistantId, sessionId)).session.contact_email).toBe("ada.reply@example.com");
    const owner = await json(await call(`/api/public-assistants/${assistantId}/chats/${sessionId}`, { token }), visitorSessionResponse);
    expect(owner.session.contactEmail).toBe("ada.reply@example.com");
    expect((await visitorView(key, sessionId)).handoff).toMatchObject({ state: "requested", emailLeft: true });
  });

  it("outside a handoff, a lead's e-mail is not a handoff contact", async () => {
    const { key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    await submittedLead(key, sessionId, { email: "plain@example.com" });
    expect((await hubRows(assistantId, sessionId)).session.contact_email).toBeNull();
  });
});

describe("the turn offers the form", () => {
  it.each([
    ["en", "Can someone call me back? [[fail:500]]"],
    ["fr", "Je voudrais être recontacté [[fail:500]]"],
    ["ar", "أريد أن يتواصل معي أحد [[fail:500]]"],
  ] as const)("a request to be contacted (%s) is answered with the offer, with no model call", async (language, text) => {
    const { key, sessionId } = await leadConversation();
    const frames = await visitorSays(key, sessionId, text);
    // The mock model fails on [[fail:500]]: no error means no model was called.
    expect(frames.some((f) => f.event === "message-error")).toBe(false);
    expect(replyOf(frames)).toMatchObject({ content: { data: leadMessages.offerReply[language] }, offersLeadForm: true, leadTrigger: "asked" });
    expect(replyOf(frames)?.offersHandoff).toBeUndefined();
    expect((await visitorView(key, sessionId)).messages[1]).toMatchObject({ offersLeadForm: true, leadTrigger: "asked" });
  });

  it("over the socket too", async () => {
    const { key, sessionId } = await leadConversation();
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");
    socket.sendMessage({ content: "Please email me [[fail:500]]" });
    const reply = await socket.next("new-message", (d) => d.message.role === "assistant");
    expect(reply.message).toMatchObject({ content: { data: leadMessages.offerReply.en }, offersLeadForm: true });
    socket.close();
  });

  it("a plain request for a person still goes to the handoff offer when the owner offers one", async () => {
    const { key, sessionId } = await leadConversation({}, { body: { config: { handoff: { visitorAction: true } } } });
    const reply = replyOf(await visitorSays(key, sessionId, "Can I talk to a person?"));
    expect(reply).toMatchObject({ content: { data: handoffMessages.offerReply.en }, offersHandoff: true });
    expect(reply?.offersLeadForm).toBeUndefined();
  });

  it("with `whenAsked` off or the form off, a request to be contacted is answered by the model", async () => {
    for (const form of [{ whenAsked: false }, { enabled: false }]) {
      const { key, sessionId } = await leadConversation({ ...form, whenUnanswered: false });
      const reply = replyOf(await visitorSays(key, sessionId, "Can someone call me back?"));
      expect(reply?.content.data).not.toBe(leadMessages.offerReply.en);
      expect(reply?.offersLeadForm).toBeUndefined();
    }
  });

  it("a knowledge gap's answer (the model's) carries the offer; an answer from the documents does not", async () => {
    const { key, sessionId } = await leadConversation({}, { upload: true });
    const found = replyOf(await visitorSays(key, sessionId, "How many days do I have to return a zephyrboard for a refund?"));
    expect(found?.offersLeadForm).toBeUndefined();
    const gap = replyOf(await visitorSays(key, sessionId, "Do you sell purple umbrellas for giraffes?"));
    expect(gap?.content.data.length).toBeGreaterThan(0);
    expect(gap?.content.data).not.toBe(leadMessages.offerReply.en);
    expect(gap).toMatchObject({ offersLeadForm: true, leadTrigger: "unanswered" });
    const view = await visitorView(key, sessionId);
    expect(view.messages.map((m) => m.offersLeadForm ?? false)).toEqual([false, false, false, true]);
  });

  it("a conversation that sent a lead is not offered the form again, and its earlier offers read as done", async () => {
    const { key, sessionId } = await leadConversation({ emailOwner: false });
    expect(replyOf(await visitorSays(key, sessionId, "Do you sell purple umbrellas?"))?.offersLeadForm).toBe(true);
    await submittedLead(key, sessionId, { email: "done@example.com" }, "unanswered");
    expect(replyOf(await visitorSays(key, sessionId, "Do you sell green umbrellas?"))?.offersLeadForm).toBeUndefined();
    const asked = replyOf(await visitorSays(key, sessionId, "Please call me back"));
    expect(asked?.content.data).not.toBe(leadMessages.offerReply.en);
    const view = await visitorView(key, sessionId);
    expect(view.leadSent).toBe(true);
    expect(view.messages.some((m) => m.offersLeadForm)).toBe(false);
    // Where the widget shows the thank-you line again: after the offering answer, before what came next.
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(view.leadAfter).toBe(view.messages[1]!.id);
  });

  it("a lead sent before the first message is placed before every message; a conversation without one says nothing of it", async () => {
    const { key, sessionId } = await leadConversation({ emailOwner: false, beforeFirstMessage: "required" });
    const none = await visitorView(key, sessionId);
    expect(none.leadSent).toBeUndefined();
    expect(none.leadAfter).toBeUndefined();
    await submittedLead(key, sessionId, { email: "first@example.com" }, "before-first-message");
    await visitorSays(key, sessionId, "Do you sell purple umbrellas?");
    const view = await visitorView(key, sessionId);
    expect(view).toMatchObject({ leadSent: true, leadAfter: null });
    expect(view.messages.length).toBeGreaterThan(0);
  });
});

describe("the 0016_leads migration", () => {
  it("an object created before it keeps its conversations, answers with a copy that has no form, and takes leads once the form is on", async () => {
    const { token, key, assistantId } = await leadAssistant();
    const { sessionId } = await startSession(key);
    const hub = getAssistantHub(env, assistantId);
    const now = Date.now();
    await runInDurableObject(hub, async (_instance, state) => {
      const { sql } = state.storage;
      const copy = sql.exec("SELECT * FROM assistant_copy").toArray();
      await state.storage.deleteAll();
      applyStorageMigrations(state.storage, assistantStorageMigrations.slice(0, 15), "assistant");
      // The copy as a worker before lead forms stored it: no config.leadForm.
      const record = (json: SqlStorageValue | undefined) => {
        const parsed = JSON.parse(String(json)) as { config: Record<string, unknown> };
        delete parsed.config.leadForm;
        return JSON.stringify(parsed);
      };
      for (const r of copy) sql.exec("INSERT INTO assistant_copy (id, record, key_hash, updated_at, loaded_at, secret_keys) VALUES (?, ?, ?, ?, ?, ?)", r.id, record(r.record), r.key_hash, r.updated_at, r.loaded_at, r.secret_keys);
      sql.exec("INSERT INTO meta (key, value) VALUES ('imported', ?)", String(now));
      sql.exec("INSERT INTO visitor_sessions (id, message_count, started_at, last_message_at, counted, referrer, locale) VALUES (?, 2, ?, ?, 1, 'https://shop.example/old', 'fr-FR')", sessionId, now - 60_000, now - 1000);
      sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES ('m1', ?, 'user', 'Old question', ?)", sessionId, now - 2000);
      sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES ('m2', ?, 'assistant', 'Old answer', ?)", sessionId, now - 1000);
      sql.exec("INSERT INTO insight_days (day, conversations, messages) VALUES (?, 1, 1)", Math.floor(now / 86_400_000));
      applyStorageMigrations(state.storage, assistantStorageMigrations, "assistant");
    });
    // A fresh instance reads the stored copy (the old one kept its copy in memory).
    await evictDurableObject(hub);
    const view = await visitorView(key, sessionId);
    expect(view.messages.map((m) => [m.role, m.offersLeadForm ?? false])).toEqual([
      ["user", false],
      ["assistant", false],
    ]);
    // The model answers (the copy has no form: off), and the turn does not fail on it.
    const reply = replyOf(await visitorSays(key, sessionId, "Can someone call me back?"));
    expect(reply?.content.data.length).toBeGreaterThan(0);
    expect(reply?.content.data).not.toBe(leadMessages.offerReply.en);
    expect(reply?.offersLeadForm).toBeUndefined();
    await setLeadForm(token, assistantId, { enabled: true, emailOwner: false });
    await submittedLead(key, sessionId, { email: "old@example.com" });
    expect((await leadsOf(token, assistantId)).leads[0]).toMatchObject({ sessionId, referrer: "https://shop.example/old", locale: "fr-FR" });
    expect((await insightsOf(token, assistantId, 7)).leads?.at(-1)?.count).toBe(1);
  });
});
