import { createHmac } from "node:crypto";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { authResponse, identitySecretCreated, visitorIdentityMessages, widgetStrings, type PublicAssistantBody } from "../../contract";
import { expectNoAxeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

/**
 * The widget's polish as a visitor on another site meets it, at 1280×800 and 390×844, light and
 * dark: the owner's theme, avatar and availability line (the config's fields, added to the real
 * server's answer by the test where the server does not send them yet), the animated typing dots
 * (static under reduced motion), an attachment's chip above the input, a signed visitor whose token
 * is refused (the host page's refresh asked first), and a switched-off assistant with the owner's
 * contact line. axe on the open widget; screenshots in the test's output folder.
 */
const en = widgetStrings.en;
const CONTACT = "Write to help@shop.example or call +33 1 23 45 67 89";
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
// An 8×8 PNG, teal.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEElEQVR4nGNgaGjAjoaWBADiMEABWMSWggAAAABJRU5ErkJggg==", "base64");

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let token = "";

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const tala = attrValue(q.get("tala"));
    return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>A shop</title></head>
<body><main><h1>A shop</h1><p>Some host content</p></main><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
  });
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("widget-moments"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});
test.afterAll(async () => {
  await host?.close();
});

const auth = () => ({ Authorization: `Token ${token}` });
const createAssistant = (request: APIRequestContext, body: PublicAssistantBody = {}) =>
  createAssistantWithKey(request, auth(), { name: "Shop assistant", ...body, config: { ...body.config, customization: { headerText: "Shop help", contactLine: CONTACT, ...body.config?.customization } } });
const hostPage = (tala: string, key: string) => `${host!.origin}/?${new URLSearchParams({ tala, key })}`;
const panel = (page: Page) => page.getByRole("dialog");
const launcher = (page: Page) => page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false });
/** A value read inside the widget's shadow root. */
const inside = <T>(page: Page, fn: (root: ShadowRoot) => T) => page.evaluate(`(${fn.toString()})(document.querySelector("tala-widget").shadowRoot)`) as Promise<T>;

/** The owner's look, as the config will carry it (theme, avatar, availability line), added to the server's answer. */
async function ownerLook(page: Page, baseURL: string, look: Record<string, unknown>) {
  await page.route(`${baseURL}/api/widget/config`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { assistant: Record<string, unknown> };
    await route.fulfill({ response: res, json: { ...body, assistant: { ...body.assistant, ...look } } });
  });
}

async function check(page: Page, testInfo: TestInfo, name: string) {
  expect((await sidewaysOverflow(page)).overflow).toBe(0);
  await expectNoAxeFindings(page);
  await shot(page, testInfo, name);
}

