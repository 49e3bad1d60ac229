/**
 * Starter questions: the owner writes them in the Settings tab (or takes them from the visitors'
 * top questions), the live preview and the Playground show them; a visitor on another site opens
 * the widget, sees them as chips under the welcome message, clicks one and gets the answer (the
 * E2E server has no model: offline mode answers with labelled excerpts), on a desktop and a phone.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import {
  appRoutes,
  authResponse,
  playgroundUi,
  publicAssistantResponse,
  publicAssistantUi,
  qaMessages,
  starterQuestionLimits as SQ,
  widgetApiPaths,
  widgetSessionResponse,
  widgetStrings,
  type PublicAssistantBody,
} from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

const en = widgetStrings.en;
const F = publicAssistantUi.form;
const SHOP_NOTES =
  "Shipping\n\nEvery order of argan oil ships within two days from our Essaouira workshop.\n\n" +
  "Delivery\n\nWe deliver to Marrakech, Fes and Casablanca by courier.\n";
const SHIPPING = "How long does shipping take?";
const DELIVERY = "Do you deliver to Marrakech?";

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let token = "";

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const tala = attrValue(q.get("tala"));
    return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Argan shop</title></head>
<body><h1>Argan shop</h1><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
  });
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("starter"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

const auth = () => ({ Authorization: `Token ${token}` });

async function shopAssistant(request: APIRequestContext, body: PublicAssistantBody = {}) {
  const created = await createAssistantWithKey(request, auth(), { name: "Argan help", showSources: true, ...body });
  const res = await request.post(`/api/public-assistants/${created.id}/files`, {
    headers: auth(),
    multipart: { files: { name: "shop-notes.txt", mimeType: "text/plain", buffer: Buffer.from(SHOP_NOTES) } },
  });
  expect(res.status()).toBe(201);
  return created;
}

/** An earlier visitor's question, asked over the widget's HTTP API: it counts in the owner's top questions. */
async function earlierVisitorAsks(request: APIRequestContext, key: string, question: string) {
  const headers = { "x-assistant-key": key };
  const started = await request.post(widgetApiPaths.sessions, { headers, data: {} });
  expect(started.status()).toBe(201);
  const { sessionId } = widgetSessionResponse.parse(await started.json());
  const sent = await request.post(widgetApiPaths.messages(sessionId), { headers, data: { content: question, clientMessageId: `c-${Date.now()}` } });
  expect(sent.status()).toBe(200);
  await sent.text();
}

const chipsOf = (scope: ReturnType<Page["locator"]>) => scope.getByRole("group", { name: en.suggested }).getByRole("button");

test("the owner writes one starter question and takes one from the top questions; the preview and the Playground show them", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { id, key } = await shopAssistant(request);
  await earlierVisitorAsks(request, key, DELIVERY);

  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(appRoutes.publicAssistant(id, "settings"));

  const first = page.getByLabel(F.starterQuestion(1), { exact: true });
  await first.fill(SHIPPING);
  await expect(page.getByText(F.starterQuestionCount(SHIPPING.length, SQ.maxChars), { exact: true })).toBeVisible();
  await page.getByRole("button", { name: F.suggestStarterQuestions }).click();
  await expect(page.getByLabel(F.starterQuestion(2), { exact: true })).toHaveValue(DELIVERY);
  await expect(page.getByRole("status")).toContainText(F.suggestedStarterQuestions(1));

  // A question over the limit says so at its field; removing it puts things back.
  await page.getByRole("button", { name: F.addStarterQuestion }).click();
  const third = page.getByLabel(F.starterQuestion(3), { exact: true });
  await expect(third).toBeFocused();
  await third.fill("x".repeat(SQ.maxChars + 1));
  await expect(page.getByText(qaMessages.starterQuestionTooLong(SQ.maxChars))).toBeVisible();
  await page.getByRole("button", { name: F.removeStarterQuestion(3) }).click();
  await expect(third).toHaveCount(0);

  // The live preview follows, unsaved.
  const preview = page.getByRole("region", { name: playgroundUi.previewLabel }).locator("tala-widget");
  await expect(chipsOf(preview)).toHaveText([SHIPPING, DELIVERY]);
  await expect(page.getByRole("heading", { name: playgroundUi.previewUnsaved })).toBeVisible();

  await page.getByRole("button", { name: F.save }).click();
  await expect(page.getByRole("heading", { name: playgroundUi.previewTitle, exact: true })).toBeVisible();
  const saved = publicAssistantResponse.parse(await (await request.get(`/api/public-assistants/${id}`, { headers: auth() })).json()).assistant;
  expect(saved.config.customization.starterQuestions).toEqual([SHIPPING, DELIVERY]);

  // The Playground: a chip asks its question; the chips go once the conversation has a message.
  await page.getByRole("tablist", { name: publicAssistantUi.page.tabsLabel }).getByRole("tab", { name: publicAssistantUi.page.tabs.playground }).click();
  const playground = page.getByRole("region", { name: playgroundUi.stageLabel }).locator("tala-widget");
  await chipsOf(playground).filter({ hasText: SHIPPING }).click();
  const log = playground.getByRole("log");
  await expect(log.locator(".u")).toContainText(SHIPPING);
  await expect(log).toContainText("within two days");
  await expect(chipsOf(playground)).toHaveCount(0);
});

for (const [label, viewport, blockSocket] of [
  ["desktop", { width: 1280, height: 800 }, false],
  ["phone 390×844", { width: 390, height: 844 }, false],
  ["socket blocked: SSE", { width: 1280, height: 800 }, true],
] as const) {
  test(`a visitor on another site sees the starter questions, clicks one and gets the answer (${label})`, async ({ page, request, baseURL }) => {
    await page.setViewportSize(viewport);
    // A network that refuses WebSockets: the chip's message goes by POST …/messages read as SSE, as typed ones do.
    const posted: string[] = [];
    if (blockSocket) await page.routeWebSocket(/\/parties\/widget\//, (ws) => ws.close());
    page.on("request", (r) => {
      if (r.url().endsWith("/messages") && r.method() === "POST") posted.push(r.url());
    });
    const { key } = await shopAssistant(request, { config: { customization: { starterQuestions: [SHIPPING, DELIVERY] } } });
    await page.goto(`${host!.origin}/?${new URLSearchParams({ tala: baseURL!, key })}`);
    await page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
    const dialog = page.getByRole("dialog", { name: "Tala Assistant" });
    const chips = chipsOf(dialog);
    await expect(chips).toHaveText([SHIPPING, DELIVERY]);
    // Within the screen, below the welcome message.
    for (const chip of await chips.all()) {
      const box = (await chip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    const welcome = (await dialog.getByRole("log").locator(".m1").first().boundingBox())!;
    expect((await chips.first().boundingBox())!.y).toBeGreaterThan(welcome.y);

    // Keyboard: a chip is a button in the Tab order.
    await chips.nth(1).focus();
    await page.keyboard.press("Enter");
    const log = dialog.getByRole("log");
    await expect(log.locator(".u")).toContainText(DELIVERY);
    await expect(log).toContainText("Marrakech, Fes and Casablanca");
    await expect(chips).toHaveCount(0);
    await expect(dialog.getByRole("textbox", { name: en.messageLabel })).toBeFocused();
    expect(posted).toHaveLength(blockSocket ? 1 : 0);

    // Reloaded, the conversation comes back, without the chips.
    await page.reload();
    await page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
    await expect(page.getByRole("dialog").getByRole("log")).toContainText("Marrakech, Fes and Casablanca");
    await expect(chipsOf(page.getByRole("dialog"))).toHaveCount(0);
  });
}
