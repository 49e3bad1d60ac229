import { createServer, type Server } from "node:http";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiKeyResponse, authResponse, publicAssistantResponse, widgetStrings } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { freePort } from "./server";

/**
 * Tala's security headers as a browser meets them (worker/http/security-headers.ts, served by the
 * Worker and by dist/public/_headers): every page, script and API answer carries them, the
 * dashboard cannot be framed by another site, and the widget still runs on another origin.
 */

let host: Server;
let hostOrigin = "";

/** A page on another origin: `/frame?src=` frames a URL, `/shop?tala=&key=` pastes the widget snippet. */
test.beforeAll(async () => {
  const port = await freePort();
  host = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host");
    const attr = (v: string | null) => (v ?? "").replace(/[^\w:/.?=&-]/g, "");
    const body =
      url.pathname === "/frame"
        ? `<iframe id="victim" src="${attr(url.searchParams.get("src"))}" width="600" height="400"></iframe>`
        : `<p>A shop</p><script src="${attr(url.searchParams.get("tala"))}/widget.js" data-assistant-key="${attr(url.searchParams.get("key"))}" data-host="${attr(url.searchParams.get("tala"))}" async></script>`;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Another site</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(port, "127.0.0.1", resolve));
  hostOrigin = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve));
});

/** Records CSP violations (event and console) of every document the page loads. */
async function watchCsp(page: Page) {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|connect|apply|frame)/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`Refused to load (CSP ${e.violatedDirective}): ${e.blockedURI}`));
  });
  return violations;
}

test.describe("headers on every answer", () => {
  for (const path of ["/", "/faq", "/app", "/login", "/blog/no-such-post"]) {
    test(`${path}: a page policy that allows nothing from elsewhere and no framing`, async ({ request }) => {
      const res = await request.get(path, { maxRedirects: 0 });
      const h = res.headers();
      expect(h["content-type"]).toMatch(/^text\/html/);
      const csp = h["content-security-policy"] ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*(;| )/);
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(h["x-frame-options"]).toBe("DENY");
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["permissions-policy"]).toContain("camera=()");
      // Local http: never HSTS (a browser would pin the loopback address to https).
      expect(h["strict-transport-security"]).toBeUndefined();
    });
  }

  for (const path of ["/widget.js", "/widget-core.js"]) {
    test(`${path}: loadable from any site, never run as a document`, async ({ request }) => {
      const h = (await request.get(path)).headers();
      expect(h["content-type"]).toMatch(/^text\/javascript/);
      expect(h["cross-origin-resource-policy"]).toBe("cross-origin");
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(h["x-frame-options"]).toBeUndefined();
    });
  }

  test("an API answer and an API error: nothing may load or frame them", async ({ request }) => {
    for (const res of [await request.get("/api/health"), await request.get("/api/chats")]) {
      const h = res.headers();
      expect(h["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["x-frame-options"]).toBe("DENY");
    }
  });
});

test("another site cannot frame the dashboard", async ({ page, baseURL }) => {
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refusals.push(m.text());
  });
  await page.goto(`${hostOrigin}/frame?src=${encodeURIComponent(`${baseURL}/app`)}`);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  // The blocked frame never holds Tala's document: no dashboard root, no Tala origin.
  expect(frame?.url().startsWith(baseURL!)).not.toBe(true);
  expect(await page.frameLocator("#victim").locator("#root").count()).toBe(0);
});

test("the pages run under their policy without a single violation", async ({ page }) => {
  const violations = await watchCsp(page);
  for (const path of ["/", "/faq", "/blog", "/login", "/register", "/app"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  // The dashboard really rendered (its scripts ran), and the marketing pages' inline scripts did.
  await expect(page.locator("#root")).not.toBeEmpty();
  expect(violations).toEqual([]);
});

async function ownerAssistant(request: APIRequestContext) {
  const reg = await request.post("/api/auth/register", { data: { email: uniqueEmail("csp"), password: "correct horse battery", firstName: "Owner" } });
  expect(reg.ok()).toBe(true);
  const headers = { Authorization: `Token ${authResponse.parse(await reg.json()).token}` };
  const created = await request.post("/api/public-assistants", { headers, data: { name: "Headers shop" } });
  expect(created.status()).toBe(201);
  const id = publicAssistantResponse.parse(await created.json()).assistant._id;
  const upload = await request.post(`/api/public-assistants/${id}/files`, {
    headers,
    multipart: { files: { name: "kettle.txt", mimeType: "text/plain", buffer: Buffer.from("The Quibble kettle boils in ninety seconds.\n") } },
  });
  expect(upload.status()).toBe(201);
  const key = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${id}/raw-api-key`, { headers })).json()).apiKey;
  return key;
}

test("the widget still runs on another origin with the headers on", async ({ page, request, baseURL }) => {
  const key = await ownerAssistant(request);
  const violations = await watchCsp(page);
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await page.goto(`${hostOrigin}/shop?tala=${encodeURIComponent(baseURL!)}&key=${encodeURIComponent(key)}`);
  const en = widgetStrings.en;
  await page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
  const dialog = page.getByRole("dialog");
  const input = dialog.getByRole("textbox", { name: en.messageLabel });
  await input.fill("How fast does the Quibble kettle boil?");
  await input.press("Enter");
  await expect(dialog.getByRole("log")).toContainText("ninety seconds");
  expect(sockets.some((u) => u.includes("/parties/widget/"))).toBe(true);
  expect(violations).toEqual([]);
});
