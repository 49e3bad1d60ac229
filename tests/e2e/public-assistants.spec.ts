import { assistantLifecycleUi, confirmations, onboardingUi, publicAssistantDefaults, publicAssistantUi, successMessages } from "../../contract";
import { makeDocx, makePdf, makeWorkbook } from "../fixtures/knowledge-files";
import { expect, test, uniqueEmail } from "./fixtures";

test("an owner creates, edits, feeds, shares, rotates and deletes a public assistant", async ({ page, request, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const email = uniqueEmail("owner");
  const reg = await request.post("/api/auth/register", {
    data: { email, password: "owner password 1", firstName: "Salma", lastName: "", phone: "", birthDate: "" },
  });
  expect(reg.status()).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/app/public-assistants");
  const toast = page.getByRole("status");

  // Create with the spec's defaults.
  await page.getByRole("button", { name: "Create Your First Assistant" }).click();
  const create = page.getByRole("dialog", { name: "Create Public Assistant" });
  await create.getByLabel("Name").fill("Riad Support");
  await create.getByLabel("Description").fill("Answers guests of Riad Yasmine");
  await create.getByRole("tab", { name: "Limits & Customization" }).click();
  await expect(create.getByLabel("Max messages per session")).toHaveValue(String(publicAssistantDefaults.config.maxMessagesPerSession));
  await expect(create.getByLabel("Daily message limit")).toHaveValue(String(publicAssistantDefaults.config.dailyLimit));
  await expect(create.getByLabel("Welcome message")).toHaveValue(publicAssistantDefaults.config.customization.welcomeMessage);
  await create.getByRole("button", { name: "Create Assistant" }).click();
  await expect(toast).toContainText(successMessages.assistantCreated);
  // Created: on its own page, with the first-hour checklist; back to the list for the card.
  await expect(page).toHaveURL(/\/app\/public-assistants\/[^/?]+/);
  await expect(page.getByRole("region", { name: onboardingUi.title })).toContainText(onboardingUi.progress(0, 5));
  await page.getByRole("link", { name: publicAssistantUi.page.back }).click();
  const card = page.getByRole("article", { name: "Riad Support" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Active");

  // Edit: a new daily limit.
  await card.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit Public Assistant" });
  await expect(edit.getByLabel("Name")).toHaveValue("Riad Support");
  await edit.getByRole("tab", { name: "Limits & Customization" }).click();
  await edit.getByLabel("Daily message limit").fill("250");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast).toContainText(successMessages.assistantUpdated);
  await expect(card).toContainText("250");

  // Upload a PDF, a Word document and a spreadsheet, made here.
  const pdf = makePdf([["Check-in starts at 14:00 and check-out is before 11:00."]]);
  const docx = await makeDocx([{ text: "Hammam", heading: 1 }, { text: "The saffronhammam ritual lasts ninety minutes." }]);
  const xlsx = makeWorkbook({ Prices: [["Room", "Price"], ["Atlas suite", "1800 MAD"]] });
  await card.getByRole("button", { name: "Upload Files" }).click();
  const upload = page.getByRole("dialog", { name: "Upload Documents" });
  await upload.getByLabel("Choose files").setInputFiles([
    { name: "policies.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) },
    { name: "spa.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: Buffer.from(docx) },
    { name: "prices.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from(xlsx) },
  ]);
  await expect(upload.getByRole("list", { name: "Selected files" }).getByRole("listitem")).toHaveCount(3);
  // The server's answer is held back a moment, so the bar is read while it climbs.
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route(/\/api\/public-assistants\/[^/]+\/files$/, async (route) => (route.request().method() === "POST" ? (await held, route.continue()) : route.fallback()));
  await upload.getByRole("button", { name: "Upload", exact: true }).click();
  const bar = upload.getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toHaveAttribute("aria-valuenow", /^[1-9]\d*$/);
  // One percentage on screen, the bar's own (its width and its value), read in one go.
  const seen = await bar.evaluate((el) => ({ now: el.getAttribute("aria-valuenow"), width: (el.firstElementChild as HTMLElement).style.width, said: el.parentElement!.textContent!.match(/\d+%/g) }));
  expect(seen.width).toBe(`${seen.now}%`);
  expect(seen.said).toEqual([`${seen.now}%`]);
  answer();
  await expect(toast).toContainText(successMessages.filesProcessed(3), { timeout: 30_000 });
  await expect(upload).toBeHidden();
  // The card gives an overview only; the files themselves are in the Knowledge tab's table.
  await expect(card).toContainText(/3 documents · \d+ passages/);

  // Their passages are searchable, and the snippet copies with the full key.
  await card.getByRole("button", { name: "Get Code" }).click();
  const code = page.getByRole("dialog").filter({ has: page.getByLabel("Integration code snippet") });
  await code.getByLabel("Test your knowledge base").fill("saffronhammam");
  await code.getByRole("button", { name: "Search" }).click();
  await expect(code.getByRole("list", { name: "Matching passages" })).toContainText("spa.docx");
  await code.getByLabel("Test your knowledge base").fill("Atlas suite");
  await code.getByRole("button", { name: "Search" }).click();
  await expect(code.getByRole("list", { name: "Matching passages" })).toContainText("prices.xlsx");
  await code.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(toast).toContainText(successMessages.contentCopied);
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toContain("/widget.js");
  const oldKey = /data-assistant-key="([^"]+)"/.exec(snippet)?.[1];
  expect(oldKey).toMatch(/^tala_pk_/);
  expect(oldKey).not.toContain("…");
  await page.keyboard.press("Escape");

  // Regenerate: the old key stops working at once.
  const list = async () => ((await (await request.get("/api/public-assistants", { headers: auth })).json()) as { assistants: { _id: string }[] }).assistants;
  const [assistant] = await list();
  const keyWorks = async (key: string) => (await request.get("/api/widget/config", { headers: { "x-assistant-key": key } })).ok();
  expect(await keyWorks(oldKey!)).toBe(true);
  await card.getByRole("button", { name: "Regenerate Key" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Regenerate" }).click();
  await expect(toast).toContainText(successMessages.keyRegenerated);
  const raw = (await (await request.get(`/api/public-assistants/${assistant!._id}/raw-api-key`, { headers: auth })).json()) as { apiKey: string };
  expect(raw.apiKey).not.toBe(oldKey);
  expect(await keyWorks(oldKey!)).toBe(false);
  expect(await keyWorks(raw.apiKey)).toBe(true);

  // Delete one file from the assistant's Knowledge tab (its file table moved there), then the assistant.
  await card.getByRole("link", { name: publicAssistantUi.page.openLabel("Riad Support") }).click();
  const table = page.getByRole("table", { name: publicAssistantUi.card.knowledgeBase });
  for (const name of ["policies.pdf", "spa.docx", "prices.xlsx"]) await expect(table).toContainText(name);
  await table.getByRole("button", { name: "Remove prices.xlsx" }).click();
  const confirmFile = page.getByRole("alertdialog", { name: confirmations.deleteFile.title });
  await confirmFile.getByRole("button", { name: "Delete" }).click();
  await expect(toast).toContainText(successMessages.fileDeleted);
  await expect(table).not.toContainText("prices.xlsx");
  await expect(table).toContainText("spa.docx");
  await page.goBack();
  await expect(card).toContainText(/2 documents · \d+ passages/);

  await card.getByRole("button", { name: "Delete", exact: true }).click();
  const confirmAssistant = page.getByRole("alertdialog", { name: confirmations.deleteAssistant.title });
  await expect(confirmAssistant).toContainText(confirmations.deleteAssistant.description);
  // It names the assistant and what goes with it; no conversation yet, so no name to type.
  await expect(confirmAssistant).toContainText(assistantLifecycleUi.deleteTitle("Riad Support"));
  await expect(confirmAssistant).toContainText(assistantLifecycleUi.deleteDocuments(2));
  await expect(confirmAssistant).toContainText(assistantLifecycleUi.deleteConversations(0));
  await confirmAssistant.getByRole("button", { name: "Delete" }).click();
  await expect(toast).toContainText(successMessages.assistantDeleted);
  await expect(page.getByRole("heading", { name: "No Public Assistants Yet" })).toBeVisible();
  expect(await list()).toHaveLength(0);
});
