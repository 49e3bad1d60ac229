import { appMessages, serverMessages } from "../../contract";
import { expect, latestCode, test, uniqueEmail } from "./fixtures";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new secret";

/** The token the dashboard stored after signing in ("Remember me" keeps it in localStorage). */
const storedToken = (page: import("@playwright/test").Page) =>
  page.evaluate(() => localStorage.getItem("token") ?? sessionStorage.getItem("token"));

test("a new user registers, verifies, signs out and in, and resets a forgotten password", async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("e2e");

  // Register.
  await page.goto("/register");
  await page.getByLabel("First name").fill("Amina");
  await page.getByLabel("Last name").fill("Benali");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-email/);

  // Verify with the code from the dev outbox.
  const code = await latestCode(request, email);
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify email" }).click();
  await expect(page).toHaveURL(/\/app\/new-chat/);
  await expect(page.getByRole("button", { name: "Amina", exact: true })).toBeVisible();

  // Full navigation, in the spec's order, with the active route marked.
  const nav = page.getByRole("navigation", { name: "Main" }).first();
  await expect(nav.getByRole("link")).toHaveText(["New Chat", "History", "Projects", "Public Assistants", "Team", "Settings"]);
  await expect(nav.getByRole("link", { name: "New Chat" })).toHaveAttribute("aria-current", "page");

  // Sign out from the user menu.
  await page.getByRole("button", { name: "Amina", exact: true }).click();
  await page.getByRole("menuitem", { name: appMessages.signOut }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(appMessages.signedOut)).toBeVisible();

  // The guard remembers where the user was going, and brings them back after sign-in.
  await page.goto("/app/settings");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/app\/settings/);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Theme persists across a reload, as a class on <html> and under vite-ui-theme.
  const appearance = page.getByRole("region", { name: "Appearance" });
  await appearance.getByText("Dark", { exact: true }).click();
  await expect(appearance.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("vite-ui-theme"))).toBe("dark");

  const oldToken = await storedToken(page);
  expect(oldToken).toBeTruthy();

  // Sign out, then a wrong password shows the server's message.
  await page.getByRole("region", { name: appMessages.signOut }).getByRole("button", { name: appMessages.signOut }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(appMessages.signedOut)).toBeVisible();
  // Signing out revoked that token on the server.
  expect((await request.get("/api/auth/me", { headers: { authorization: `Token ${oldToken}` } })).status()).toBe(401);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("not the password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert").filter({ hasText: serverMessages.invalidCredentials })).toBeVisible();

  // Sign in again to hold a live token, then reset the password from another tab: the token dies.
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/app/);
  const liveToken = await storedToken(page);
  expect((await request.get("/api/auth/me", { headers: { authorization: `Token ${liveToken}` } })).status()).toBe(200);

  const other = await page.context().browser()!.newPage({ baseURL: page.url() });
  await other.goto("/forgot-password");
  await other.getByLabel("Email").fill(email);
  await other.getByRole("button", { name: "Send reset code" }).click();
  await expect(other).toHaveURL(/\/reset-password/);
  const resetCode = await latestCode(request, email);
  await other.getByLabel("Verification code").fill(resetCode);
  await other.getByLabel("New password").fill(NEW_PASSWORD);
  await other.getByRole("button", { name: "Reset password" }).click();
  await expect(other).toHaveURL(/\/login/);

  expect((await request.get("/api/auth/me", { headers: { authorization: `Token ${liveToken}` } })).status()).toBe(401);

  // The old password no longer works; the new one does.
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await other.getByRole("button", { name: "Sign In" }).click();
  await expect(other.getByRole("alert").filter({ hasText: serverMessages.invalidCredentials })).toBeVisible();
  await other.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await other.getByRole("button", { name: "Sign In" }).click();
  await expect(other).toHaveURL(/\/app/);
  await other.close();
});

test("/app redirects to /app/new-chat and a guest can start without an account", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue as guest" }).click();
  await expect(page).toHaveURL(/\/app\/new-chat/);
  const guestId = await page.evaluate(() => sessionStorage.getItem("guestSessionId"));
  expect(guestId).toMatch(/^guest-\d+-[a-z0-9]+$/);
  await page.goto("/app");
  await expect(page).toHaveURL(/\/app\/new-chat/);

  // The pages that need an account say so, and lead to registration, remembering where to go.
  const nav = page.getByRole("navigation", { name: "Main" }).first();
  const projects = nav.getByRole("link", { name: /Projects/ });
  await expect(projects).toContainText(appMessages.needsAccount);
  await expect(projects).toHaveAccessibleDescription(`${appMessages.needsAccountHint}.`);
  await expect(nav.getByRole("link", { name: /History/ })).not.toContainText(appMessages.needsAccount);
  await projects.click();
  await expect(page).toHaveURL(/\/register$/);
  expect(await page.evaluate(() => sessionStorage.getItem("tala:returnTo"))).toBe("/app/projects");

  // On a phone the guest has the menu too.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/app/new-chat");
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: /History/ })).toBeVisible();
});

