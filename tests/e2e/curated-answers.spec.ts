/**
 * From an insight to a fix: a visitor on another site rates an answer down; the owner opens
 * Insights, "Improve this answer", and saves a curated answer (exact) from the editor prefilled
 * with the visitor's question; a new visitor asks the same thing in other words and gets the
 * curated answer, word for word, its source the site's own answer. On a desktop and on a phone.
 * The E2E server has no model: the first answer is offline mode's labelled excerpts.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { appRoutes, authResponse, insightsUi, qaListResponse, qaMessages, qaUi, widgetStrings } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

const en = widgetStrings.en;
const CURATED = "Send it back within 30 days with the prepaid label in the parcel: the refund reaches you within 5 days.";

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let token = "";

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const tala = attrValue(q.get("tala"));
    return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>A shop</title></head>
<body><h1>A shop</h1><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
  });
  // One owner for the file (registration is throttled per IP).
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("curated"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

const auth = () => ({ Authorization: `Token ${token}` });

async function newAssistant(request: APIRequestContext) {
  const assistant = await createAssistantWithKey(request, auth(), { name: "Shop assistant", showSources: true });
  const res = await request.post(`/api/public-assistants/${assistant.id}/files`, {
    headers: auth(),
    multipart: { files: { name: "policies.txt", mimeType: "text/plain", buffer: Buffer.from("Returns\n\nAn unworn item can be returned within 30 days.\n") } },
  });
  expect(res.status()).toBe(201);
  return assistant;
}

/** A visitor's page on the host site, the widget opened. */
async function openWidget(page: Page, tala: string, key: string) {
  await page.goto(`${host!.origin}/?${new URLSearchParams({ tala, key })}`);
  await page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
  return page.getByRole("dialog").getByRole("log");
}

async function ask(page: Page, question: string) {
  const input = page.getByRole("dialog").getByRole("textbox", { name: en.messageLabel });
  await input.fill(question);
  await input.press("Enter");
}

const sizes = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];

for (const size of sizes) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test(`a rated-down answer is improved from Insights and a paraphrase gets the curated answer (${size.name})`, async ({ browser, page, request, baseURL }) => {
      test.setTimeout(90_000);
      const { id, key } = await newAssistant(request);

      // A visitor asks and rates the answer down.
      const log = await openWidget(page, baseURL!, key);
      await ask(page, "How do I return an item?");
      await expect(log).toContainText("30 days");
      const notHelpful = log.getByRole("button", { name: en.notHelpful, exact: true });
      await notHelpful.click();
      await expect(notHelpful).toHaveAttribute("aria-pressed", "true");

      // The owner: Insights → the rated answer → Improve this answer, prefilled with the visitor's question.
      await page.goto(`${baseURL}/login`);
      await page.evaluate((t) => {
        localStorage.setItem("token", t);
        sessionStorage.setItem("tala:verifyBannerDismissed", "1");
      }, token);
      await page.goto(`${baseURL}${appRoutes.publicAssistant(id, "insights")}`);
      const rated = page.getByRole("region", { name: insightsUi.ratedAnswers }).getByRole("listitem").filter({ hasText: "How do I return an item?" });
      await expect(rated).toContainText(insightsUi.notHelpful);
      await rated.getByRole("button", { name: qaUi.improve }).click();
      const editor = page.getByRole("dialog", { name: qaUi.improve });
      await expect(editor.getByLabel(qaUi.editor.question, { exact: true })).toHaveValue("How do I return an item?");
      await expect(editor.getByLabel(qaUi.editor.answer, { exact: true })).not.toHaveValue("");
      await editor.getByLabel(qaUi.editor.answer, { exact: true }).fill(CURATED);
      await editor.getByRole("radio", { name: qaUi.modes.exact.choice }).check();
      await editor.getByRole("button", { name: qaUi.editor.save }).click();
      await expect(page.getByRole("status").filter({ hasText: qaUi.editor.created })).toBeVisible();
      await expect(editor).toBeHidden();

      // Saved as a pair (exact), listed in the Knowledge tab.
      const list = qaListResponse.parse(await (await request.get(`/api/public-assistants/${id}/qa`, { headers: auth() })).json());
      expect(list.qa).toHaveLength(1);
      expect(list.qa[0]).toMatchObject({ question: "How do I return an item?", answer: CURATED, mode: "exact" });
      await page.goto(`${baseURL}${appRoutes.publicAssistant(id, "knowledge")}`);
      await expect(page.getByRole("table", { name: qaUi.listLabel })).toContainText("How do I return an item?");

      // A new visitor asks in other words and gets the curated answer, its source the site's own answer.
      const visitor = await browser.newContext({ viewport: size.viewport });
      try {
        const visitorPage = await visitor.newPage();
        const visitorLog = await openWidget(visitorPage, baseURL!, key);
        await ask(visitorPage, "how can I return an item?");
        await expect(visitorLog).toContainText(CURATED);
        await expect(visitorLog).toContainText(qaMessages.sourceLabel);
      } finally {
        await visitor.close();
      }
    });
  });
}
