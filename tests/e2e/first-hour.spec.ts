/**
 * The owner's first hour: an empty Create dialog says what is missing; a new assistant lands on its
 * page with the checklist, whose steps tick from real state; Settings and Playground open without
 * moving the page or its focus, with the live preview beside the form (sticky) on a wide screen and
 * behind a toggle on a phone; theme, language, availability line and avatar; a colour that is not
 * one is refused with its sentence; a website address without a scheme gets https:// and its error
 * is said once; the delete question names what goes and asks for the name once visitors chatted.
 * At 1280×800 and 390×844, light and dark, axe with no serious or critical finding.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import {
  appRoutes,
  assistantLifecycleUi as D,
  authResponse,
  avatarMessages,
  confirmations,
  onboardingUi as U,
  playgroundUi,
  publicAssistantResponse,
  publicAssistantUi,
  webSourceMessages,
  webSourceUi,
  widgetApiPaths,
  widgetLookUi as W,
  widgetStrings,
} from "../../contract";
import { expectNoAxeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";

const F = publicAssistantUi.form;
const P = publicAssistantUi.page;
/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

async function owner(request: APIRequestContext) {
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("firsthour"), password: "correct horse battery", firstName: "Nadia" } });
  expect(res.ok()).toBe(true);
  return authResponse.parse(await res.json()).token;
}

async function signIn(page: Page, token: string, path: string) {
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(path);
}

const checklist = (page: Page) => page.getByRole("region", { name: U.title });
const openTab = (page: Page, name: string) => page.getByRole("tablist", { name: P.tabsLabel }).getByRole("tab", { name }).click();
/** Whether focus sits inside the embedded widget (a shadow root under tala-widget). */
const focusInWidget = (page: Page) => page.evaluate(() => document.activeElement?.tagName.toLowerCase() === "tala-widget");

