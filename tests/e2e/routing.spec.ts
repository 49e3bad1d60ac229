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

test("a signed-in user's unknown /app address leaves for / (spec section 2: any other path redirects to /)", async ({ page, request }) => {
  const reg = await request.post("/api/auth/register", {
    data: { email: `routing-${Date.now()}@example.test`, password: "owner password 1", firstName: "Omar", lastName: "", phone: "", birthDate: "" },
  });
  const { token } = (await reg.json()) as { token: string };
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/app/not-a-page");
  await expect(page).toHaveURL(/\/$/);
});
