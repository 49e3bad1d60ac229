// @vitest-environment happy-dom
/**
 * The Leads tab against a mocked network (msw): the list, search, paging, the empty state, a 5xx
 * with Try again, the export; and the lead form editor (a 400 shown on the field it names, save).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defaultLeadForm, leadLimits, leadMessages, leadsResponse, leadsUi, publicAssistantUi, storageKeys, type Lead, type LeadForm } from "../../../../../contract";
import { toastStore } from "../../../stores/toast";
import { testAssistant } from "../../../test/assistant-fixture";
import { LEADS_SEARCH_DEBOUNCE_MS, LeadsPanel } from "./leads-panel";

const saved = vi.hoisted(() => ({ blobs: [] as { blob: Blob; fileName: string }[] }));
vi.mock("../../../lib/clipboard", async (actual) => ({
  ...(await actual<typeof import("../../../lib/clipboard")>()),
  saveBlob: (blob: Blob, fileName: string) => saved.blobs.push({ blob, fileName }),
}));

const F = leadsUi.form;
const base = "/api/public-assistants/pa1";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
  saved.blobs.length = 0;
});
afterAll(() => server.close());

const assistant = testAssistant({ _id: "pa1" });
const serverError = () => HttpResponse.json({ error: "Internal server error", code: "INTERNAL_ERROR", requestId: "r" }, { status: 500 });

function lead(n: number, over: Partial<Lead> = {}): Lead {
  return {
    id: `l${n}`,
    sessionId: `s${n}`,
    createdAt: Date.UTC(2026, 10, 20, 10, n),
    values: [
      { key: "name", kind: "name", label: "Name", value: `Person ${n}` },
      { key: "email", kind: "email", label: "E-mail", value: `p${n}@example.com` },
    ],
    trigger: "asked",
    referrer: "https://shop.example/",
    locale: "en",
    ...over,
  };
}
const page = (leads: Lead[], p = 1, total = leads.length) =>
  leadsResponse.parse({ leads, total, page: p, totalPages: Math.max(1, Math.ceil(total / leadLimits.pageSize)) });

function formServer(form: LeadForm = defaultLeadForm) {
  server.use(http.get(`${base}/lead-form`, () => HttpResponse.json({ leadForm: form })));
}
async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
const table = () => within(screen.getByRole("table", { name: leadsUi.listLabel }));

describe("the leads list", () => {
  it("lists leads newest first with who, the trigger in words and a link to the conversation", async () => {
    formServer();
    server.use(
      http.get(`${base}/leads`, () =>
        HttpResponse.json(
          page([
            lead(2, { values: [{ key: "email", kind: "email", label: "E-mail", value: "only@example.com" }, { key: "text1", kind: "text", label: "Budget", value: "10k" }], trigger: "unanswered" }),
            lead(1),
          ]),
        ),
      ),
    );
    render(<LeadsPanel assistant={assistant} />);
    const rows = await waitFor(() => table().getAllByRole("row").slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain("only@example.com");
    expect(rows[0]!.textContent).toContain("Budget: 10k");
    expect(rows[0]!.textContent).toContain(leadsUi.triggers.unanswered);
    expect(rows[1]!.textContent).toContain("Person 1");
    const link = within(rows[1]!).getByRole("link", { name: leadsUi.openConversationOf("Person 1") });
    expect(link.getAttribute("href")).toBe("/app/public-assistants/pa1?tab=history&session=s1");
    // The phone's cards carry the same leads.
    expect(within(screen.getByRole("list", { name: leadsUi.listLabel })).getAllByRole("listitem")).toHaveLength(2);
  });

  it("searches after a pause in typing (q), from the first page, and pages through the results", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    formServer();
    const asked: string[] = [];
    server.use(
      http.get(`${base}/leads`, ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        const p = Number(url.searchParams.get("page"));
        if (url.searchParams.get("q") === "acme") return HttpResponse.json(page([lead(7)], 1, 1));
        return HttpResponse.json(page([lead(p * 100)], p, leadLimits.pageSize * 2));
      }),
    );
    render(<LeadsPanel assistant={assistant} />);
    await screen.findByText(leadsUi.pageOf(1, 2), undefined, { timeout: 3000 });
    fireEvent.click(screen.getByRole("button", { name: new RegExp(leadsUi.next) }));
    await screen.findByText(leadsUi.pageOf(2, 2));
    expect(table().getByText("Person 200")).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: leadsUi.searchLabel }), { target: { value: "ac" } });
    fireEvent.change(screen.getByRole("searchbox", { name: leadsUi.searchLabel }), { target: { value: "acme" } });
    await elapse(LEADS_SEARCH_DEBOUNCE_MS + 50);
    await waitFor(() => expect(table().getByText("Person 7")).toBeTruthy());
    expect(asked).toEqual(["?page=1", "?page=2", "?page=1&q=acme"]);
    expect(screen.getByText(leadsUi.count(1))).toBeTruthy();
  });

  it("with no lead yet: says how leads arrive, and its button opens the form editor", async () => {
    formServer();
    server.use(http.get(`${base}/leads`, () => HttpResponse.json(page([]))));
    render(<LeadsPanel assistant={assistant} />);
    await screen.findByText(leadsUi.emptyOff);
    expect(screen.getByRole("button", { name: leadsUi.exportCsv }).hasAttribute("disabled")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: leadsUi.emptyAction }));
    expect(await screen.findByRole("switch", { name: F.enabled })).toBeTruthy();
  });

  it("while the first page loads shows a skeleton; a 5xx (after the client's retries) shows the error with Try again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    formServer();
    let fail = true;
    server.use(
      http.get(`${base}/leads`, async () => {
        await delay(100);
        return fail ? serverError() : HttpResponse.json(page([lead(1)]));
      }),
    );
    render(<LeadsPanel assistant={assistant} />);
    expect(screen.getByRole("status", { name: leadsUi.loading })).toBeTruthy();
    await elapse(9_000);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Internal server error");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: publicAssistantUi.screen.retry }));
    await waitFor(() => expect(table().getByText("Person 1")).toBeTruthy());
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("exports the CSV with the auth header under the server's file name; a failed export says so", async () => {
    formServer();
    localStorage.setItem(storageKeys.token, "tok_1");
    const auth: (string | null)[] = [];
    let fail = false;
    server.use(
      http.get(`${base}/leads`, () => HttpResponse.json(page([lead(1)]))),
      http.get(`${base}/leads/export`, ({ request }) => {
        auth.push(request.headers.get("authorization"));
        if (fail) return HttpResponse.json({ error: "Public assistant not found", code: "NOT_FOUND", requestId: "r" }, { status: 404 });
        return new HttpResponse('"Name"\n"Ada"\n', { headers: { "content-type": "text/csv", "content-disposition": 'attachment; filename="leads-pa1.csv"' } });
      }),
    );
    render(<LeadsPanel assistant={assistant} />);
    await waitFor(() => expect(table().getByText("Person 1")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: leadsUi.exportCsv }));
    await waitFor(() => expect(saved.blobs).toHaveLength(1));
    expect(saved.blobs[0]!.fileName).toBe("leads-pa1.csv");
    expect(await saved.blobs[0]!.blob.text()).toBe('"Name"\n"Ada"\n');
    expect(auth[0]).toBe("Token tok_1");
    fail = true;
    fireEvent.click(screen.getByRole("button", { name: leadsUi.exportCsv }));
    await waitFor(() => expect(toastStore.getState().current?.title).toBe("Public assistant not found"));
    localStorage.removeItem(storageKeys.token);
  });
});

describe("the lead form editor", () => {
  async function openEditor(form: LeadForm = defaultLeadForm) {
    formServer(form);
    server.use(http.get(`${base}/leads`, () => HttpResponse.json(page([lead(1)]))));
    render(<LeadsPanel assistant={assistant} />);
    fireEvent.click(await screen.findByRole("button", { name: F.edit }));
    return screen.findByRole("switch", { name: F.enabled });
  }

  it("refuses a text field without a label on that field, before any request", async () => {
    let puts = 0;
    server.use(http.put(`${base}/lead-form`, () => ((puts += 1), HttpResponse.json({ leadForm: defaultLeadForm }))));
    await openEditor();
    fireEvent.change(screen.getByLabelText(F.addFieldLabel), { target: { value: "text" } });
    fireEvent.click(screen.getByRole("button", { name: F.addField }));
    fireEvent.click(screen.getByRole("button", { name: F.save }));
    const label = screen.getAllByLabelText(F.labelIn("English"))[2]!;
    expect(label.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(label.getAttribute("aria-describedby")!)!.textContent).toBe(leadMessages.labelRequired);
    expect(puts).toBe(0);
  });

  it("saves the whole form, shows the server's 400 on the field it names, then saves once fixed", async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    server.use(
      http.put(`${base}/lead-form`, async ({ request }) => {
        const body = (await request.json()) as LeadForm;
        bodies.push(body);
        if (refuse)
          return HttpResponse.json(
            { error: leadMessages.labelTooLong(leadLimits.maxLabelChars), code: "VALIDATION_ERROR", requestId: "r", fields: { "fields.1.label.fr": leadMessages.labelTooLong(leadLimits.maxLabelChars) } },
            { status: 400 },
          );
        return HttpResponse.json({ leadForm: { ...defaultLeadForm, ...body } });
      }),
    );
    await openEditor();
    fireEvent.click(screen.getByRole("switch", { name: F.enabled }));
    // French texts: the labels and lines shown are the French ones; the preview follows.
    fireEvent.click(screen.getByRole("button", { name: F.languages.fr }));
    const emailFr = screen.getAllByLabelText(F.labelIn(F.languages.fr!))[1]!;
    fireEvent.change(emailFr, { target: { value: "Courriel" } });
    fireEvent.change(screen.getByLabelText(F.introLabel(F.languages.fr!)), { target: { value: "Laissez vos coordonnées" } });
    // The field is named by its owner's label when it has one.
    fireEvent.click(screen.getByRole("button", { name: F.moveUp("Courriel") }));
    fireEvent.change(screen.getByLabelText(F.afterMessages), { target: { value: "3" } });
    fireEvent.click(screen.getByRole("switch", { name: F.emailOwner }));
    fireEvent.click(screen.getByRole("button", { name: F.save }));
    await waitFor(() => expect(screen.getAllByLabelText(F.labelIn(F.languages.fr!))[1]!.getAttribute("aria-invalid")).toBe("true"));
    const refused = screen.getAllByLabelText(F.labelIn(F.languages.fr!))[1]!;
    expect(document.getElementById(refused.getAttribute("aria-describedby")!)!.textContent).toBe(leadMessages.labelTooLong(leadLimits.maxLabelChars));
    expect(bodies[0]).toEqual({
      ...defaultLeadForm,
      enabled: true,
      fields: [
        { key: "email", kind: "email", label: { fr: "Courriel" }, required: true },
        { key: "name", kind: "name", label: {}, required: false },
      ],
      intro: { fr: "Laissez vos coordonnées" },
      afterMessages: 3,
      emailOwner: false,
    });
    // Typing in the refused field clears its error; the next save goes through.
    fireEvent.change(refused, { target: { value: "E-mail" } });
    expect(refused.getAttribute("aria-invalid")).toBeNull();
    refuse = false;
    fireEvent.click(screen.getByRole("button", { name: F.save }));
    await waitFor(() => expect(toastStore.getState().current?.title).toBe(F.saved));
    expect(screen.queryByText(F.unsaved)).toBeNull();
    expect(screen.getByText(F.on)).toBeTruthy();
  });

  it("a 5xx on save is shown above the button; the draft stays", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(http.put(`${base}/lead-form`, serverError));
    await openEditor();
    fireEvent.click(screen.getByRole("switch", { name: F.whenAsked }));
    fireEvent.click(screen.getByRole("button", { name: F.save }));
    await elapse(9_000);
    expect((await screen.findByRole("alert")).textContent).toContain("Internal server error");
    expect(screen.getByRole("switch", { name: F.whenAsked }).getAttribute("aria-checked")).toBe("false");
    expect(screen.getByText(F.unsaved)).toBeTruthy();
  });

  it("a form that could not be loaded offers Try again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fail = true;
    server.use(
      http.get(`${base}/lead-form`, () => (fail ? serverError() : HttpResponse.json({ leadForm: defaultLeadForm }))),
      http.get(`${base}/leads`, () => HttpResponse.json(page([lead(1)]))),
    );
    render(<LeadsPanel assistant={assistant} />);
    await elapse(9_000);
    const alert = await screen.findByRole("alert");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: publicAssistantUi.screen.retry }));
    expect(await screen.findByRole("button", { name: F.edit })).toBeTruthy();
  });
});