test("the phone layout opens the slide-in menu with the same items", async ({ page, request }) => {
  const email = uniqueEmail("phone");
  const res = await request.post("/api/auth/register", {
    data: { email, password: PASSWORD, firstName: "Youssef", lastName: "", phone: "", birthDate: "" },
  });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/app/new-chat");
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("link")).toContainText(["New Chat", "History", "Projects", "Public Assistants", "Team", "Settings"]);
  await menu.getByRole("link", { name: "Projects" }).click();
  await expect(page).toHaveURL(/\/app\/projects/);

  // Install App: hidden from the phone's top bar, so the menu offers it while the browser does.
  await expect(page.getByRole("button", { name: appMessages.installApp })).toHaveCount(0);
  await page.evaluate(() => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => undefined,
      userChoice: Promise.resolve({ outcome: "accepted" }),
    });
    window.dispatchEvent(offer);
  });
  await expect(page.getByRole("banner").getByRole("button", { name: appMessages.installApp })).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  const install = page.getByRole("dialog", { name: "Menu" }).getByRole("button", { name: appMessages.installApp });
  await expect(install).toBeVisible();
  await install.click();
  await expect(page.getByRole("button", { name: appMessages.installApp })).toHaveCount(0);
});

test("a user deletes their account from Settings: a wrong password is refused, the right one erases it", async ({ page, request }) => {
  const email = uniqueEmail("delete");
  const res = await request.post("/api/auth/register", {
    data: { email, password: PASSWORD, firstName: "Leila", lastName: "", phone: "", birthDate: "" },
  });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/app/settings");

  const section = page.getByRole("region", { name: appMessages.deleteAccount.title });
  await expect(section).toContainText(appMessages.deleteAccount.consequences);
  await section.getByRole("button", { name: appMessages.deleteAccount.open }).click();
  const dialog = page.getByRole("alertdialog", { name: appMessages.deleteAccount.confirmTitle });
  await expect(dialog).toContainText(appMessages.deleteAccount.consequences);

  // Cancel keeps everything.
  await dialog.getByRole("button", { name: appMessages.deleteAccount.cancel }).click();
  await expect(dialog).toBeHidden();
  await section.getByRole("button", { name: appMessages.deleteAccount.open }).click();

  // A wrong password is refused with the server's message, in the dialog.
  await dialog.getByLabel("Password").fill("not my password");
  await dialog.getByRole("button", { name: appMessages.deleteAccount.confirm }).click();
  await expect(dialog.getByText(serverMessages.wrongPassword)).toHaveCount(1);

  // The right one deletes the account: signed out, told so, and the old token and password are dead.
  await dialog.getByLabel("Password").fill(PASSWORD);
  await dialog.getByRole("button", { name: appMessages.deleteAccount.confirm }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(serverMessages.accountDeleted)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token") ?? sessionStorage.getItem("token"))).toBeNull();
  expect((await request.get("/api/auth/me", { headers: { authorization: `Token ${token}` } })).status()).toBe(401);
  expect((await request.post("/api/auth/login", { data: { email, password: PASSWORD } })).status()).toBe(401);
});

test("on a touch phone every text field is at least 16 px, so iOS does not zoom into it", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto("/login");
  for (const label of ["Email", "Password"]) {
    const size = await page.getByLabel(label, { exact: true }).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size, label).toBeGreaterThanOrEqual(16);
  }
  await context.close();
});

test("an e-mail verified in another tab: this tab stops asking for it and says so", async ({ browser, baseURL, request }) => {
  const email = uniqueEmail("twotabs");
  const res = await request.post("/api/auth/register", { data: { email, password: PASSWORD, firstName: "Rania", lastName: "", phone: "", birthDate: "" } });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  const context = await browser.newContext({ baseURL });
  const first = await context.newPage();
  await first.goto("/login");
  await first.evaluate((t) => localStorage.setItem("token", t), token);
  await first.goto("/app/settings");
  const banner = first.getByText(appMessages.verifyEmailBanner);
  await expect(banner).toBeVisible();

  // The code is entered in a second tab of the same browser.
  const second = await context.newPage();
  await second.goto(`/verify-email?email=${encodeURIComponent(email)}`);
  await second.getByLabel("Verification code").fill(await latestCode(request, email));
  await second.getByRole("button", { name: "Verify email" }).click();
  await expect(second).toHaveURL(/\/app\/new-chat/);

  await expect(first.getByText(appMessages.emailVerifiedElsewhere)).toBeVisible();
  await expect(banner).toHaveCount(0);
  await context.close();
});
