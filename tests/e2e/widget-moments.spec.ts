import { createHmac } from "node:crypto";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { authResponse, identitySecretCreated, visitorIdentityMessages, widget, widgetApiPaths, widgetSessionResponse, widgetStrings, type PublicAssistantBody } from "../../contract";
import { expectNoAxeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

/**
 * The widget's polish as a visitor on another site meets it, at 1280×800 and 390×844, light and
 * dark: the owner's theme, fixed language, uploaded avatar (and one that fails to load) and
 * availability line, all set through the owner's API; the animated typing dots (static under
 * reduced motion), an attachment's chip above the input, a signed visitor whose token is refused
 * (the host page's refresh asked first; a new conversation's unsent message keeps its contrast), a
 * paused assistant (French), one over its conversation's limit (Arabic) and a switched-off one,
 * each with the owner's contact line (its e-mail and phone as links). axe on the open widget;
 * screenshots in the test's output folder.
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
<body><main><h1>A shop</h1><p>Some host content</p></main><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}"${q.get("locale") ? ` data-locale="${attrValue(q.get("locale"))}"` : ""} async></script></body></html>`;
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

/** The owner uploads the assistant's avatar (PUT …/avatar, the raw image): the config carries its address from then on. */
async function uploadAvatar(request: APIRequestContext, id: string) {
  const res = await request.put(`/api/public-assistants/${id}/avatar`, { headers: { ...auth(), "content-type": "image/png" }, data: PNG });
  expect(res.status()).toBe(200);
}
/** The contact line's e-mail address and phone number are links (a tap writes or calls). */
async function expectReachable(page: Page) {
  const alert = panel(page).getByRole("alert");
  await expect(alert.getByRole("link", { name: "help@shop.example" })).toHaveAttribute("href", "mailto:help@shop.example");
  await expect(alert.getByRole("link", { name: "+33 1 23 45 67 89" })).toHaveAttribute("href", "tel:+33123456789");
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
      // The owner picked the other theme than the visitor's system.
      const theme = scheme === "light" ? "dark" : "light";
      const { id, key } = await createAssistant(request, { config: { customization: { theme, availabilityLine: "We usually reply within an hour" } } });
      await uploadAvatar(request, id);
      await page.goto(hostPage(baseURL!, key));
      await launcher(page).click();
      await expect(panel(page)).toBeVisible();
      // The avatar arrives over the network after the panel shows: wait for it, then read the header.
      await expect.poll(() => inside(page, (root) => {
        const img = root.querySelector(".h img") as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      })).toBe(true);
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

  test(`an avatar that fails to load leaves its initial in the same box: nothing moves; the owner's fixed language (${size.name})`, async ({ page, request, baseURL }, testInfo) => {
    await page.setViewportSize(size);
    // French fixed by the owner, on an English page in an English browser.
    const { id, key } = await createAssistant(request, { config: { customization: { language: "fr", availabilityLine: "En ligne" } } });
    await uploadAvatar(request, id);
    // The image does not arrive (a network failure), whatever the server holds.
    await page.route(`${baseURL}/api/widget/avatar/**`, (route) => route.abort());
    await page.goto(hostPage(baseURL!, key));
    await page.locator("tala-widget").getByRole("button", { name: widgetStrings.fr.openChat }).click();
    await expect(panel(page)).toBeVisible();
    await expect(panel(page)).toHaveAttribute("lang", "fr");
    await expect(panel(page).getByRole("textbox", { name: widgetStrings.fr.messageLabel })).toHaveAttribute("placeholder", widgetStrings.fr.placeholder);
    await expect(panel(page)).toContainText("En ligne");
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
  test(`a signed visitor's expired token: the page's refresh is asked once; without a new one (nothing, or a throw), a plain sentence and the contact line (${scheme}, both sizes)`, async ({ page, request, baseURL }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    const { id, key } = await createAssistant(request);
    const created = await request.post(`/api/public-assistants/${id}/identity-secret`, { headers: auth(), data: {} });
    const { secret } = identitySecretCreated.parse(await created.json());
    const expired = userToken(secret, { sub: "member-7", exp: Math.floor(Date.now() / 1000) - 3600 });
    const fresh = userToken(secret, { sub: "member-7", name: "Amina" });

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

    // A new conversation (nothing stored) and a refresh that throws: the message the visitor just
    // wrote stays, marked unsent with the panel's own contrast (axe), under the same sentence.
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.evaluate(() => localStorage.clear());
      await page.goto(hostPage(baseURL!, key));
      await page.waitForFunction(() => "Tala" in window);
      await page.evaluate(
        (bad) =>
          (window as unknown as { Tala: { identify(t: string, r: () => never): void } }).Tala.identify(bad, () => {
            throw new Error("signed out");
          }),
        expired,
      );
      await launcher(page).click();
      input = panel(page).getByRole("textbox", { name: en.messageLabel });
      await input.fill("Is my order on its way?");
      await input.press("Enter");
      await expect(panel(page).getByRole("alert")).toContainText(en.tokenExpired);
      await expect(panel(page).getByRole("log").locator(".u.f")).toHaveText(`${en.you}: Is my order on its way?`);
      await expect(input).toBeDisabled();
      await expectReachable(page);
      await check(page, testInfo, `token-refused-unsent-${scheme}-${size.name}`);
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
      await expect(panel(page).getByRole("button", { name: en.newConversation })).toHaveCount(0);
      await expectReachable(page);
      await check(page, testInfo, `switched-off-${scheme}-${size.name}`);
    }
  });
}

test("a paused assistant (French, light) and one over its conversation's limit (Arabic, dark): the reason in the visitor's language, the contact line, the composer off (both sizes)", async ({ page, request, baseURL }, testInfo) => {
  const paused = await createAssistant(request, { config: { monthlyBudget: 1, budgetAction: "pause", maxMessagesPerSession: 50 } });
  // This month's one message is used: the assistant is paused until the month ends.
  const keyHeader = { [widget.keyHeader]: paused.key };
  const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: keyHeader, data: { referrer: "", locale: "en" } })).json());
  const used = await request.post(widgetApiPaths.messages(session.sessionId), { headers: keyHeader, data: { content: "Is there mint tea?", clientMessageId: "used" } });
  expect(used.status()).toBe(200);
  await used.text();
  const limited = await createAssistant(request, { config: { maxMessagesPerSession: 1 } });
  const cases = [
    { key: paused.key, locale: "fr", scheme: "light", sentence: widgetStrings.fr.budgetReached },
    { key: limited.key, locale: "ar", scheme: "dark", sentence: widgetStrings.ar.sessionLimitReached },
  ] as const;
  for (const size of SIZES) {
    for (const c of cases) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: c.scheme });
      await page.evaluate(() => localStorage.clear()).catch(() => {});
      await page.goto(`${hostPage(baseURL!, c.key)}&locale=${c.locale}`);
      const t = widgetStrings[c.locale];
      await page.locator("tala-widget").getByRole("button", { name: t.openChat }).click();
      const input = panel(page).getByRole("textbox", { name: t.messageLabel });
      await input.fill("Où est ma commande ?");
      await input.press("Enter");
      const alert = panel(page).getByRole("alert");
      await expect(alert).toContainText(c.sentence, { timeout: 20_000 });
      await expect(alert).toContainText(CONTACT);
      await expect(input).toBeDisabled();
      await expectReachable(page);
      await check(page, testInfo, `${c.locale === "fr" ? "paused" : "session-limit"}-${c.locale}-${c.scheme}-${size.name}`);
    }
  }
});
