/**
 * Monthly budgets in the dashboard: an assistant whose budget is used up shows a paused
 * banner (role=alert, how to resume) on the Public Assistants page and its own page, and its
 * badge says so; the owner sets the all-assistants budget and sees its use; the Limits tab
 * carries the budget controls; lowering a budget to this month's use or below asks first.
 */
import type { APIRequestContext } from "@playwright/test";
import { apiKeyResponse, appRoutes, budgetUi, publicAssistantResponse, publicAssistantUi, widget, widgetApiPaths, widgetSessionResponse } from "../../contract";
import { expectNoAxeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";

/** An owner (signed in on `page`) with an assistant of `config` that has answered `messages` visitor messages this month. */
async function ownerWithUsedAssistant(request: APIRequestContext, config: Record<string, unknown>, messages: number, name: string) {
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("budget"), password: "owner password 1", firstName: "Nadia", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name, config: { maxMessagesPerSession: 50, ...config } } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json());
  const key = { [widget.keyHeader]: apiKey };
  const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "", locale: "en" } })).json());
  for (let i = 0; i < messages; i++) {
    const sent = await request.post(widgetApiPaths.messages(session.sessionId), { headers: key, data: { content: `Is there mint tea? (${i})`, clientMessageId: `v${i}` } });
    expect(sent.status()).toBe(200);
    await sent.text();
  }
  return { token, assistant };
}

test("an owner sees a paused assistant's banner, sets the all-assistants budget, and finds the Limits controls", async ({ page, request }) => {
  test.setTimeout(90_000);
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("budget"), password: "owner password 1", firstName: "Nadia", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Riad Concierge", config: { monthlyBudget: 1, budgetAction: "pause" } } });
  const { assistant } = publicAssistantResponse.parse(await created.json());
  const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json());
  const key = { [widget.keyHeader]: apiKey };
  const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "", locale: "en" } })).json());
  const sent = await request.post(widgetApiPaths.messages(session.sessionId), { headers: key, data: { content: "Is there mint tea?", clientMessageId: "v1" } });
  expect(sent.status()).toBe(200);
  await sent.text();

  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(appRoutes.publicAssistants);
  const paused = page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Riad Concierge", 1) });
  await expect(paused).toBeVisible();
  await expect(paused).toContainText(budgetUi.resumeAssistant);

  // The all-assistants budget: set, then its use this month.
  const control = page.getByRole("region", { name: budgetUi.ownerTitle });
  await expect(control).toContainText(budgetUi.ownerUsage(1, null));
  // Its choice at 100 % speaks of every assistant, not one.
  await expect(control.getByLabel(budgetUi.budgetAction).locator("option")).toHaveText(["Pause all assistants", "Keep answering"]);
  await control.getByLabel(budgetUi.ownerLimit).fill("10");
  await control.getByRole("button", { name: budgetUi.save }).click();
  await expect(control).toContainText(budgetUi.ownerUsage(1, 10));

  // The assistant's own page shows its banner; its Settings tab's limits have the budget controls.
  await page.goto(appRoutes.publicAssistant(assistant._id, "settings"));
  await expect(page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Riad Concierge", 1) })).toBeVisible();
  await expect(page.getByLabel(budgetUi.monthlyBudget)).toHaveValue("1");
  await expect(page.getByRole("group", { name: budgetUi.budgetAction }).getByLabel(budgetUi.budgetActions.pause)).toBeChecked();
  await expect(page.getByRole("group", { name: budgetUi.botDefence }).getByLabel(budgetUi.botDefenceModes.auto)).toBeChecked();
  await expect(page.getByRole("group", { name: budgetUi.visitorLimitScope }).getByLabel(budgetUi.visitorLimitScopes.session)).toBeChecked();

  // Raising the budget in the settings lifts the pause: the banner goes.
  await page.getByLabel(budgetUi.monthlyBudget).fill("100");
  await page.getByRole("button", { name: publicAssistantUi.form.save }).click();
  await expect(page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Riad Concierge", 1) })).toHaveCount(0);
});

