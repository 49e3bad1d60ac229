/**
 * Revocation reaches open sockets: the dashboard of a browser whose session was
 * signed out elsewhere learns it at once, from its chat socket, and stops reconnecting.
 */
import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { apiKeyResponse, chatUi, publicAssistantResponse, realtimeMessages, serverMessages, widgetMessages, widgetStrings } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { freePort } from "./server";

const PASSWORD = "revocation password 1";

async function registerUser(base: string): Promise<string> {
  return (await registerAccount(base)).token;
}

async function registerAccount(base: string): Promise<{ token: string; email: string }> {
  const email = uniqueEmail("revoked");
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, firstName: "Amina", lastName: "", phone: "", birthDate: "" }),
  });
  expect(res.status).toBe(201);
  return { token: ((await res.json()) as { token: string }).token, email };
}

/** A second session of the same account (another browser's sign-in). */
async function signInAgain(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Signs the page in with a stored token, opens the chat and waits for its socket. */
async function openChat(page: Page, base: string, token: string) {
  await page.goto(`${base}/login`);
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  await page.goto(`${base}/app/new-chat`);
  await expect(page.getByRole("textbox", { name: chatUi.composerLabel })).toBeVisible();
  await expect(page.getByText(chatUi.connecting)).toBeHidden();
}

test("signing out in one browser closes the same session's socket in another, which says so", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const token = await registerUser(baseURL!);
  await openChat(page, baseURL!, token);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await openChat(otherPage, baseURL!, token);
  const sockets: { url: string; closed: boolean }[] = [];
  otherPage.on("websocket", (ws) => {
    const entry = { url: ws.url(), closed: false };
    sockets.push(entry);
    ws.on("close", () => (entry.closed = true));
  });

  // The first browser signs out (the API call its logout makes).
  const status = await page.evaluate(async (t) => (await fetch("/api/auth/logout", { method: "POST", headers: { authorization: `Token ${t}` } })).status, token);
  expect(status).toBe(200);

  await expect(otherPage.getByText(realtimeMessages.authenticationFailed)).toBeVisible({ timeout: 5000 });
  // No reconnection loop: no new socket is opened afterwards.
  await otherPage.waitForTimeout(3000);
  expect(sockets).toEqual([]);
  await other.close();
});

test("a session ended elsewhere takes this tab to sign in, keeps the unsent text, and comes back to it", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const { token, email } = await registerAccount(baseURL!);
  await openChat(page, baseURL!, token);
  const composer = page.getByRole("textbox", { name: chatUi.composerLabel });
  await composer.fill("Where is the train station from the old town");

  // Signed out from somewhere else (the API call another device's logout makes).
  expect((await fetch(`${baseURL}/api/auth/logout`, { method: "POST", headers: { authorization: `Token ${token}` } })).status).toBe(200);
  await expect(page.getByText(realtimeMessages.authenticationFailed)).toBeVisible({ timeout: 5000 });
  await expect(page).toHaveURL(/\/login\?returnTo=%2Fapp%2Fnew-chat/);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/app\/new-chat/);
  await expect(page.getByRole("textbox", { name: chatUi.composerLabel })).toHaveValue("Where is the train station from the old town");
});

test("a password change signs the other browser out, and this one keeps chatting on its new token", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const { token, email } = await registerAccount(baseURL!);
  await openChat(page, baseURL!, token);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await openChat(otherPage, baseURL!, await signInAgain(baseURL!, email));

  // In-app navigation: the chat's connection lives on while the settings page shows.
  await page.getByRole("link", { name: "Settings" }).first().click();
  // Any connection toast this page shows from now on is recorded (toasts go away by themselves).
  await page.evaluate((texts) => {
    const seen: string[] = [];
    (window as unknown as { connectionToasts: string[] }).connectionToasts = seen;
    new MutationObserver(() => {
      for (const text of texts) if (!seen.includes(text) && document.body.innerText.includes(text)) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, [realtimeMessages.authenticationFailed, realtimeMessages.genericRealtimeError, realtimeMessages.connectionFailed]);
  const form = page.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByLabel("New password").fill("a brand new password 2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(serverMessages.passwordChanged)).toBeVisible();

  await expect(otherPage.getByText(realtimeMessages.authenticationFailed)).toBeVisible({ timeout: 5000 });
  await page.goBack();
  await expect(page.getByText(chatUi.connecting)).toBeHidden();
  const composer = page.getByRole("textbox", { name: chatUi.composerLabel });
  await composer.fill("Still connected?");
  await composer.press("Enter");
  await expect(page.locator('[data-message-role="assistant"]').last()).toContainText("Offline mode");
  // This browser was never told it lost its connection, let alone that it was signed out.
  expect(await page.evaluate(() => (window as unknown as { connectionToasts: string[] }).connectionToasts)).toEqual([]);
  await other.close();
});

test.describe("the widget", () => {
  let host: Server;
  let hostOrigin = "";

  test.beforeAll(async () => {
    // A page on another origin that pastes the integration snippet.
    host = createServer((req, res) => {
      const q = new URL(req.url ?? "/", "http://host").searchParams;
      const attr = (v: string | null) => (v ?? "").replace(/[^\w:/.-]/g, "");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html lang="en"><head><title>A shop</title></head><body><p>Shop</p>` +
          `<script src="${attr(q.get("tala"))}/widget.js" data-assistant-key="${attr(q.get("key"))}" data-host="${attr(q.get("tala"))}" async></script></body></html>`,
      );
    });
    const port = await freePort();
    await new Promise<void>((resolve) => host.listen(port, "127.0.0.1", resolve));
    hostOrigin = `http://127.0.0.1:${port}`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => host?.close(resolve));
  });

  test("regenerating the key closes an open widget: it says the assistant is unavailable and does not reconnect", async ({ page, request, baseURL }) => {
    test.setTimeout(60_000);
    const { token } = await registerAccount(baseURL!);
    const headers = { Authorization: `Token ${token}` };
    const created = await request.post("/api/public-assistants", { headers, data: { name: "Shop assistant" } });
    expect(created.status()).toBe(201);
    const { assistant } = publicAssistantResponse.parse(await created.json());
    const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers })).json());

    const sockets: { closed: boolean }[] = [];
    page.on("websocket", (ws) => {
      const entry = { closed: false };
      sockets.push(entry);
      ws.on("close", () => (entry.closed = true));
    });
    await page.goto(`${hostOrigin}/?${new URLSearchParams({ tala: baseURL!, key: apiKey })}`);
    await page.locator("tala-widget").getByRole("button", { name: widgetStrings.en.openChat, expanded: false }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    // The session (and its socket) starts with the visitor's first message.
    const input = dialog.getByRole("textbox", { name: widgetStrings.en.messageLabel });
    await input.fill("Hello?");
    await input.press("Enter");
    await expect(dialog.getByRole("log")).toContainText(widgetMessages.offlineNothing);
    await expect.poll(() => sockets.length).toBe(1);

    const regenerated = await request.post(`/api/public-assistants/${assistant._id}/regenerate-key`, { headers });
    expect(regenerated.status()).toBe(200);

    await expect(dialog).toContainText(widgetMessages.unavailable, { timeout: 5000 });
    await expect.poll(() => sockets[0]!.closed).toBe(true);
    // 4003 is final for the widget: no new socket, however long the page stays.
    await page.waitForTimeout(3000);
    expect(sockets).toHaveLength(1);
  });
});