for (const size of SIZES) {
  for (const scheme of ["light", "dark"] as const) {
    test(`the owner's theme overrides the visitor's ${scheme} system; avatar and availability line in the header (${size.name})`, async ({ page, request, baseURL }, testInfo) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      const { key } = await createAssistant(request);
      // The owner picked the other theme than the visitor's system.
      const theme = scheme === "light" ? "dark" : "light";
      await ownerLook(page, baseURL!, { theme, avatarUrl: "/e2e-avatar.png", availabilityLine: "We usually reply within an hour" });
      await page.route(`${baseURL}/e2e-avatar.png`, (route) => route.fulfill({ contentType: "image/png", body: PNG }));
      await page.goto(hostPage(baseURL!, key));
      await launcher(page).click();
      await expect(panel(page)).toBeVisible();
      const header = await inside(page, (root) => {
        const img = root.querySelector(".h img") as HTMLImageElement;
        const box = root.querySelector(".av")!.getBoundingClientRect();
        return { bg: getComputedStyle(root.querySelector(".p")!).backgroundColor, alt: img.alt, loaded: img.complete && img.naturalWidth > 0, box: [box.width, box.height] };
      });
      expect(header).toEqual({ bg: theme === "dark" ? "rgb(20, 23, 28)" : "rgb(255, 255, 255)", alt: "Shop assistant", loaded: true, box: [32, 32] });
      await expect(panel(page)).toContainText("We usually reply within an hour");
      await check(page, testInfo, `look-${theme}-${size.name}`);
    });
  }

  test(`an avatar that fails to load leaves its initial in the same box: nothing moves (${size.name})`, async ({ page, request, baseURL }, testInfo) => {
    await page.setViewportSize(size);
    const { key } = await createAssistant(request);
    await ownerLook(page, baseURL!, { avatarUrl: "/e2e-missing.png", availabilityLine: "Online" });
    await page.route(`${baseURL}/e2e-missing.png`, (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto(hostPage(baseURL!, key));
    await launcher(page).click();
    await expect(panel(page)).toBeVisible();
    await expect.poll(() => inside(page, (root) => (root.querySelector(".h img") as HTMLImageElement).hidden)).toBe(true);
    const box = await inside(page, (root) => {
      const r = root.querySelector(".av")!.getBoundingClientRect();
      return [r.width, r.height, getComputedStyle(root.querySelector(".av")!, "::before").content];
    });
    expect(box).toEqual([32, 32, '"S" / ""']);
    await check(page, testInfo, `avatar-fallback-${size.name}`);
  });

  test(`the typing dots move, and stand still under reduced motion; an attachment's chip sits above the input (${size.name})`, async ({ page, request, baseURL }, testInfo) => {
    await page.setViewportSize(size);
    const { key } = await createAssistant(request, { config: { allowAttachments: true } });
    // The socket is blocked, so the reply goes over HTTP, held for a moment: the dots show meanwhile.
    await page.addInitScript(() => {
      window.WebSocket = class extends EventTarget {
        readyState = 3;
        onclose: ((e: unknown) => void) | null = null;
        constructor() {
          super();
          setTimeout(() => this.onclose?.({ code: 1006 }), 0);
        }
        send() {}
        close() {}
      } as unknown as typeof WebSocket;
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${baseURL}/api/widget/sessions/*/messages`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(hostPage(baseURL!, key));
    await launcher(page).click();
    const input = panel(page).getByRole("textbox", { name: en.messageLabel });
    const widthBefore = (await input.boundingBox())!.width;
    await panel(page).locator("input[type=file]").setInputFiles({ name: "a-rather-long-order-confirmation-file-name.txt", mimeType: "text/plain", buffer: Buffer.from("Order 1234") });
    const chip = panel(page).getByRole("button", { name: en.removeFile("a-rather-long-order-confirmation-file-name.txt") });
    await expect(chip).toBeVisible();
    const [chipBox, inputBox] = [(await chip.boundingBox())!, (await input.boundingBox())!];
    expect(chipBox.y + chipBox.height).toBeLessThanOrEqual(inputBox.y);
    expect(inputBox.width).toBe(widthBefore);
    await shot(page, testInfo, `attachment-${size.name}`);

    await input.fill("Where is my order?");
    await input.press("Enter");
    const dots = panel(page).getByRole("status").filter({ hasText: en.thinking });
    await expect(dots).toBeAttached();
    expect(await inside(page, (root) => [...root.querySelectorAll(".ty i")].map((i) => getComputedStyle(i).animationName))).toEqual(["b", "b", "b"]);
    await check(page, testInfo, `typing-${size.name}`);
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await inside(page, (root) => [...root.querySelectorAll(".ty i")].map((i) => getComputedStyle(i).animationName))).toEqual(["none", "none", "none"]);
    release();
    await expect(dots).toHaveCount(0, { timeout: 20_000 });
  });
}

/** A token as the README's Node example makes it. */
function userToken(secret: string, claims: Record<string, unknown>) {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const data = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}`;
  return `${data}.${createHmac("sha256", secret).update(data).digest("base64url")}`;
}

for (const scheme of ["light", "dark"] as const) {
  test(`a signed visitor's expired token: the page's refresh is asked once; without a new one, a plain sentence and the contact line (${scheme}, both sizes)`, async ({ page, request, baseURL }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    const { id, key } = await createAssistant(request);
    const created = await request.post(`/api/public-assistants/${id}/identity-secret`, { headers: auth(), data: {} });
    const { secret } = identitySecretCreated.parse(await created.json());
    const expired = userToken(secret, { sub: "member-7", exp: Math.floor(Date.now() / 1000) - 3600 });
    const fresh = userToken(secret, { sub: "member-7", name: "Amina" });

    // The config's contact line (customization.contactLine), as the config will carry it.
    await ownerLook(page, baseURL!, { contactLine: CONTACT });
    // The host page renews it: the conversation goes on.
    await page.setViewportSize(SIZES[0]);
    await page.goto(hostPage(baseURL!, key));
    await page.waitForFunction(() => "Tala" in window);
    await page.evaluate(
      ([bad, good]) => {
        const w = window as unknown as { Tala: { identify(t: string, r: () => Promise<string>): void }; calls: number };
        w.calls = 0;
        w.Tala.identify(bad!, async () => (w.calls++, good!));
      },
      [expired, fresh],
    );
    await launcher(page).click();
    let input = panel(page).getByRole("textbox", { name: en.messageLabel });
    await input.fill("Hello");
    await input.press("Enter");
    await expect.poll(() => page.evaluate(() => (window as unknown as { calls: number }).calls)).toBe(1);
    // The answer came (the visitor's message and the assistant's), with no refusal shown.
    await expect(panel(page).getByRole("log").locator(".m1:not(.u)")).not.toHaveCount(0);
    await expect(panel(page).getByRole("alert")).toHaveCount(0);

    // Next page, the same expired token and the host page has no new one: opening resumes the
    // conversation, refused: the plain sentence, the owner's contact, the composer off.
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(hostPage(baseURL!, key));
      await page.waitForFunction(() => "Tala" in window);
      await page.evaluate((bad) => (window as unknown as { Tala: { identify(t: string, r: () => null): void } }).Tala.identify(bad, () => null), expired);
      await launcher(page).click();
      input = panel(page).getByRole("textbox", { name: en.messageLabel });
      const alert = panel(page).getByRole("alert");
      await expect(alert).toContainText(en.tokenExpired);
      await expect(alert).toContainText(CONTACT);
      await expect(panel(page)).not.toContainText("HS256");
      await expect(panel(page)).not.toContainText(visitorIdentityMessages.tokenExpired);
      await expect(input).toBeDisabled();
      await check(page, testInfo, `token-refused-${scheme}-${size.name}`);
    }
  });

  test(`a switched-off assistant: the launcher stays, the panel says why with the owner's contact line (${scheme}, both sizes)`, async ({ page, request, baseURL }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    const { id, key } = await createAssistant(request);
    const put = await request.put(`/api/public-assistants/${id}`, { headers: auth(), data: { isActive: false } });
    expect(put.status()).toBe(200);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(hostPage(baseURL!, key));
      await launcher(page).click();
      const alert = panel(page).getByRole("alert");
      await expect(alert).toContainText(en.unavailable);
      await expect(alert).toContainText(CONTACT);
      await expect(panel(page).getByRole("textbox", { name: en.messageLabel })).toBeDisabled();
      await check(page, testInfo, `switched-off-${scheme}-${size.name}`);
    }
  });
}
