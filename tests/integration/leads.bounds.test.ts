import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { leadLimits as L, leadMessages as M, widgetApiPaths } from "../../contract";
import { LeadStore } from "../../worker/assistant/lead-store";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, expectError, outbox } from "./helpers";
import { emailsTo } from "./handoff-helpers";
import { exportPath, leadAssistant, leadConversation, leadsOf, parseCsv, submitLead, submittedLead } from "./lead-helpers";
import { startSession, widgetCall } from "./widget-helpers";

describe("lead bounds", () => {
  it("a hostile body (a value nested 50,000 deep, 10,000 unknown keys) is a 400 naming the field, and nothing is saved", async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    const deep = `{"fields":{"email":"ann@example.com","name":${"[".repeat(50_000)}${"]".repeat(50_000)}}}`;
    const res = await widgetCall(widgetApiPaths.lead(sessionId), { key, method: "POST", headers: { "content-type": "application/json" }, body: deep });
    await expectError(res, 400, M.valueMustBeText(M.defaultLabels.name));
    const many = JSON.stringify({ fields: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, "x"])) });
    await expectError(await widgetCall(widgetApiPaths.lead(sessionId), { key, method: "POST", headers: { "content-type": "application/json" }, body: many }), 400, M.unknownField("k0"));
    expect((await leadsOf(token, assistantId)).total).toBe(0);
  });

  it(`a conversation sends at most ${L.maxLeadsPerSession} leads (429), another conversation still can`, async () => {
    const { token, key, assistantId, sessionId } = await leadConversation({ emailOwner: false });
    for (let i = 0; i < L.maxLeadsPerSession; i++) await submittedLead(key, sessionId, { email: `v${i}@example.com` });
    await expectError(await submitLead(key, sessionId, { fields: { email: "again@example.com" } }), 429, M.tooManyLeads(L.maxLeadsPerSession));
    const other = await startSession(key);
    await submittedLead(key, other.sessionId, { email: "other@example.com" });
    expect((await leadsOf(token, assistantId)).total).toBe(L.maxLeadsPerSession + 1);
  });

  it(`the owner gets at most ${L.maxOwnerEmailsPerHour} lead e-mails an hour per assistant`, async () => {
    const { ownerEmail, key, assistantId, sessionId } = await leadConversation();
    const now = Date.now();
    // Leads already e-mailed about in the last hour (the throttle reads them from the object's storage).
    await runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
      const store = new LeadStore(state.storage);
      for (let i = 0; i < L.maxOwnerEmailsPerHour - 1; i++) {
        const lead = store.save({ sessionId: `old${i}`, values: [{ key: "email", kind: "email", label: "E-mail", value: `o${i}@example.com` }], referrer: "", locale: "", at: now - 60_000 });
        expect(store.reserveOwnerEmail(lead.id, now - 60_000)).toBe(true);
      }
    });
    const subject = M.ownerEmailSubject("Shop helper");
    await submittedLead(key, sessionId, { email: "last-mailed@example.com" });
    expect((await emailsTo(ownerEmail, 2)).filter((m) => m.subject === subject)).toHaveLength(1);
    await submittedLead(key, sessionId, { email: "not-mailed@example.com" });
    await new Promise((r) => setTimeout(r, 300));
    const sent = (await outbox(ownerEmail)).filter((m) => m.subject === subject);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain("last-mailed@example.com");
  });

  it("exports every lead across pages of exportPageSize, newest first, one row each", async () => {
    const { token, assistantId } = await leadAssistant();
    const count = L.exportPageSize * 2 + 7;
    const now = Date.now();
    await runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
      const store = new LeadStore(state.storage);
      for (let i = 0; i < count; i++) store.save({ sessionId: `s${i}`, values: [{ key: "email", kind: "email", label: "E-mail", value: `lead${i}@example.com` }], referrer: "", locale: "", at: now - i });
    });
    const res = await call(exportPath(assistantId), { token });
    expect(res.status).toBe(200);
    const rows = parseCsv((await res.text()).replace(/^\uFEFF/, ""));
    expect(rows).toHaveLength(count + 1);
    expect(rows.slice(1).map((r) => r[1])).toEqual(Array.from({ length: count }, (_, i) => `lead${i}@example.com`));
  });

  it("a search over 100,000 leads stays one bounded query (time reported)", async () => {
    const { token, assistantId } = await leadAssistant();
    const n = 100_000;
    const timings = await runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
      const { sql } = state.storage;
      const now = Date.now();
      state.storage.transactionSync(() => {
        for (let i = 0; i < n; i++) {
          const value = `visitor${i}@example.com`;
          sql.exec(
            "INSERT INTO leads (id, session_id, created_at, fields, search, referrer, locale) VALUES (?, ?, ?, ?, ?, '', '')",
            `l${i}`,
            `s${i}`,
            now - i,
            JSON.stringify([{ key: "email", kind: "email", label: "E-mail", value }]),
            value,
          );
        }
      });
      const store = new LeadStore(state.storage);
      const time = (run: () => unknown) => {
        const start = performance.now();
        const result = run();
        return { ms: performance.now() - start, result };
      };
      const search = time(() => store.list({ page: 1, q: "visitor99999@" }));
      const miss = time(() => store.list({ page: 1, q: "nobody-here" }));
      const first = time(() => store.list({ page: 1, q: "" }));
      const deep = time(() => store.list({ page: 4000, q: "" }));
      return { search, miss, first, deep };
    });
    expect(timings.search.result).toMatchObject({ total: 1, leads: [{ id: "l99999" }] });
    expect(timings.miss.result).toMatchObject({ total: 0, leads: [] });
    expect(timings.first.result).toMatchObject({ total: n, totalPages: n / L.pageSize });
    expect((timings.deep.result as { leads: unknown[] }).leads).toHaveLength(L.pageSize);
    console.log(JSON.stringify({ bench: "leads-search-100k", searchMs: timings.search.ms, missMs: timings.miss.ms, firstPageMs: timings.first.ms, page4000Ms: timings.deep.ms }));
    // And through the route (the owner's call, one RPC).
    const started = Date.now();
    expect((await leadsOf(token, assistantId, "?q=VISITOR12345@")).total).toBe(1);
    console.log(JSON.stringify({ bench: "leads-search-100k-route", ms: Date.now() - started }));
  }, 120_000);
});
