/**
 * One assistant's own page (/app/public-assistants/{id}): reached from its card, tabs in the
 * address (Back returns to the previous tab), a document uploaded in Knowledge, then a question in
 * the Playground answered from it (the E2E server has no model: offline mode answers with labelled
 * excerpts and their sources), which leaves the visitors' history empty; and a visitor's
 * conversation opened by its id (?tab=history&session=), as the Insights tab will.
 */
import {
  apiKeyResponse,
  appRoutes,
  publicAssistantResponse,
  insightsUi,
  publicAssistantUi,
  successMessages,
  widgetApiPaths,
  widgetMessages,
  widgetSessionResponse,
} from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";

const P = publicAssistantUi.page;
const SPA_NOTES = "Spa notes\n\nThe saffron hammam ritual lasts ninety minutes and ends with mint tea on the terrace.\n";

test("an owner manages an assistant on its own page: tabs, upload, Playground, a conversation by id", async ({ page, request }) => {
  test.setTimeout(120_000);
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("page"), password: "owner password 1", firstName: "Nadia", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Riad Concierge", description: "Answers guests" } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(appRoutes.publicAssistants);
  const toast = page.getByRole("status");

  // From the card to the page: Knowledge by default.
  await page.getByRole("article", { name: "Riad Concierge" }).getByRole("link", { name: P.openLabel("Riad Concierge") }).click();
  await expect(page).toHaveURL(new RegExp(`/app/public-assistants/${assistant._id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Riad Concierge" })).toBeVisible();
  await expect(page.getByText(publicAssistantUi.card.active, { exact: true })).toBeVisible();
  const tabs = page.getByRole("tablist", { name: P.tabsLabel });
  await expect(tabs.getByRole("tab")).toHaveText([...Object.values(P.tabs), insightsUi.title]);
  await expect(tabs.getByRole("tab", { name: P.tabs.knowledge })).toHaveAttribute("aria-selected", "true");

  // Upload in place, as the Upload Documents dialog does.
  await page.getByLabel(publicAssistantUi.upload.chooseFiles).setInputFiles({ name: "spa-notes.txt", mimeType: "text/plain", buffer: Buffer.from(SPA_NOTES) });
  await page.getByRole("button", { name: publicAssistantUi.upload.upload, exact: true }).click();
  await expect(toast).toContainText(successMessages.filesProcessed(1), { timeout: 30_000 });
  const files = page.getByRole("table", { name: publicAssistantUi.card.knowledgeBase });
  const row = files.getByRole("row").filter({ hasText: "spa-notes.txt" });
  // Name (the row's header), then Size, Uploaded (date with HH:mm), Status and Passages.
  await expect(row.getByRole("rowheader")).toHaveText("spa-notes.txt");
  await expect(row.getByRole("cell").nth(2)).toHaveText(publicAssistantUi.card.fileStatus.ready);
  await expect(row.getByRole("cell").nth(0)).toHaveText(/^\d+ B$/);
  await expect(row.getByRole("cell").nth(1)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$/);
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^[1-9]\d*$/);

  // The Playground answers from that file (offline: the excerpt and its source).
  await tabs.getByRole("tab", { name: P.tabs.playground }).click();
  await expect(page).toHaveURL(/\?tab=playground$/);
  const log = page.getByRole("log", { name: P.playground.conversationLabel });
  await page.getByLabel("Message", { exact: true }).fill("How long is the saffron hammam ritual?");
  await page.keyboard.press("Enter");
  await expect(log).toContainText(widgetMessages.offlineIntro);
  await expect(log).toContainText("ninety minutes");
  await expect(log.getByRole("button", { name: publicAssistantUi.session.showPassage("spa-notes.txt") })).toBeVisible();
  await expect(page.getByText(P.playground.left(19))).toBeVisible();

  // Keyboard: the arrow keys move between tabs, and the address follows. It left no visitor history.
  await tabs.getByRole("tab", { name: P.tabs.playground }).press("ArrowRight");
  await expect(tabs.getByRole("tab", { name: P.tabs.knowledge })).toBeFocused();
  await expect(page).toHaveURL(/\?tab=knowledge$/);
  await tabs.getByRole("tab", { name: P.tabs.history }).click();
  await expect(page).toHaveURL(/\?tab=history$/);
  await expect(page.getByText(publicAssistantUi.history.empty)).toBeVisible();

  // Back: the previous tabs again, the Playground's conversation still there.
  await page.goBack();
  await expect(tabs.getByRole("tab", { name: P.tabs.knowledge })).toHaveAttribute("aria-selected", "true");
  await page.goBack();
  await expect(page).toHaveURL(/\?tab=playground$/);
  await expect(tabs.getByRole("tab", { name: P.tabs.playground })).toHaveAttribute("aria-selected", "true");
  await expect(log).toContainText("ninety minutes");

  // A visitor's conversation, opened by its id.
  const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json());
  const key = { "x-assistant-key": apiKey };
  const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "", locale: "en" } })).json());
  const sent = await request.post(widgetApiPaths.messages(session.sessionId), { headers: key, data: { content: "Is there mint tea?", clientMessageId: "v1" } });
  expect(sent.status()).toBe(200);
  await sent.text();
  await page.goto(`${appRoutes.publicAssistant(assistant._id, "history")}&session=${session.sessionId}`);
  const detail = page.getByRole("dialog", { name: `${publicAssistantUi.session.title}: ${session.sessionId.slice(0, 8)}` });
  await expect(detail).toContainText("Is there mint tea?");
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  await expect(page).toHaveURL(/\?tab=history$/);
  await expect(page.getByRole("list", { name: publicAssistantUi.history.sessionsLabel })).toContainText("Is there mint tea?");
});
