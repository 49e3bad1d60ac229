/**
 * One assistant's own page (/app/public-assistants/{id}): reached from its card, tabs in the
 * address (Back returns to the previous tab), a document uploaded in Knowledge, then a question in
 * the Playground answered from it (the E2E server has no model: offline mode answers with labelled
 * excerpts and their sources) by the real widget, open on a framed page, which leaves the
 * visitors' history empty; and a visitor's conversation opened by its id (?tab=history&session=),
 * as the Insights tab will. Then the Settings tab's preview: the same widget follows the form's
 * unsaved values.
 */
import {
  apiKeyResponse,
  appRoutes,
  publicAssistantResponse,
  inboxUi,
  insightsUi,
  leadsUi,
  webhooksUi,
  chatHistoryResponse,
  playgroundUi,
  publicAssistantDefaults,
  publicAssistantUi,
  successMessages,
  widgetApiPaths,
  widgetMessages,
  widgetSessionResponse,
  widgetStrings,
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
  await expect(tabs.getByRole("tab")).toHaveText([P.tabs.playground, P.tabs.knowledge, P.tabs.settings, P.tabs.code, inboxUi.tab, P.tabs.history, leadsUi.tab, insightsUi.title, webhooksUi.tab]);
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

  // The Playground: the real widget, open on a framed page, answers from that file (offline: the
  // excerpt and its source), through the playground endpoint only: no visitor session is opened.
  const widgetCalls: string[] = [];
  page.on("request", (r) => new URL(r.url()).pathname.startsWith("/api/widget/") && widgetCalls.push(r.url()));
  await tabs.getByRole("tab", { name: P.tabs.playground }).click();
  await expect(page).toHaveURL(/\?tab=playground$/);
  const stage = page.getByRole("region", { name: playgroundUi.stageLabel });
  const widget = stage.locator("tala-widget").getByRole("dialog", { name: publicAssistantDefaults.config.customization.headerText });
  await expect(widget).toBeVisible();
  await expect(stage.locator("tala-widget").getByRole("button", { name: widgetStrings.en.closeChat, expanded: true })).toBeVisible();
  const log = widget.getByRole("log");
  await expect(log).toContainText(publicAssistantDefaults.config.customization.welcomeMessage);
  await widget.getByRole("textbox", { name: widgetStrings.en.messageLabel }).fill("How long is the saffron hammam ritual?");
  await page.keyboard.press("Enter");
  await expect(log).toContainText(widgetMessages.offlineIntro);
  await expect(log).toContainText("ninety minutes");
  // The source is a chip that reveals its passage, as in the public widget.
  const source = log.getByRole("button", { name: "spa-notes.txt" }).first();
  await source.click();
  await expect(source).toHaveAttribute("aria-expanded", "true");
  await expect(log.locator(`[id="${await source.getAttribute("aria-controls")}"]`)).toContainText("saffron hammam");
  await expect(page.getByText(P.playground.left(19))).toBeVisible();
  expect(widgetCalls).toEqual([]);
  const chats = chatHistoryResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/chats`, { headers: auth })).json());
  expect(chats.sessions).toEqual([]);

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
  // Titled by the visitor's first question; its id (first 8 characters) is in its details.
  const detail = page.getByRole("dialog", { name: "Is there mint tea?" });
  await expect(detail).toContainText(session.sessionId.slice(0, 8));
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  await expect(page).toHaveURL(/\?tab=history$/);
  await expect(page.getByRole("list", { name: publicAssistantUi.history.sessionsLabel })).toContainText("Is there mint tea?");
});

test("the Settings tab's preview is the real widget following the form's unsaved values; saved, the Playground shows them", async ({ page, request }) => {
  test.setTimeout(90_000);
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("preview"), password: "owner password 1", firstName: "Idris", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Dune Tours" } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const saved = async () => publicAssistantResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}`, { headers: auth })).json()).assistant;
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(appRoutes.publicAssistant(assistant._id, "settings"));
  const F = publicAssistantUi.form;
  const defaults = publicAssistantDefaults.config.customization;

  const preview = page.getByRole("region", { name: playgroundUi.previewLabel });
  const widget = (name: string) => preview.locator("tala-widget").getByRole("dialog", { name });
  await expect(widget(defaults.headerText)).toBeVisible();
  await expect(widget(defaults.headerText)).toContainText(defaults.welcomeMessage);
  await expect(widget(defaults.headerText).locator(".h")).toHaveCSS("background-color", "rgb(41, 98, 255)");
  await expect(page.getByRole("heading", { name: playgroundUi.previewTitle, exact: true })).toBeVisible();

  // Typing changes the widget at once, unsaved (every setting is on screen: the form is in sections).
  await page.getByLabel(F.headerText, { exact: true }).fill("Desert help");
  await page.getByLabel(F.primaryColor, { exact: true }).fill("#0F766E");
  await page.getByLabel(F.welcomeMessage, { exact: true }).fill("Salam! Ask about our camel treks.");
  await expect(widget("Desert help").locator(".h")).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(widget("Desert help")).toContainText("Salam! Ask about our camel treks.");
  await expect(page.getByRole("heading", { name: playgroundUi.previewUnsaved })).toBeVisible();
  // The corner too: top left puts the launcher in the frame's top-left corner.
  await page.getByRole("radio", { name: F.positions["top-left"] }).check();
  const launcher = preview.locator("tala-widget").getByRole("button", { name: widgetStrings.en.closeChat, expanded: true });
  const [frame, button] = await Promise.all([preview.boundingBox(), launcher.boundingBox()]);
  expect(button!.x - frame!.x).toBeLessThan(frame!.width / 3);
  expect(button!.y - frame!.y).toBeLessThan(frame!.height / 3);
  // Attachments: the widget offers them at once; the Playground takes files only once saved.
  await page.getByRole("switch", { name: F.allowAttachments }).click();
  await expect(preview.locator("tala-widget").getByRole("button", { name: widgetStrings.en.attach })).toBeVisible();
  await expect(page.getByText(playgroundUi.attachmentsNotSaved)).toBeVisible();
  expect((await saved()).config.customization.headerText).toBe(defaults.headerText);

  // Saved: the label says so, and the Playground's widget has the new looks.
  await page.getByRole("button", { name: F.save }).click();
  await expect(page.getByRole("heading", { name: playgroundUi.previewTitle, exact: true })).toBeVisible();
  expect((await saved()).config.customization).toMatchObject({ headerText: "Desert help", primaryColor: "#0F766E" });
  await page.getByRole("tablist", { name: P.tabsLabel }).getByRole("tab", { name: P.tabs.playground }).click();
  const playground = page.getByRole("region", { name: playgroundUi.stageLabel }).locator("tala-widget").getByRole("dialog", { name: "Desert help" });
  await expect(playground.locator(".h")).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(page.getByText(playgroundUi.attachmentsNotSaved)).toBeHidden();

  // A text file attached in the Playground goes with the message, as the widget sends it.
  await playground.locator("input[type=file]").setInputFiles({ name: "itinerary.txt", mimeType: "text/plain", buffer: Buffer.from("Day 1: Merzouga dunes.") });
  await playground.getByRole("textbox", { name: widgetStrings.en.messageLabel }).fill("What is on day 1?");
  await page.keyboard.press("Enter");
  const log = playground.getByRole("log");
  await expect(log).toContainText("itinerary.txt");
  // The welcome message, then the answer (nothing refused the file).
  await expect(log.locator(".m1:not(.u):not(.ty)")).toHaveCount(2);
  await expect(playground.getByRole("alert")).toHaveCount(0);

  // The widget's "+" starts over (after asking): the conversation is gone, the welcome is back.
  await playground.getByRole("button", { name: widgetStrings.en.newConversation }).click();
  await playground.getByRole("alertdialog").getByRole("button", { name: widgetStrings.en.newConversation }).click();
  await expect(log).not.toContainText("itinerary.txt");
  await expect(log).toContainText("Salam! Ask about our camel treks.");
});