for (const scheme of ["light", "dark"] as const) {
  test(`create, land on the checklist, customise beside the live preview, try, install (1280×800, ${scheme})`, async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    const token = await owner(request);
    await signIn(page, token, appRoutes.publicAssistants);

    // An empty Create dialog says what is missing; nothing is created.
    await page.getByRole("button", { name: publicAssistantUi.screen.createFirst }).click();
    const create = page.getByRole("dialog", { name: F.createTitle });
    await create.getByRole("button", { name: F.create }).click();
    await expect(create.getByText(D.nameRequired)).toBeVisible();
    await expect(create.getByLabel(F.name)).toHaveAttribute("aria-invalid", "true");
    await shot(page, testInfo, `create-empty-${scheme}`);
    // The pointer still rests on Create: its hover colour keeps white text readable, dark included.
    await expectNoAxeFindings(page);
    await create.getByLabel(F.name).fill("Atlas Rugs");
    await create.getByRole("button", { name: F.create }).click();

    // Straight to the new assistant, with its checklist: nothing done yet.
    await expect(page).toHaveURL(/\/app\/public-assistants\/[^/?]+/);
    const id = /public-assistants\/([^/?]+)/.exec(page.url())![1]!;
    await expect(checklist(page)).toContainText(U.progress(0, 5));
    await expectNoAxeFindings(page);
    await shot(page, testInfo, `checklist-${scheme}`);

    // Settings: the page does not move, focus stays out of the preview; the preview sits beside the form.
    await checklist(page).getByRole("button", { name: U.steps.customise.action }).click();
    await expect(page).toHaveURL(/tab=settings/);
    const preview = page.getByRole("region", { name: playgroundUi.previewLabel });
    await expect(preview.locator("tala-widget").getByRole("dialog")).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await focusInWidget(page)).toBe(false);
    const form = page.getByRole("form", { name: F.editTitle });
    const [formBox, previewBox] = await Promise.all([form.boundingBox(), preview.boundingBox()]);
    expect(previewBox!.x).toBeGreaterThan(formBox!.x + formBox!.width - 1);
    // Sticky: far down the form, the preview is still on screen.
    await page.getByLabel(F.allowedOrigins).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await expect(preview).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));

    // "teal-ish" stays as typed and is refused with the sentence; nothing is sent.
    const puts: string[] = [];
    page.on("request", (r) => r.method() === "PUT" && puts.push(r.url()));
    const color = page.getByLabel(F.primaryColor, { exact: true });
    await color.fill("teal-ish");
    await color.blur();
    await expect(color).toHaveValue("teal-ish");
    await expect(page.getByText(W.colorInvalid("teal-ish"))).toBeVisible();
    await page.getByRole("button", { name: F.save }).click();
    await expect(page.getByText(W.colorInvalid("teal-ish"))).toBeVisible();
    expect(puts).toEqual([]);
    await color.fill("#0F766E");
    await expect(page.getByText(W.colorInvalid("teal-ish"))).toBeHidden();
    // A field reached by the keyboard below the fold stays clear of the sticky Save bar.
    await page.evaluate(() => window.scrollTo(0, 0));
    const below = page.getByLabel(W.availabilityLine, { exact: true });
    await below.focus();
    const [belowBox, barBox] = await Promise.all([below.boundingBox(), page.locator("[data-sticky-actions]").boundingBox()]);
    expect(belowBox!.y + belowBox!.height).toBeLessThanOrEqual(barBox!.y);

    // Theme, language, availability line; the avatar is uploaded when chosen.
    await page.getByRole("group", { name: W.theme }).getByLabel(W.themes.dark).check();
    await page.getByRole("group", { name: W.language }).getByLabel(W.languages.fr).check();
    await page.getByLabel(W.availabilityLine, { exact: true }).fill("Nous répondons en une heure");
    await page.getByRole("group", { name: avatarMessages.label }).locator("input[type=file]").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await expect(page.getByRole("status").filter({ hasText: avatarMessages.uploaded })).toBeVisible();
    await expect(page.getByRole("img", { name: avatarMessages.current })).toBeVisible();
    // The preview shows them as a visitor would: the avatar and the line in the header, the texts in French.
    const previewWidget = preview.locator("tala-widget");
    await expect(previewWidget.getByRole("img", { name: "Atlas Rugs" })).toBeVisible();
    await expect(previewWidget.getByText("Nous répondons en une heure")).toBeVisible();
    await expect(previewWidget.getByRole("button", { name: widgetStrings.fr.closeChat }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: playgroundUi.previewUnsaved })).toBeVisible();
    await shot(page, testInfo, `settings-${scheme}`);
    await expectNoAxeFindings(page);
    await page.getByRole("button", { name: F.save }).click();
    await expect(page.getByRole("heading", { name: playgroundUi.previewTitle, exact: true })).toBeVisible();
    const saved = publicAssistantResponse.parse(await (await request.get(`/api/public-assistants/${id}`, { headers: { authorization: `Token ${token}` } })).json()).assistant;
    expect(saved.config.customization).toMatchObject({ primaryColor: "#0F766E", theme: "dark", language: "fr", availabilityLine: "Nous répondons en une heure" });
    expect(saved.config.customization.avatarUrl).toMatch(/\/api\/widget\/avatar\//);
    const avatar = await request.get(new URL(saved.config.customization.avatarUrl).pathname);
    expect(avatar.headers()["content-type"]).toBe("image/png");
    expect(Buffer.from(await avatar.body())).toEqual(PNG);
    await expect(checklist(page)).toContainText(U.progress(1, 5));

    // Playground: opening it moves nothing either; one message ticks its step.
    await page.evaluate(() => window.scrollTo(0, 0));
    await openTab(page, P.tabs.playground);
    const stage = page.getByRole("region", { name: playgroundUi.stageLabel }).locator("tala-widget");
    await expect(stage.getByRole("dialog")).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await focusInWidget(page)).toBe(false);
    // Its labels follow the chosen language once the widget renders it: found by role alone.
    await stage.getByRole("textbox").fill("Bonjour");
    await page.keyboard.press("Enter");
    await expect(checklist(page)).toContainText(U.progress(2, 5), { timeout: 20_000 });

    // Install: copying the snippet ticks it.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await openTab(page, P.tabs.code);
    await page.getByRole("button", { name: publicAssistantUi.code.copy, exact: true }).click();
    await expect(checklist(page)).toContainText(U.progress(3, 5));

    // Hidden, then back from the link.
    await checklist(page).getByRole("button", { name: U.dismiss }).click();
    await expect(checklist(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole("button", { name: U.restore })).toBeVisible();
    await expectNoAxeFindings(page);
    await page.getByRole("button", { name: U.restore }).click();
    await expect(checklist(page)).toContainText(U.progress(3, 5));
  });

  test(`on a phone the preview is one toggle away; nothing scrolls sideways (390×844, ${scheme})`, async ({ page, request }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    const token = await owner(request);
    const created = await request.post("/api/public-assistants", { headers: { authorization: `Token ${token}` }, data: { name: "Souk Help" } });
    const { assistant } = publicAssistantResponse.parse(await created.json());
    await signIn(page, token, appRoutes.publicAssistant(assistant._id));
    await expect(checklist(page)).toBeVisible();
    await shot(page, testInfo, `phone-checklist-${scheme}`);
    expect((await sidewaysOverflow(page)).overflow).toBe(0);

    await openTab(page, P.tabs.settings);
    const preview = page.getByRole("region", { name: playgroundUi.previewLabel });
    await expect(preview).toBeHidden();
    expect(await focusInWidget(page)).toBe(false);
    const toggle = page.getByRole("button", { name: W.showPreview });
    await toggle.click();
    await expect(preview).toBeVisible();
    await expect(page.getByRole("button", { name: W.hidePreview })).toHaveAttribute("aria-expanded", "true");
    expect(await focusInWidget(page)).toBe(false);
    await shot(page, testInfo, `phone-preview-${scheme}`);
    expect((await sidewaysOverflow(page)).overflow).toBe(0);
    await expectNoAxeFindings(page);

    await page.getByLabel(F.primaryColor, { exact: true }).fill("teal-ish");
    await page.getByRole("button", { name: F.save }).click();
    await expect(page.getByText(W.colorInvalid("teal-ish"))).toBeVisible();
    await page.getByLabel(F.primaryColor, { exact: true }).scrollIntoViewIfNeeded();
    await shot(page, testInfo, `phone-color-error-${scheme}`);

    await openTab(page, P.tabs.playground);
    await expect(page.getByRole("region", { name: playgroundUi.stageLabel }).locator("tala-widget").getByRole("dialog")).toBeVisible();
    expect(await focusInWidget(page)).toBe(false);
    expect((await sidewaysOverflow(page)).overflow).toBe(0);
  });
}

