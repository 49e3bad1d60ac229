/**
 * The dashboard at a desktop's and a phone's size, light and dark: no page scrolls sideways and
 * axe finds nothing serious or critical on any of them (an owner with an assistant that has a
 * document, conversations and insights); the app's frame while the session check runs; on the
 * phone's chat screen one drawer (the menu, with the chats) and no keyboard hint on a touch
 * screen; a guest's chat list in dark mode.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { apiKeyResponse, appMessages, appRoutes, chatUi, publicAssistantResponse, widget, widgetApiPaths, widgetSessionResponse } from "../../contract";
import { axeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";

const sizes = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

/** A signed-up owner with an assistant that has a document and three visitor conversations (so History and Insights have rows). */
async function seededOwner(request: APIRequestContext) {
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("layout"), password: "owner password 1", firstName: "Salma", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Dar Zellij front desk, the guests' helper", description: "Answers guests" } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const upload = await request.post(`/api/public-assistants/${assistant._id}/files`, {
    headers: auth,
    multipart: { files: { name: "a-rather-long-file-name-for-the-knowledge-table-on-a-phone.txt", mimeType: "text/plain", buffer: Buffer.from("Breakfast is served from 7 to 10 on the roof terrace. Mint tea all day.") } },
  });
  expect(upload.status()).toBe(201);
  const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json());
  const key = { [widget.keyHeader]: apiKey };
  for (const [i, content] of ["When is breakfast served?", "when is breakfast servd", "Is there mint tea on the terrace all afternoon?"].entries()) {
    const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "https://dar-zellij.example/rooms?utm=a-very-long-query", locale: "en" } })).json());
    const sent = await request.post(widgetApiPaths.messages(session.sessionId), { headers: key, data: { content, clientMessageId: `m${i}` } });
    expect(sent.status()).toBe(200);
    await sent.text();
  }
  return { token, assistantId: assistant._id };
}

async function signedInPage(browser: Browser, baseURL: string | undefined, size: (typeof sizes)[number], token: string, colorScheme: "light" | "dark" = "light") {
  const context = await browser.newContext({ baseURL, viewport: size.viewport, isMobile: size.touch, hasTouch: size.touch, colorScheme });
  const page = await context.newPage();
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  return { context, page };
}

/** Waits until the page has settled (no skeleton or spinner status left) before measuring. */
async function settled(page: Page) {
  await expect(page.getByRole("status").filter({ hasText: appMessages.loading })).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState("networkidle").catch(() => undefined);
}

for (const size of sizes) {
  test(`every dashboard page fits the ${size.name}'s width and passes axe, light and dark`, async ({ browser, baseURL, request }, testInfo) => {
    test.setTimeout(240_000);
    const { token, assistantId } = await seededOwner(request);
    const paths = [
      appRoutes.newChat,
      appRoutes.history,
      appRoutes.projects,
      appRoutes.publicAssistants,
      appRoutes.settings,
      appRoutes.team,
      ...["playground", "knowledge", "settings", "code", "history", "leads", "insights", "webhooks"].map((tab) => appRoutes.publicAssistant(assistantId, tab)),
    ];
    for (const scheme of ["light", "dark"] as const) {
      const { context, page } = await signedInPage(browser, baseURL, size, token, scheme);
      const problems: string[] = [];
      for (const path of paths) {
        await page.goto(path);
        await settled(page);
        const { overflow, widest } = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${path} scrolls ${overflow} px sideways: ${widest.join(", ")}`);
        for (const finding of await axeFindings(page)) problems.push(`${path} axe ${finding.id} (${finding.impact}): ${finding.targets.join(", ")}`);
        if (scheme === "dark" || size.name === "phone") await shot(page, testInfo, `${scheme}-${path.replace(/[/?=&]+/g, "_").replace(assistantId, "id")}`);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });
}

test("while the session check runs the app shows its frame and 'Loading...', not a blank page", async ({ browser, baseURL, request }, testInfo) => {
  const { token } = await seededOwner(request);
  for (const size of sizes) {
    const { context, page } = await signedInPage(browser, baseURL, size, token);
    // Hold the session check back until the frame has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/me", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(appRoutes.settings);
    const status = page.getByRole("status").filter({ hasText: appMessages.loading });
    await expect(status).toBeVisible();
    await expect(page.getByRole("main")).toBeVisible();
    await expect(page.getByText("Tala", { exact: true }).first()).toBeVisible();
    expect((await sidewaysOverflow(page)).overflow).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, testInfo, `frame-${size.name}`);
    release();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(status).toHaveCount(0);
    await context.close();
  }
});

test("on a phone the chat screen has one drawer, the menu with the chats; a touch screen gets no keyboard hint", async ({ browser, baseURL, request }, testInfo) => {
  const { token } = await seededOwner(request);
  const phone = await signedInPage(browser, baseURL, sizes[1], token, "dark");
  const page = phone.page;
  await page.goto(appRoutes.newChat);
  await expect(page.getByRole("heading", { name: chatUi.greeting })).toBeVisible();
  await expect(page.getByText(chatUi.greetingHint)).toBeVisible();
  await expect(page.getByText(chatUi.keyboardHint)).toHaveCount(0);
  await expect(page.getByRole("button", { name: chatUi.openChats })).toHaveCount(0);

  // A chat to list: sent from the composer.
  await page.getByRole("textbox", { name: chatUi.composerLabel }).fill("Hello from the phone");
  await page.getByRole("button", { name: chatUi.send }).click();
  await expect(page).toHaveURL(/chat=/);
  const chatUrl = page.url();
  await page.getByRole("button", { name: chatUi.newChat }).click();
  await expect(page).toHaveURL(/\/app\/new-chat$/);

  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["New Chat", "History", "Projects", "Public Assistants", "Team", "Settings"]);
  const chats = menu.getByRole("navigation", { name: chatUi.chats });
  await expect(chats.getByRole("link")).toHaveCount(1);
  await expect(page.getByRole("dialog")).toHaveCount(1);
  expect(await axeFindings(page)).toEqual([]);
  await shot(page, testInfo, "phone-menu-with-chats");
  await chats.getByRole("link").first().click();
  await expect(menu).toBeHidden();
  expect(page.url()).toBe(chatUrl);
  await phone.context.close();

  // A desktop with a mouse keeps the hint and its chats column.
  const desktop = await signedInPage(browser, baseURL, sizes[0], token);
  await desktop.page.goto(appRoutes.newChat);
  await expect(desktop.page.getByText(chatUi.keyboardHint)).toBeVisible();
  await expect(desktop.page.getByRole("complementary", { name: chatUi.chats })).toBeVisible();
  await desktop.context.close();
});

test("a guest's chat list in dark mode: the way to an account is readable (axe, both sizes)", async ({ browser, baseURL }, testInfo) => {
  for (const size of sizes) {
    const context = await browser.newContext({ baseURL, viewport: size.viewport, isMobile: size.touch, hasTouch: size.touch, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await expect(page).toHaveURL(/\/app\/new-chat/);
    if (size.touch) {
      await page.getByRole("button", { name: "Open menu" }).click();
    }
    const cta = page.getByRole("link", { name: chatUi.guestHistoryCta });
    await expect(cta).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, testInfo, `guest-dark-${size.name}`);
    await context.close();
  }
});
