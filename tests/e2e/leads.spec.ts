/**
 * Lead capture, end to end: the owner sets a lead form (the API, as the dashboard's Leads tab
 * does), a visitor on ANOTHER origin (a small Node host page pasting the snippet) fills it in the
 * widget with the keyboard only, and the lead is in the owner's Leads list and CSV export, with
 * the trigger that showed it. Two ways in: the form required before the first message (English),
 * the visitor asking to be called back (French: the offer reply, no model, the form under it), and
 * nobody taking over in time when a person was asked for (the form asks for the address instead).
 * After a reload, the owner's thank-you line is back where it was, and the form is not asked again.
 * axe on the widget with the form and its errors. The E2E server has no model.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { authResponse, inboxResponse, leadFormResponse, leadMessages, leadsResponse, widgetStrings, type LeadFormInput, type PublicAssistantBody } from "../../contract";
import { expectNoAxeFindings, shot } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

const en = widgetStrings.en;
const fr = widgetStrings.fr;

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let token = "";
const auth = () => ({ Authorization: `Token ${token}` });

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const tala = attrValue(q.get("tala"));
    const lang = attrValue(q.get("lang")) || "en";
    return `<!doctype html><html lang="${lang}"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dune Tours</title></head>
<body><h1>Dune Tours</h1><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
  });
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("leads"), password: "owner password 1", firstName: "Sam", lastName: "Lee" } });
  expect(res.status()).toBe(201);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

/** A new assistant of the owner with its lead form set and on. */
async function assistantWithForm(request: APIRequestContext, form: LeadFormInput, config: PublicAssistantBody["config"] = {}) {
  const a = await createAssistantWithKey(request, auth(), { name: "Dune Tours", config });
  const res = await request.put(`/api/public-assistants/${a.id}/lead-form`, { headers: auth(), data: { enabled: true, ...form } });
  expect(res.status()).toBe(200);
  expect(leadFormResponse.parse(await res.json()).leadForm.enabled).toBe(true);
  return a;
}

/** The visitor's page on the host site, the widget opened: its panel. */
async function openWidget(page: Page, tala: string, key: string, lang = "en") {
  await page.goto(`${host!.origin}/?${new URLSearchParams({ tala, key, lang })}`);
  const strings = widgetStrings[lang as "en"];
  await page.locator("tala-widget").getByRole("button", { name: strings.openChat, expanded: false }).click();
  return page.locator("tala-widget").getByRole("dialog");
}

/**
 * The widget's scripts the page fetches (the loader, the core, each chunk by name without its hash),
 * in order: what bench/widget-size.mjs counts for this kind of visitor must be what a browser downloads.
 */
function widgetScripts(page: Page) {
  const seen: string[] = [];
  page.on("request", (r) => {
    const m = /\/(widget(?:-core)?\.js|widget-chunks\/[\w-]+)(?:\.[0-9a-f]{8}\.js)?$/.exec(new URL(r.url()).pathname);
    if (m) seen.push(m[1]!);
  });
  return seen;
}

async function leadsOf(request: APIRequestContext, assistantId: string) {
  const res = await request.get(`/api/public-assistants/${assistantId}/leads`, { headers: auth() });
  expect(res.status()).toBe(200);
  return leadsResponse.parse(await res.json());
}

test("required before the first message: the visitor fills the form with the keyboard, then writes; the lead is in the Leads list and export", async ({ browser, request, baseURL }, testInfo) => {
  const a = await assistantWithForm(request, {
    fields: [
      { key: "name", kind: "name" },
      { key: "email", kind: "email", required: true },
      { key: "phone", kind: "phone" },
    ],
    beforeFirstMessage: "required",
    intro: { en: "Tell us who you are before we start." },
    thanks: { en: "Thanks! Ask away." },
  });
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await visitor.newPage();
    const scripts = widgetScripts(page);
    const dialog = await openWidget(page, baseURL!, a.key);
    const form = dialog.getByRole("form", { name: "Tell us who you are before we start." });
    await expect(form).toBeVisible();
    // What the bench counts for this kind (English, the form before the first message): the core and one lead file.
    expect(scripts).toEqual(["widget.js", "widget-core.js", "widget-chunks/lead-en"]);
    // The composer waits for the form, and says why.
    await expect(dialog.getByRole("textbox", { name: en.messageLabel })).toBeDisabled();
    await expect(dialog.getByText(en.leadFirst)).toBeVisible();
    await expect(form.getByRole("button", { name: en.leadNotNow })).toHaveCount(0);
    // Focus starts in the form; Enter sends it; the missing address is said under its field, and focus goes there.
    const name = form.getByLabel(en.leadKinds.name, { exact: true });
    const email = form.getByLabel(`${en.leadKinds.email} (${en.leadRequired})`, { exact: true });
    await expect(name).toBeFocused();
    await page.keyboard.type("Ann Lee");
    await page.keyboard.press("Enter");
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(en.leadMissing(en.leadKinds.email));
    await expect(form.getByRole("alert")).toHaveText(en.leadFix);
    await expectNoAxeFindings(page);
    await shot(page, testInfo, "lead-form-errors");
    await page.keyboard.type("ann@dune.example");
    await page.keyboard.press("Tab");
    await page.keyboard.type("+212 6 12 34 56 78");
    await page.keyboard.press("Enter");
    // The owner's thanks in the conversation; the visitor may write now.
    const log = dialog.getByRole("log");
    await expect(log).toContainText("Thanks! Ask away.");
    await expect(form).toHaveCount(0);
    const input = dialog.getByRole("textbox", { name: en.messageLabel });
    await expect(input).toBeEnabled();
    await expect(input).toBeFocused();

    const { leads, total } = await leadsOf(request, a.id);
    expect(total).toBe(1);
    const sessionId = await page.evaluate((id) => localStorage.getItem(`tala:session:${id}`), a.id);
    expect(leads[0]).toMatchObject({ sessionId, trigger: "before-first-message" });
    expect(leads[0]!.values.map((v) => [v.key, v.value])).toEqual([
      ["name", "Ann Lee"],
      ["email", "ann@dune.example"],
      ["phone", "+212 6 12 34 56 78"],
    ]);
    const csv = await request.get(`/api/public-assistants/${a.id}/leads/export`, { headers: auth() });
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('"ann@dune.example"');

    // Not asked again in this conversation, after a reload either; the owner's thanks are still there.
    await page.reload();
    const again = await openWidget(page, baseURL!, a.key);
    await expect(again.getByRole("log")).toContainText("Thanks! Ask away.");
    await expect(again.getByRole("textbox", { name: en.messageLabel })).toBeEnabled();
    await expect(again.locator("form.n")).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});

