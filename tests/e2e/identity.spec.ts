import { createHmac } from "node:crypto";
import { appRoutes, visitorIdentity, visitorIdentityUi as V } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";

/** A token as the README's Node example makes it. */
function userToken(secret: string, claims: Record<string, unknown>) {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const data = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}`;
  return `${data}.${createHmac("sha256", secret).update(data).digest("base64url")}`;
}

test("an owner creates and rotates the identity secret, then finds a signed visitor in the history (390 px)", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 800 });
  const reg = await request.post("/api/auth/register", {
    data: { email: uniqueEmail("identity"), password: "owner password 1", firstName: "Idris", lastName: "", phone: "", birthDate: "" },
  });
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  const created = await request.post("/api/public-assistants", { headers: auth, data: { name: "Members Desk" } });
  const { assistant } = (await created.json()) as { assistant: { _id: string } };
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(appRoutes.publicAssistant(assistant._id, "code"));

  const section = page.getByRole("region", { name: V.sectionTitle });
  await expect(section).toContainText(V.none);
  await expect(section.getByLabel(V.snippetLabel, { exact: true })).toContainText("data-user-token=");
  await section.getByRole("button", { name: V.create }).click();
  const shown = section.getByLabel(V.newSecretLabel, { exact: true });
  await expect(shown).toBeFocused();
  await expect(section).toContainText(V.newSecretNote);
  const first = (await shown.textContent())?.trim() ?? "";
  expect(first.startsWith(visitorIdentity.secretPrefix)).toBe(true);
  await section.getByRole("button", { name: V.newSecretDone }).click();
  await expect(section).not.toContainText(first);
  await expect(section).toContainText(`${first.slice(0, 12)}…${first.slice(-4)}`);

  // Rotate with a 1 h grace, confirmed: the old secret is listed until its end, then ended now.
  await section.getByLabel(V.graceLabel).selectOption("1");
  await section.getByRole("button", { name: V.rotate }).click();
  const confirm = page.getByRole("alertdialog", { name: V.confirmRotate.title });
  await expect(confirm).toContainText(V.graceOption(1));
  await confirm.getByRole("button", { name: V.confirmRotate.confirm }).click();
  const second = (await section.getByLabel(V.newSecretLabel, { exact: true }).textContent())?.trim() ?? "";
  expect(second).not.toBe(first);
  await expect(section).toContainText(`Previous: ${first.slice(0, 12)}…${first.slice(-4)}`);
  const noOverflow = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(noOverflow).toBe(true);
  await section.getByRole("button", { name: V.endGraceLabel }).click();
  await expect(section).not.toContainText("Previous:");

  // A signed visitor and an anonymous one chat; the history says who and filters by user.
  const key = ((await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json()) as { apiKey: string }).apiKey;
  const widgetHeaders = { "x-assistant-key": key };
  for (const userTokenValue of [userToken(second, { sub: "member-77", name: "Amina", email: "amina@example.com" }), undefined]) {
    const started = await request.post("/api/widget/sessions", { headers: widgetHeaders, data: { userToken: userTokenValue } });
    expect(started.status(), await started.text()).toBe(201);
    const { sessionId } = (await started.json()) as { sessionId: string };
    const headers = userTokenValue ? { ...widgetHeaders, [visitorIdentity.tokenHeader]: userTokenValue } : widgetHeaders;
    const sent = await request.post(`/api/widget/sessions/${sessionId}/messages`, { headers, data: { clientMessageId: crypto.randomUUID(), content: userTokenValue ? "Member question" : "Anonymous question" } });
    expect(sent.status()).toBe(200);
  }
  await page.goto(appRoutes.publicAssistant(assistant._id, "history"));
  const list = page.getByRole("list", { name: "Chat sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list).toContainText("Amina");
  await expect(list).toContainText("member-77");
  await expect(list).toContainText(V.anonymous);
  await page.getByRole("button", { name: V.filterByUser("Amina") }).click();
  await expect(page.getByText(V.filterActive("member-77"))).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await list.getByRole("button", { name: /Member question/ }).click();
  const detail = page.getByRole("dialog");
  await expect(detail).toContainText(V.detailVisitor);
  await expect(detail).toContainText("amina@example.com");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: V.filterClear }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
});