for (const size of [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
]) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test(`a paused assistant's badge says so, and lowering a budget below this month's use asks first (${size.name})`, async ({ page, request }, testInfo) => {
      test.setTimeout(90_000);
      const { token, assistant } = await ownerWithUsedAssistant(request, { monthlyBudget: 2, budgetAction: "pause" }, 2, "Kasbah Desk");
      const other = await request.post("/api/public-assistants", { headers: { authorization: `Token ${token}` }, data: { name: "Souk Guide" } });
      expect(other.status()).toBe(201);
      await page.goto("/login");
      await page.evaluate((t) => localStorage.setItem("token", t), token);

      // The grid: the paused assistant's badge is "Paused (budget)", the other's "Active".
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(appRoutes.publicAssistants);
        const card = page.getByRole("article").filter({ hasText: "Kasbah Desk" });
        await expect(card.getByText(publicAssistantUi.card.pausedBudget, { exact: true })).toBeVisible();
        await expect(card.getByText(publicAssistantUi.card.active, { exact: true })).toHaveCount(0);
        await expect(page.getByRole("article").filter({ hasText: "Souk Guide" }).getByText(publicAssistantUi.card.active, { exact: true })).toBeVisible();
        expect((await sidewaysOverflow(page)).overflow).toBe(0);
        await expectNoAxeFindings(page);
        await shot(page, testInfo, `grid-paused-${scheme}`);
      }

      // The all-assistants budget: 10, then lowered to 2 (this month's use): asked first, with the figures.
      const control = page.getByRole("region", { name: budgetUi.ownerTitle });
      await control.getByLabel(budgetUi.ownerLimit).fill("10");
      await control.getByRole("button", { name: budgetUi.save }).click();
      await expect(control).toContainText(budgetUi.ownerUsage(2, 10));
      await control.getByLabel(budgetUi.ownerLimit).fill("2");
      await control.getByRole("button", { name: budgetUi.save }).click();
      const ask = page.getByRole("alertdialog", { name: budgetUi.lowerTitle });
      await expect(ask).toContainText(budgetUi.lowerText(null, 2, 2, "pause"));
      await expectNoAxeFindings(page);
      await shot(page, testInfo, "owner-lower-confirm");
      await ask.getByRole("button", { name: budgetUi.lowerCancel }).click();
      await expect(ask).toBeHidden();
      await expect(control).toContainText(budgetUi.ownerUsage(2, 10));
      await control.getByRole("button", { name: budgetUi.save }).click();
      await ask.getByRole("button", { name: budgetUi.lowerConfirm }).click();
      await expect(control).toContainText(budgetUi.ownerUsage(2, 2));
      // Removing it asks nothing.
      await control.getByLabel(budgetUi.ownerLimit).fill("");
      await control.getByRole("button", { name: budgetUi.save }).click();
      await expect(control).toContainText(budgetUi.ownerUsage(2, null));
      await expect(ask).toBeHidden();

      // The assistant's own budget: raised to 50 (no question; it resumes), then lowered to 1 (used: 2): asked first.
      await page.goto(appRoutes.publicAssistant(assistant._id, "settings"));
      // The page's own header (its name, badge and key).
      const header = page.locator("main header").first();
      await expect(header.getByText(publicAssistantUi.card.pausedBudget, { exact: true })).toBeVisible();
      const budgetField = page.getByLabel(budgetUi.monthlyBudget);
      await budgetField.fill("50");
      await page.getByRole("button", { name: publicAssistantUi.form.save }).click();
      await expect(header.getByText(publicAssistantUi.card.active, { exact: true })).toBeVisible();
      await expect(ask).toBeHidden();
      await budgetField.fill("1");
      await page.getByRole("button", { name: publicAssistantUi.form.save }).click();
      await expect(ask).toContainText(budgetUi.lowerText("Kasbah Desk", 2, 1, "pause"));
      await shot(page, testInfo, "assistant-lower-confirm");
      await ask.getByRole("button", { name: budgetUi.lowerCancel }).click();
      await expect(header.getByText(publicAssistantUi.card.active, { exact: true })).toBeVisible();
      await page.getByRole("button", { name: publicAssistantUi.form.save }).click();
      await ask.getByRole("button", { name: budgetUi.lowerConfirm }).click();
      await expect(header.getByText(publicAssistantUi.card.pausedBudget, { exact: true })).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Kasbah Desk", 1) })).toBeVisible();
    });
  });
}
