/**
 * Monthly budgets in the dashboard: an assistant whose budget is used up shows a paused
 * banner (role=alert, how to resume) on the Public Assistants page and its own page; the owner
 * sets the all-assistants budget and sees its use; the Limits tab carries the budget controls.
 */
import { apiKeyResponse, appRoutes, budgetUi, publicAssistantResponse, publicAssistantUi, widget, widgetApiPaths, widgetSessionResponse } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";

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
  await control.getByLabel(budgetUi.ownerLimit).fill("10");
  await control.getByRole("button", { name: budgetUi.save }).click();
  await expect(control).toContainText(budgetUi.ownerUsage(1, 10));

  // The assistant's own page shows its banner; its Limits tab has the budget controls.
  await page.goto(appRoutes.publicAssistant(assistant._id, "settings"));
  await expect(page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Riad Concierge", 1) })).toBeVisible();
  await page.getByRole("tab", { name: publicAssistantUi.form.limits }).click();
  await expect(page.getByLabel(budgetUi.monthlyBudget)).toHaveValue("1");
  await expect(page.getByRole("group", { name: budgetUi.budgetAction }).getByLabel(budgetUi.budgetActions.pause)).toBeChecked();
  await expect(page.getByRole("group", { name: budgetUi.botDefence }).getByLabel(budgetUi.botDefenceModes.auto)).toBeChecked();
  await expect(page.getByRole("group", { name: budgetUi.visitorLimitScope }).getByLabel(budgetUi.visitorLimitScopes.session)).toBeChecked();

  // Raising the budget in the settings lifts the pause: the banner goes.
  await page.getByLabel(budgetUi.monthlyBudget).fill("100");
  await page.getByRole("button", { name: publicAssistantUi.form.save }).click();
  await expect(page.getByRole("alert").filter({ hasText: budgetUi.bannerPaused("Riad Concierge", 1) })).toHaveCount(0);
});
