import { createServer, type Server } from "node:http";
import {
  apiKeyResponse,
  appRoutes,
  authResponse,
  publicAssistantResponse,
  webSourceMessages,
  webSourceUi,
  widgetStrings,
} from "../../contract";
import { startTestSite } from "../test-site/server.mjs";
import { expect, test, uniqueEmail } from "./fixtures";
import { freePort } from "./server";

/**
 * Website sources as an owner meets them: tests/test-site (sitemap, robots.txt with a disallowed
 * path, a redirect, a 404, a PDF link) is added from the assistant's Knowledge tab and crawled in
 * the background by the E2E server's queue consumer (local mode crawls loopback); the page shows the
 * progress live, then each page's outcome. A visitor's widget on another site then answers from
 * the site (offline mode: excerpts) and links the page.
 */

let site: Awaited<ReturnType<typeof startTestSite>>;
let host: Server;
let hostOrigin = "";
let token = "";

test.beforeAll(async ({ request }) => {
  site = await startTestSite();
  const port = await freePort();
  host = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://host").searchParams;
    const attr = (v: string | null) => (v ?? "").replace(/[^\w:/.-]/g, "");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Harbor shop</title></head><body><p>Shop</p>
<script src="${attr(q.get("tala"))}/widget.js" data-assistant-key="${attr(q.get("key"))}" data-host="${attr(q.get("tala"))}" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(port, "127.0.0.1", resolve));
  hostOrigin = `http://127.0.0.1:${port}`;
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("sites"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve));
  await site?.close();
});

test("an owner adds their website; it is crawled in the background with live progress, and the widget answers from it with a link", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const auth = { Authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Harbor helper", showSources: true } });
  expect(created.status()).toBe(201);
  const { assistant } = publicAssistantResponse.parse(await created.json());

  await page.goto(`${baseURL}/login`);
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  await page.goto(`${baseURL}${appRoutes.publicAssistant(assistant._id, "knowledge")}`);

  const websites = page.getByRole("region", { name: webSourceUi.title });
  await websites.getByLabel(webSourceUi.urlLabel).fill(`${site.url}/`);
  await websites.getByRole("radio", { name: webSourceUi.scopes.site }).check();
  await websites.getByRole("button", { name: webSourceUi.add }).click();
  await expect(page.getByText(webSourceUi.added)).toBeVisible();

  // The crawl runs in the queue consumer; the row follows it until the site is read.
  const row = websites.getByRole("list", { name: webSourceUi.title }).getByRole("listitem").filter({ hasText: site.url }).first();
  await expect(row).toContainText(webSourceUi.status.ready, { timeout: 90_000 });
  await expect(row).toContainText(webSourceUi.progress(3, 6, 3));

  await row.getByRole("button", { name: new RegExp(webSourceUi.pages) }).click();
  const pages = row.getByRole("list", { name: `${webSourceUi.pages}: ${site.url}/` });
  await expect(pages).toContainText("Refund policy");
  await expect(pages).toContainText(webSourceMessages.page.blockedByRobots);
  await expect(pages).toContainText(webSourceMessages.page.httpStatus(404));
  await expect(pages).toContainText(webSourceMessages.page.notHtml("application/pdf"));

  // A visitor on another site asks; the answer comes from the crawled page and links it.
  const key = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json()).apiKey;
  await page.goto(`${hostOrigin}/?${new URLSearchParams({ tala: baseURL!, key })}`);
  await page.locator("tala-widget").getByRole("button", { name: widgetStrings.en.openChat }).click();
  const dialog = page.getByRole("dialog");
  const input = dialog.getByRole("textbox", { name: widgetStrings.en.messageLabel });
  await input.fill("How many days do I have to return a kettle for a refund?");
  await input.press("Enter");
  const log = dialog.getByRole("log");
  await expect(log).toContainText("45 days");
  // A web page's chip is named by its title; its passage, once shown, links to the page.
  await log.getByRole("button", { name: "Refund policy" }).first().click();
  const link = log.getByRole("link", { name: "Refund policy" }).first();
  await expect(link).toHaveAttribute("href", `${site.url}/new-page`);
  await expect(link).toHaveAttribute("target", "_blank");
});