test("in French, asking to be called back: the offer reply with the form under it, in French; the lead says it was asked", async ({ browser, request, baseURL }) => {
  const a = await assistantWithForm(request, { whenAsked: true, whenUnanswered: false });
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "fr-FR" });
  try {
    const page = await visitor.newPage();
    const scripts = widgetScripts(page);
    const dialog = await openWidget(page, baseURL!, a.key, "fr");
    const input = dialog.getByRole("textbox", { name: fr.messageLabel });
    await input.fill("Pouvez-vous me rappeler ?");
    await input.press("Enter");
    const log = dialog.getByRole("log");
    await expect(log).toContainText(leadMessages.offerReply.fr);
    const form = log.getByRole("form", { name: fr.leadIntro });
    await expect(form).toBeVisible();
    const email = form.getByLabel(`${fr.leadKinds.email} (${fr.leadRequired})`, { exact: true });
    await email.fill("pas-une-adresse");
    await email.press("Enter");
    await expect(email).toHaveAccessibleDescription(fr.leadEmail);
    await email.fill("ines@dune.example");
    await email.press("Enter");
    await expect(log).toContainText(fr.leadThanks);
    // A French visitor loads the form with its French texts in one file (never the English one beside it).
    expect(scripts).toEqual(["widget.js", "widget-core.js", "widget-chunks/fr", "widget-chunks/lead-fr"]);
    const { leads } = await leadsOf(request, a.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ trigger: "asked" });
    expect(leads[0]!.values).toEqual([expect.objectContaining({ key: "email", value: "ines@dune.example" })]);
    // After a reload the conversation reads as it did: the thanks after the offer, and no form.
    await page.reload();
    const again = (await openWidget(page, baseURL!, a.key, "fr")).getByRole("log");
    await expect(again.locator(".m1")).toContainText(["Pouvez-vous me rappeler ?", leadMessages.offerReply.fr, fr.leadThanks]);
    await expect(again.locator("form.n")).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});

test("nobody took over in time: the lead form asks for the address instead of the bare field; the lead and the reply's address reach the owner", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const emailAfterMinutes = 1;
  const a = await assistantWithForm(request, {}, { handoff: { visitorAction: true, emailAfterMinutes } });
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    // The widget's clock is Playwright's, moved past the time the server set; the server's state stays real.
    const page = await visitor.newPage();
    await page.clock.install();
    const dialog = await openWidget(page, baseURL!, a.key);
    await dialog.getByRole("button", { name: en.talkToPerson }).click();
    await expect(dialog.getByRole("status").filter({ hasText: en.waiting })).toBeVisible();
    await page.clock.fastForward((emailAfterMinutes * 60 + 5) * 1000);
    const form = dialog.getByRole("form", { name: en.emailAsk });
    await expect(form).toBeVisible({ timeout: 5_000 });
    // One address field: the form's, not the handoff's own beside it.
    await expect(dialog.getByRole("textbox", { name: en.emailLabel })).toHaveCount(0);
    const email = form.getByLabel(`${en.leadKinds.email} (${en.leadRequired})`, { exact: true });
    await email.fill("omar@dune.example");
    await email.press("Enter");
    await expect(dialog.getByRole("log")).toContainText(en.leadThanks);
    await expect(form).toHaveCount(0);
    // Still waiting for a person.
    await expect(dialog.getByRole("status").filter({ hasText: en.waiting })).toBeVisible();

    const { leads } = await leadsOf(request, a.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ trigger: "handoff" });
    const inbox = inboxResponse.parse(await (await request.get(`/api/public-assistants/${a.id}/inbox`, { headers: auth() })).json());
    expect(inbox.conversations.find((c) => c.sessionId === leads[0]!.sessionId)?.contactEmail).toBe("omar@dune.example");
  } finally {
    await visitor.close();
  }
});
