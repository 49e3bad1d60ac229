/** Icon buttons name themselves with a tooltip: after the spec's delay on hover, at once on keyboard focus, gone on Escape. */
import { chatUi, layout } from "../../contract";
import { expect, test } from "./fixtures";

test("an icon button's tooltip shows on hover after the delay and on keyboard focus, and Escape hides it", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue as guest" }).click();
  await expect(page).toHaveURL(/\/app\/new-chat/);
  const attach = page.getByRole("button", { name: chatUi.attach });
  const tooltip = page.getByRole("tooltip", { name: chatUi.attach });

  await attach.hover();
  await expect(tooltip).toBeVisible({ timeout: layout.tooltipDelayMs + 2000 });
  await expect(attach).not.toHaveAttribute("title");
  await page.mouse.move(0, 0);
  await expect(tooltip).toBeHidden();

  // Keyboard: focus the composer, then Tab back onto the attach button.
  await page.getByRole("textbox", { name: chatUi.composerLabel }).focus();
  await attach.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(tooltip).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tooltip).toBeHidden();
  await expect(attach).toBeFocused();
});
