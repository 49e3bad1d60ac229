import { assistantSecretKey, openAiCompatMessages, openAiCompatPath, secretKeyUi } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";

test("an owner creates a secret key, sees it once, calls the OpenAI-compatible API with it, and revokes it", async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("keys"), password: "owner password 1", firstName: "Idris", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const created = await request.post("/api/public-assistants", { headers: { authorization: `Token ${token}` }, data: { name: "Keys Desk" } });
  expect(created.status()).toBe(201);
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/app/public-assistants");

  const card = page.getByRole("article", { name: "Keys Desk" });
  await card.getByRole("button", { name: "Get Code" }).click();
  const dialog = page.getByRole("dialog").filter({ has: page.getByLabel("Integration code snippet") });
  const keys = dialog.getByRole("region", { name: secretKeyUi.sectionTitle });
  await expect(keys).toContainText(secretKeyUi.publishableTitle);
  await expect(keys).toContainText(secretKeyUi.secretTitle);
  await expect(keys).toContainText(secretKeyUi.empty);
  // The API sample uses a secret-key placeholder, never the publishable key.
  const sample = keys.getByLabel(secretKeyUi.openAiSampleLabel, { exact: true });
  await expect(sample).toContainText(openAiCompatPath);
  await expect(sample).toContainText(assistantSecretKey.prefix);
  await expect(sample).not.toContainText("tala_pk_");

  // Create: the value is shown once, focused, with a Copy button and the note.
  await keys.getByLabel(secretKeyUi.nameLabel).fill("Order bot");
  await keys.getByRole("button", { name: secretKeyUi.create }).click();
  const shown = keys.getByLabel(secretKeyUi.newKeyLabel, { exact: true });
  await expect(shown).toBeFocused();
  await expect(keys).toContainText(secretKeyUi.newKeyNote);
  const key = (await shown.textContent())?.trim() ?? "";
  expect(key).toMatch(assistantSecretKey.pattern);
  await keys.getByRole("button", { name: secretKeyUi.copyLabel(secretKeyUi.newKeyLabel) }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  const list = keys.getByRole("list", { name: secretKeyUi.listLabel });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("Order bot");
  await expect(list).toContainText(`${key.slice(0, 12)}…${key.slice(-4)}`);
  await expect(list).toContainText(secretKeyUi.neverUsed);

  // The key answers on /api/v1/chat/completions.
  const ask = () =>
    request.post(openAiCompatPath, { headers: { authorization: `Bearer ${key}` }, data: { messages: [{ role: "user", content: "Hello" }] } });
  const ok = await ask();
  expect(ok.status(), await ok.text()).toBe(200);

  // Reopened, the dialog lists the key masked and never shows its value again.
  await page.keyboard.press("Escape");
  await card.getByRole("button", { name: "Get Code" }).click();
  await expect(keys.getByRole("list", { name: secretKeyUi.listLabel })).toContainText("Order bot");
  await expect(keys.getByLabel(secretKeyUi.newKeyLabel, { exact: true })).toHaveCount(0);
  await expect(dialog).not.toContainText(key);

  // Revoke, confirmed: the next request is refused.
  await keys.getByRole("button", { name: secretKeyUi.revokeLabel("Order bot") }).click();
  const confirm = page.getByRole("alertdialog", { name: secretKeyUi.confirmRevoke.title });
  await expect(confirm).toContainText(secretKeyUi.confirmRevoke.description("Order bot"));
  await confirm.getByRole("button", { name: secretKeyUi.confirmRevoke.confirm }).click();
  await expect(page.getByRole("status").filter({ hasText: secretKeyUi.revoked })).toBeVisible();
  await expect(keys).toContainText(secretKeyUi.empty);
  const refused = await ask();
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(openAiCompatMessages.invalidKey);
});
