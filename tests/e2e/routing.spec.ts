import { test, expect } from "./fixtures";

test("the API answers health and an unknown page redirects to /", async ({ page, request }) => {
  const health = await request.get("/api/health");
  expect(health.ok()).toBe(true);
  await page.goto("/definitely-not-a-page");
  await expect(page).toHaveURL(/\/$/);
});

test("a signed-out visitor of /app is sent to /login", async ({ page }) => {
  await page.goto("/app/settings");
  await expect(page).toHaveURL(/\/login/);
});