test("the delete question names what goes, and asks for the name once visitors chatted", async ({ page, request }, testInfo) => {
  const token = await owner(request);
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Kasbah Desk" } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const up = await request.post(`/api/public-assistants/${assistant._id}/files`, {
    headers: auth,
    multipart: { files: { name: "rooms.txt", mimeType: "text/plain", buffer: Buffer.from("Rooms\n\nEvery room has a view of the Atlas.\n") } },
  });
  expect(up.status()).toBe(201);
  const key = ((await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json()) as { apiKey: string }).apiKey;
  expect((await request.post(widgetApiPaths.sessions, { headers: { "x-assistant-key": key }, data: {} })).status()).toBe(201);

  await signIn(page, token, appRoutes.publicAssistant(assistant._id, "settings"));
  await page.getByRole("button", { name: publicAssistantUi.card.delete, exact: true }).click();
  const question = page.getByRole("alertdialog", { name: confirmations.deleteAssistant.title });
  await expect(question).toContainText(D.deleteTitle("Kasbah Desk"));
  await expect(question).toContainText(D.deleteDocuments(1));
  await expect(question).toContainText(D.deleteConversations(1));
  const confirm = question.getByRole("button", { name: publicAssistantUi.confirm.delete });
  await expect(confirm).toBeDisabled();
  await question.getByLabel(D.typeName("Kasbah Desk")).fill("Kasbah");
  await expect(confirm).toBeDisabled();
  await question.getByLabel(D.typeName("Kasbah Desk")).fill("Kasbah Desk");
  await expectNoAxeFindings(page);
  await shot(page, testInfo, "delete-question");
  await confirm.click();
  await expect(page).toHaveURL(new RegExp(`${appRoutes.publicAssistants}$`));
  expect((await request.get(`/api/public-assistants/${assistant._id}`, { headers: auth })).status()).toBe(404);
});

test("a website address without a scheme gets https://, and its error is said once", async ({ page, request }) => {
  const token = await owner(request);
  const created = await request.post("/api/public-assistants", { headers: { authorization: `Token ${token}` }, data: { name: "Web reader" } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const sent: unknown[] = [];
  await page.route(`**/api/public-assistants/${assistant._id}/sources`, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    sent.push(route.request().postDataJSON());
    return route.continue();
  });
  await signIn(page, token, appRoutes.publicAssistant(assistant._id, "knowledge"));
  const address = page.getByLabel(webSourceUi.urlLabel);
  // "not a url" becomes https://not a url, which the server refuses: one sentence, under the field only.
  await address.fill("not a url");
  await page.getByRole("button", { name: webSourceUi.add }).click();
  await expect(page.getByText(webSourceMessages.urlInvalid)).toHaveCount(1);
  await expect(address).toHaveAttribute("aria-invalid", "true");
  expect(sent).toEqual([expect.objectContaining({ url: "https://not a url" })]);
  await expectNoAxeFindings(page);
});
