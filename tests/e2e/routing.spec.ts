import { appMessages, appRoutes } from "../../contract";
import { expectNoAxeFindings, shot, sidewaysOverflow } from "./axe";
import { test, expect } from "./fixtures";

test("the API answers health and an unknown page outside /app redirects to / (spec section 2)", async ({ page, request }) => {
  const health = await request.get("/api/health");
  expect(health.ok()).toBe(true);
  await page.goto("/definitely-not-a-page");
  await expect(page).toHaveURL(/\/$/);
});

test("a signed-out visitor of /app is sent to /login", async ({ page }) => {
  await page.goto("/app/settings");
  await expect(page).toHaveURL(/\/login/);
});

test("a signed-in user's unknown /app address shows the app's own not-found page, inside its frame (both sizes, light and dark)", async ({ page, request }, testInfo) => {
  const reg = await request.post("/api/auth/register", {
    data: { email: `routing-${Date.now()}@example.test`, password: "owner password 1", firstName: "Omar", lastName: "", phone: "", birthDate: "" },
  });
  const { token } = (await reg.json()) as { token: string };
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  for (const [size, scheme] of [[{ width: 1280, height: 800 }, "light"], [{ width: 390, height: 844 }, "dark"]] as const) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/app/not-a-page/deeper");
    await expect(page.getByRole("heading", { level: 1, name: appMessages.pageNotFound.title })).toBeVisible();
    await expect(page.getByText(appMessages.pageNotFound.body)).toBeVisible();
    await expect(page).toHaveURL(/\/app\/not-a-page\/deeper$/);
    // The app's frame stays: its top bar with the user's menu.
    await expect(page.getByRole("button", { name: "Omar", exact: true })).toBeVisible();
    expect((await sidewaysOverflow(page)).overflow).toBe(0);
    await expectNoAxeFindings(page);
    await shot(page, testInfo, `not-found-${size.width}-${scheme}`);
  }
  await page.getByRole("link", { name: appMessages.pageNotFound.back }).click();
  await expect(page).toHaveURL(new RegExp(`${appRoutes.newChat}$`));
});
