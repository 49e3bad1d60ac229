/**
 * Text snippets in an assistant's Knowledge tab: add a text (dialog with title, text and a
 * character counter), see it listed as a text and found by the search preview, refuse an
 * over-long edit at its field without losing what was typed, edit it (prefilled; the dialog closes
 * and the row shows processing while it is indexed again, then ready), and delete it like a file.
 * Desktop and phone.
 */
import { appRoutes, confirmations, knowledgeMessages, knowledgeTextLimits, knowledgeTextUi as T, publicAssistantResponse, publicAssistantUi, qaMessages } from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";

const TITLE = "Returns for quillfeather pens";
const CONTENT = "# Returns\n\nA quillfeather pen can be returned within 60 days of purchase.";
const EDITED = "Quillfeather pens may be exchanged for marbleink refills within 14 days.";

for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`an owner adds, edits and deletes a text snippet (${viewport.name})`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const reg = await request.post("/api/auth/register", {
      data: { email: uniqueEmail("texts"), password: "owner password 1", firstName: "Nadia", lastName: "", phone: "", birthDate: "" },
    });
    const { token } = (await reg.json()) as { token: string };
    const created = await request.post("/api/public-assistants", { headers: { authorization: `Token ${token}` }, data: { name: "Pen Shop" } });
    const { assistant } = publicAssistantResponse.parse(await created.json());
    await page.goto("/login");
    await page.evaluate((t) => localStorage.setItem("token", t), token);
    await page.goto(`${appRoutes.publicAssistants}/${assistant._id}`);

    // Add: the dialog names its fields; the counter follows the text.
    await page.getByRole("button", { name: T.add }).click();
    const add = page.getByRole("dialog", { name: T.addTitle });
    await add.getByLabel(T.titleLabel).fill(TITLE);
    await add.getByLabel(T.contentLabel, { exact: true }).fill(CONTENT);
    await expect(add.getByText(T.counter(CONTENT.length, knowledgeTextLimits.maxContentChars))).toBeVisible();
    await add.getByRole("button", { name: T.save }).click();
    await expect(add).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: T.added })).toBeVisible();

    const table = page.getByRole("table", { name: publicAssistantUi.card.knowledgeBase });
    const row = () => table.getByRole("row").filter({ hasText: "quillfeather" });
    await expect(row().getByRole("rowheader")).toHaveText(`${TITLE}${T.badge}`);
    await expect(row().getByRole("cell").nth(2)).toHaveText(publicAssistantUi.card.fileStatus.ready);

    // Edit: prefilled from the server; an over-long text is refused at its field and kept.
    await row().getByRole("button", { name: T.editLabel(TITLE) }).click();
    const edit = page.getByRole("dialog", { name: T.editTitle });
    const text = edit.getByLabel(T.contentLabel, { exact: true });
    await expect(text).toHaveValue(CONTENT);
    await expect(edit.getByLabel(T.titleLabel)).toHaveValue(TITLE);
    const tooLong = "x".repeat(knowledgeTextLimits.maxContentChars + 1);
    await text.fill(tooLong);
    await edit.getByRole("button", { name: T.save }).click();
    await expect(edit.getByText(qaMessages.contentTooLong(knowledgeTextLimits.maxContentChars))).toBeVisible();
    await expect(text).toHaveAttribute("aria-invalid", "true");
    await expect(text).toHaveValue(tooLong);

    // A refusal from the server opens the dialog again, its message at the field, the typing kept.
    await text.fill(EDITED);
    await edit.getByLabel(T.titleLabel).fill("Exchanges for quillfeather pens");
    const refusal = knowledgeMessages.empty("Exchanges for quillfeather pens");
    await page.route(`**/api/public-assistants/${assistant._id}/texts/*`, (route) =>
      route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ error: refusal, code: "UNPROCESSABLE", requestId: "e2e", fields: { content: refusal } }) }),
      { times: 1 },
    );
    await edit.getByRole("button", { name: T.save }).click();
    await expect(edit.getByText(refusal)).toBeVisible();
    await expect(text).toHaveValue(EDITED);
    await expect(text).toBeFocused();

    // Saved: the row shows processing while the text is indexed again, then ready under its new title.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/public-assistants/${assistant._id}/texts/*`, async (route) => {
      if (route.request().method() === "PUT") await held;
      await route.continue();
    });
    await edit.getByRole("button", { name: T.save }).click();
    await expect(edit).toBeHidden();
    await expect(row().getByRole("cell").nth(2)).toHaveText(publicAssistantUi.card.fileStatus.processing);
    release();
    await expect(row().getByRole("rowheader")).toHaveText(`Exchanges for quillfeather pens${T.badge}`);
    await expect(row().getByRole("cell").nth(2)).toHaveText(publicAssistantUi.card.fileStatus.ready);

    // The search preview finds the new text, not the old one.
    const search = await request.get(`/api/public-assistants/${assistant._id}/search?q=marbleink`, { headers: { authorization: `Token ${token}` } });
    expect(JSON.stringify(await search.json())).toContain("Exchanges for quillfeather pens");

    // Deleted like a file.
    await row().getByRole("button", { name: publicAssistantUi.card.removeFile("Exchanges for quillfeather pens") }).click();
    const confirm = page.getByRole("alertdialog", { name: confirmations.deleteFile.title });
    await confirm.getByRole("button", { name: publicAssistantUi.confirm.delete }).click();
    await expect(row()).toHaveCount(0);
  });
}
