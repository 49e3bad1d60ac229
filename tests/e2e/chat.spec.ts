/**
 * The chat screens in Chromium: offline mode on the shared server (no model), then a second Tala
 * with the scripted mock model for streaming, reload, stop, errors, a dropped socket, projects,
 * the model setting, attachments, sanitising and the guest quota.
 */
import type { Page, WebSocketRoute } from "@playwright/test";
import {
  chatFramesPath,
  chatMessages,
  chatUi,
  knowledgeMessages,
  guestQuota,
  modelSettingsUi,
  projectUi,
  publicAssistantMessages,
  realtimeMessages,
  regenerateMessages,
  successMessages,
} from "../../contract";
import { makeDocx } from "../fixtures/knowledge-files";
import { startMockModel, type MockModel } from "../mock-model/server.mjs";
import { expect, test, uniqueEmail } from "./fixtures";
import { startTala, type TalaServer } from "./server";

const PASSWORD = "chat password 1";

async function registerUser(base: string, tag: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: uniqueEmail(tag), password: PASSWORD, firstName: "Amina", lastName: "", phone: "", birthDate: "" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Signs the page in with a stored token and opens `path` on `base`. */
async function signIn(page: Page, base: string, token: string, path = "/app/new-chat") {
  await page.goto(`${base}/login`);
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  await page.goto(`${base}${path}`);
}

const composer = (page: Page) => page.getByRole("textbox", { name: chatUi.composerLabel });
const replies = (page: Page) => page.locator('[data-message-role="assistant"]');
const questions = (page: Page) => page.locator('[data-message-role="user"]');
const lastReplyText = (page: Page) => replies(page).last().locator(".markdown");

/** Types and sends a message once the socket is open (a send without one is refused). */
async function send(page: Page, text: string, { waitForConnection = true } = {}) {
  await expect(composer(page)).toBeVisible();
  if (waitForConnection) await expect(page.getByText(chatUi.connecting)).toBeHidden();
  await composer(page).fill(text);
  await composer(page).press("Enter");
}

/** What the mock streams for `text` with [[tokens:N]] (tests/mock-model/server.mjs). */
function mockReply(text: string, tokens: number) {
  const clean = text.replace(/\[\[[^\]]*\]\]/g, "").trim();
  const words = `Mock reply to: ${clean}. This answer is streamed token by token.`.split(/(?<= )/);
  return Array.from({ length: tokens }, (_, i) => words[i % words.length]).join("");
}

/**
 * The last reply has two versions, the current one shown (‹ 2/2 ›): Previous (by keyboard) shows
 * the first, Next the second again.
 */
async function expectVersions(page: Page, question: string) {
  const reply = replies(page).last();
  const previous = reply.getByRole("button", { name: regenerateMessages.previousVersion });
  const next = reply.getByRole("button", { name: regenerateMessages.nextVersion });
  await expect(reply.getByText(regenerateMessages.versionOf(2, 2))).toBeVisible();
  await expect(next).toHaveAttribute("aria-disabled", "true");
  await previous.focus();
  await page.keyboard.press("Enter");
  await expect(reply.getByText(regenerateMessages.versionOf(1, 2))).toBeVisible();
  await expect(lastReplyText(page)).toContainText(`${question} (take 1).`);
  await expect(previous).toHaveAttribute("aria-disabled", "true");
  await next.click();
  await expect(reply.getByText(regenerateMessages.versionOf(2, 2))).toBeVisible();
  await expect(lastReplyText(page)).toContainText(`${question} (take 2).`);
}

test.describe("offline mode (no model configured)", () => {
  test("a signed-in user gets the honest offline answer, and manages the chat from the sidebar", async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const token = await registerUser(baseURL!, "offline");
    await signIn(page, baseURL!, token);

    await expect(page.getByRole("heading", { name: chatUi.greeting })).toBeVisible();
    await send(page, "Plan a trip to Fes");
    await expect(lastReplyText(page)).toContainText("Offline mode: no language model is configured.");
    await expect(lastReplyText(page)).toContainText("LLM_BASE_URL");
    await expect(page).toHaveURL(/\/app\/history\?chat=/);
    await expect(replies(page).last().locator("time")).toHaveText(/^\d{2}:\d{2}$/);

    // Copy a message.
    await replies(page).last().getByRole("button", { name: chatUi.copyMessage }).click();
    await expect(page.getByText(successMessages.contentCopied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("Offline mode");

    // The sidebar: the chat, newest first; rename, search, delete with confirmation.
    const chats = page.getByRole("navigation", { name: chatUi.chats });
    const row = chats.getByRole("listitem").filter({ hasText: "Plan a trip to Fes" });
    await expect(row).toBeVisible();
    await row.hover();
    await row.getByRole("button", { name: /^Rename/ }).click();
    const rename = page.getByRole("dialog", { name: chatUi.renameTitle });
    await rename.getByLabel(chatUi.titleLabel).fill("Fes itinerary");
    await rename.getByRole("button", { name: chatUi.save }).click();
    await expect(page.getByText(chatUi.chatRenamed)).toBeVisible();
    await expect(chats.getByRole("link", { name: /Fes itinerary/ })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Fes itinerary", level: 1 })).toBeVisible();

    await page.getByRole("searchbox", { name: chatUi.searchChats }).fill("zzz-nothing");
    await expect(chats).toContainText(chatUi.noSearchResults);
    await page.getByRole("searchbox", { name: chatUi.searchChats }).fill("itinerary");
    await expect(chats.getByRole("link")).toHaveCount(1);
    await page.getByRole("searchbox", { name: chatUi.searchChats }).fill("");

    // /app/history is the same screen; a reload keeps the chat.
    await page.reload();
    await expect(lastReplyText(page)).toContainText("Offline mode");
    await page.goto(`${baseURL}/app/history`);
    await expect(chats.getByRole("link", { name: /Fes itinerary/ })).toBeVisible();

    const fes = chats.getByRole("listitem").filter({ hasText: "Fes itinerary" });
    await fes.hover();
    await fes.getByRole("button", { name: /^Delete/ }).click();
    const confirm = page.getByRole("alertdialog", { name: chatUi.deleteConfirm.title });
    await confirm.getByRole("button", { name: chatUi.delete }).click();
    await expect(page.getByText(chatUi.chatDeleted)).toBeVisible();
    await expect(chats).toContainText(chatUi.noChatsTitle);

    // Settings: no model to choose, said in one line.
    await page.goto(`${baseURL}/app/settings`);
    await expect(page.getByText(modelSettingsUi.offline)).toBeVisible();
    await expect(page.getByRole("combobox", { name: modelSettingsUi.label })).toHaveCount(0);
  });
});

test.describe("with a model", () => {
  let mock: MockModel;
  let tala: TalaServer;
  /** One account for these tests: registrations are throttled per IP (5 an hour). */
  let token: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    mock = await startMockModel();
    tala = await startTala({ LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small" });
    token = await registerUser(tala.baseURL, "model");
  });
  test.afterAll(async () => {
    await tala?.stop();
    await mock?.close();
  });
  /** The reply request the mock received for this question (not the chat-title request). */
  const askedModel = (question: string) => mock.requests.find((r) => r.body.messages?.at(-1)?.content === question);

  test("a reply streams visibly in every tab, survives a reload, can be stopped and regenerated", async ({ page, context }) => {
    test.setTimeout(120_000);
    const base = tala.baseURL;
    await signIn(page, base, token);

    // Record every text the reply shows while it streams.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => {
        const all = document.querySelectorAll('[data-message-role="assistant"] .markdown');
        const text = all[all.length - 1]?.textContent?.trim() ?? "";
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const question = "Count slowly [[tokens:40]] [[delay:50]] [[ttft:700]]";
    await send(page, question);
    await expect(page.getByRole("status").filter({ hasText: chatUi.thinking })).toBeAttached();
    await expect(page.getByRole("button", { name: chatUi.stop })).toBeVisible();
    await expect(page).toHaveURL(/\/app\/history\?chat=/);
    const chatUrl = page.url();

    // A second tab on the same chat sees the same stream.
    const other = await context.newPage();
    await other.goto(chatUrl);

    const expected = mockReply(question, 40);
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(lastReplyText(page)).toHaveText(expected);
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    const intermediate = seen.filter((t) => t.length > 0 && t.length < expected.length);
    expect(intermediate.length).toBeGreaterThanOrEqual(5);
    expect(seen.at(-1)).toBe(expected.trim());
    await expect(lastReplyText(other)).toHaveText(expected);
    await other.close();

    // Reload: the chat comes back from history, selected in the sidebar.
    await page.reload();
    await expect(lastReplyText(page)).toHaveText(expected);
    await expect(page.getByRole("navigation", { name: chatUi.chats }).locator('[aria-current="page"]')).toBeVisible();

    // Stop a long reply: its text so far is kept.
    await send(page, "Tell me everything [[tokens:400]] [[delay:40]]");
    await expect(lastReplyText(page)).toContainText("Mock reply to: Tell me everything");
    await page.getByRole("button", { name: chatUi.stop }).click();
    await expect(replies(page).last()).toHaveAttribute("data-status", "stopped");
    await expect(replies(page).last()).toContainText(chatUi.stopped);
    expect((await lastReplyText(page).textContent())!.length).toBeLessThan(mockReply("Tell me everything", 400).length);

    // Regenerate the last reply: it is written again in place, no question is added,
    // and ‹ 1/2 › browses its versions (the mock's [[take]] numbers its answers to one text).
    const short = `Short one ${Date.now()}`;
    await send(page, `${short} [[take]]`);
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(lastReplyText(page)).toContainText(`${short} (take 1).`);
    const asked = await questions(page).count();
    const answered = await replies(page).count();
    await replies(page).last().getByRole("button", { name: chatUi.regenerate }).click();
    await expect(lastReplyText(page)).toContainText(`${short} (take 2).`);
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(questions(page)).toHaveCount(asked);
    await expect(replies(page)).toHaveCount(answered);
    await expectVersions(page, short);
    // The versions are saved: a reload shows them again.
    await page.reload();
    await expect(lastReplyText(page)).toContainText(`${short} (take 2).`);
    await expect(replies(page).last().getByText(regenerateMessages.versionOf(2, 2))).toBeVisible();
    await expect(questions(page)).toHaveCount(asked);
  });

  test("Regenerate on a phone in dark mode: in place, versions browsed by touch", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true, colorScheme: "dark" });
    const page = await context.newPage();
    await signIn(page, tala.baseURL, token);
    const text = `Phone ${Date.now()}`;
    await send(page, `${text} [[take]]`);
    await expect(lastReplyText(page)).toContainText(`${text} (take 1).`);
    await replies(page).last().getByRole("button", { name: chatUi.regenerate }).click();
    await expect(lastReplyText(page)).toContainText(`${text} (take 2).`);
    await expect(questions(page)).toHaveCount(1);
    await expect(replies(page)).toHaveCount(1);
    const previous = replies(page).last().getByRole("button", { name: regenerateMessages.previousVersion });
    await previous.tap();
    await expect(lastReplyText(page)).toContainText(`${text} (take 1).`);
    // The controls fit the phone's width.
    const box = await replies(page).last().getByRole("group", { name: regenerateMessages.versionsLabel }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await context.close();
  });

  test("a message sent before the socket is up waits for it; a socket dropped mid-reply still ends with the whole message", async ({ page }) => {
    test.setTimeout(120_000);
    const base = tala.baseURL;
    // Every socket of the page goes through here: it can be cut, and new ones held back (kept
    // connecting) until the gate opens, like a network that is down for a moment.
    const routes: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    let gate: Promise<void> | null = null;
    let openGate = () => {};
    const closeGate = () => (gate = new Promise<void>((resolve) => (openGate = resolve)));
    await page.routeWebSocket(/\/parties\/chat\//, async (ws) => {
      if (gate) await gate;
      routes.push({ page: ws, server: ws.connectToServer() });
    });

    // No connection yet: Send says it is connecting, and a message sent meanwhile is not lost:
    // it waits for the socket, then goes over HTTP when the socket is slow to come.
    closeGate();
    await signIn(page, base, token);
    await expect(page.getByText(chatUi.connecting)).toBeVisible();
    await expect(page.getByRole("button", { name: chatUi.send })).toHaveAttribute("aria-busy", "true");
    await send(page, "Too early [[tokens:3]]", { waitForConnection: false });
    await expect(questions(page)).toHaveCount(1);
    await expect(composer(page)).toHaveValue("");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 15_000 });
    await expect(lastReplyText(page)).toHaveText(mockReply("Too early", 3));
    await expect(page.getByText(realtimeMessages.noActiveConnection)).toHaveCount(0);
    gate = null;
    openGate();
    await expect(page.getByText(chatUi.connecting)).toBeHidden();

    const question = "Keep going [[tokens:60]] [[delay:60]]";
    await send(page, question);
    await expect(lastReplyText(page)).toContainText("Mock reply to: Keep going");

    // The socket dies while the model goes on writing, and cannot come back for a moment.
    closeGate();
    const live = routes.at(-1)!;
    await live.page.close({ code: 4000, reason: "test" });
    await live.server.close();
    await expect(page.getByText(realtimeMessages.genericRealtimeError)).toBeVisible();
    await expect(page.getByText(chatUi.reconnecting)).toBeVisible();
    const partial = (await lastReplyText(page).textContent()) ?? "";
    await page.waitForTimeout(1500);
    gate = null;
    openGate();

    await expect(page.getByText(realtimeMessages.reconnected)).toBeVisible({ timeout: 15_000 });
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    const full = mockReply(question, 60);
    await expect(lastReplyText(page)).toHaveText(full);
    expect(partial.length).toBeLessThan(full.length);
  });

  test("with WebSockets blocked, a signed-in user and a guest chat over HTTP: streaming, stop, regenerate, a reload mid-reply", async ({ browser }) => {
    test.setTimeout(180_000);
    /**
     * A page whose network refuses every WebSocket, as a strict proxy does: each socket's handshake
     * fails (error, then close 1006, never open); plain HTTP gets through.
     */
    const blockedPage = async (viewport: { width: number; height: number }) => {
      const context = await browser.newContext({ viewport });
      await context.addInitScript(() => {
        const tried: string[] = [];
        (window as unknown as { __socketsTried: string[] }).__socketsTried = tried;
        class BlockedWebSocket extends EventTarget {
          static readonly CONNECTING = 0;
          static readonly OPEN = 1;
          static readonly CLOSING = 2;
          static readonly CLOSED = 3;
          readyState = 0;
          binaryType = "blob";
          constructor(readonly url: string) {
            super();
            tried.push(url);
            setTimeout(() => {
              this.readyState = 3;
              this.dispatchEvent(new Event("error"));
              this.dispatchEvent(new CloseEvent("close", { code: 1006, wasClean: false }));
            }, 30);
          }
          send() {
            throw new DOMException("still connecting", "InvalidStateError");
          }
          close() {}
        }
        window.WebSocket = BlockedWebSocket as unknown as typeof WebSocket;
      });
      const page = await context.newPage();
      let framePosts = 0;
      page.on("request", (req) => {
        if (req.method() === "POST" && new URL(req.url()).pathname === chatFramesPath) framePosts += 1;
      });
      const overHttp = async () => ({ socketsTried: (await page.evaluate(() => (window as unknown as { __socketsTried: string[] }).__socketsTried.length)), framePosts });
      return { context, page, overHttp };
    };

    const user = await blockedPage({ width: 1280, height: 800 });
    const page = user.page;
    await signIn(page, tala.baseURL, token);
    // The first message goes as soon as it is typed; the reply streams over HTTP.
    const question = "Over HTTP [[tokens:40]] [[delay:40]]";
    await send(page, question, { waitForConnection: false });
    await expect(lastReplyText(page)).toContainText("Mock reply to: Over HTTP");
    await expect(replies(page).last()).toHaveAttribute("data-status", "streaming");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(lastReplyText(page)).toHaveText(mockReply(question, 40));
    await expect(page.getByText(chatUi.connecting)).toBeHidden();
    await expect(page.getByText(realtimeMessages.genericRealtimeError)).toHaveCount(0);

    // Stop.
    await send(page, "Tell me everything [[tokens:400]] [[delay:40]]");
    await expect(lastReplyText(page)).toContainText("Mock reply to: Tell me everything");
    await page.getByRole("button", { name: chatUi.stop }).click();
    await expect(replies(page).last()).toHaveAttribute("data-status", "stopped");

    // Regenerate in place.
    const short = `Blocked ${Date.now()}`;
    await send(page, `${short} [[take]]`);
    await expect(lastReplyText(page)).toContainText(`${short} (take 1).`);
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await replies(page).last().getByRole("button", { name: chatUi.regenerate }).click();
    await expect(lastReplyText(page)).toContainText(`${short} (take 2).`);
    await expect(replies(page).last().getByText(regenerateMessages.versionOf(2, 2))).toBeVisible();

    // A reload in the middle of a reply catches up on it and follows it to its end.
    const long = "Reload me [[tokens:80]] [[delay:50]]";
    await send(page, long);
    await expect(lastReplyText(page)).toContainText("Mock reply to: Reload me");
    await page.reload();
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(lastReplyText(page)).toHaveText(mockReply(long, 80));
    // The page tried sockets and every one was refused: all of this went over HTTP.
    const used = await user.overHttp();
    expect(used.socketsTried).toBeGreaterThan(0);
    expect(used.framePosts).toBeGreaterThanOrEqual(5);
    await user.context.close();

    // A guest, on a phone.
    const guest = await blockedPage({ width: 390, height: 844 });
    await guest.page.goto(`${tala.baseURL}/login`);
    await guest.page.getByRole("button", { name: "Continue as guest" }).click();
    await expect(guest.page).toHaveURL(/\/app\/new-chat/);
    await send(guest.page, "Guest over HTTP [[tokens:5]]", { waitForConnection: false });
    await expect(replies(guest.page).last()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(lastReplyText(guest.page)).toHaveText(mockReply("Guest over HTTP", 5));
    await expect(guest.page.getByText(chatUi.remainingMessages(guestQuota.perGuestPerDay - 1))).toBeVisible();
    expect((await guest.overHttp()).framePosts).toBeGreaterThanOrEqual(1);
    await guest.context.close();
  });

  test("a model failure shows inline with Retry and the 'Message Error' toast; Retry answers in place", async ({ page }) => {
    const base = tala.baseURL;
    await signIn(page, base, token);
    // [[failfirst:500]]: the mock fails the first request for this text only, so Retry succeeds.
    const text = `Break please ${Date.now()}`;
    await send(page, `${text} [[failfirst:500]]`);
    const failed = replies(page).last();
    await expect(failed).toHaveAttribute("data-status", "error");
    await expect(failed.getByRole("alert")).toContainText(chatMessages.modelUnavailable);
    await expect(page.getByText(realtimeMessages.messageErrorTitle)).toBeVisible();
    await failed.getByRole("button", { name: chatUi.retrySend }).click();
    // Retry writes the failed reply again in place; it does not ask the question again.
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(lastReplyText(page)).toContainText(`Mock reply to: ${text}.`);
    await expect(questions(page)).toHaveCount(1);
    await expect(replies(page)).toHaveCount(1);
    await expect(replies(page).last().getByRole("alert")).toHaveCount(0);
    // The failed attempt is the first version.
    const reply = replies(page).last();
    await expect(reply.getByText(regenerateMessages.versionOf(2, 2))).toBeVisible();
    await reply.getByRole("button", { name: regenerateMessages.previousVersion }).click();
    await expect(reply.getByRole("alert")).toContainText(chatMessages.modelUnavailable);
    await expect(reply.getByRole("button", { name: chatUi.retrySend })).toHaveCount(0);
  });

  test("markdown from the model is sanitised; text and Word attachments reach the model, other files are refused", async ({ page }) => {
    const base = tala.baseURL;
    await signIn(page, base, token);
    await page.evaluate(() => ((window as unknown as { __xss: number }).__xss = 0));

    const input = page.locator('input[type="file"]');
    await input.setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("The secret word is MARZIPAN.") }]);
    await expect(page.getByRole("list", { name: chatUi.attachmentsLabel })).toContainText("notes.txt");
    // A Word file's text is extracted by the server (POST /api/chat/attachments).
    const docx = await makeDocx([{ text: "Pricing", heading: 1 }, { text: "The launch price is ZABAGLIONE dirhams." }]);
    await input.setInputFiles([{ name: "pricing.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: Buffer.from(docx) }]);
    await expect(page.getByRole("button", { name: chatUi.removeAttachment("pricing.docx") })).toBeVisible();
    // A zip named .pdf: the server sniffs the bytes and refuses it with its own message.
    await input.setInputFiles([{ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(docx) }]);
    await expect(page.getByText(knowledgeMessages.notValid("report.pdf", "PDF"))).toBeVisible();
    await input.setInputFiles([{ name: "tool.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") }]);
    await expect(page.getByText(publicAssistantMessages.invalidFileType("tool.exe"))).toBeVisible();
    await input.setInputFiles([{ name: "huge.txt", mimeType: "text/plain", buffer: Buffer.alloc(15_728_641, 97) }]);
    await expect(page.getByText(publicAssistantMessages.fileTooLarge("huge.txt"))).toBeVisible();

    // The echo shows what reached the model: the file's text, and markup meant to run in the page.
    await send(page, "[[echo]] <script>window.__xss=1</script> <img src=x onerror=window.__xss=2> [go](javascript:window.__xss=3) <b onmouseover=alert(1)>b</b>");
    const reply = replies(page).last();
    await expect(reply).toHaveAttribute("data-status", "complete");
    await expect(reply.locator(".markdown")).toContainText("MARZIPAN");
    await expect(reply.locator(".markdown")).toContainText("ZABAGLIONE");
    expect(mock.requests.some((r) => JSON.stringify(r.body).includes("The launch price is ZABAGLIONE dirhams."))).toBe(true);
    await expect(reply.locator(".markdown")).toContainText("<script>window.__xss=1</script>");
    expect(await reply.locator("script, img, [onerror], [onmouseover], a[href^='javascript']").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    await expect(questions(page).last().getByRole("list", { name: chatUi.attachmentsLabel })).toContainText("notes.txt");
    await expect(questions(page).last().getByRole("list", { name: chatUi.attachmentsLabel })).toContainText("pricing.docx");
  });

  test("a project's instructions reach the model as the system prompt; deleting the project keeps its chats", async ({ page }) => {
    test.setTimeout(90_000);
    const base = tala.baseURL;
    await signIn(page, base, token, "/app/projects");
    const instructions = "Always answer like a ship's captain. Marker TALA-CAPTAIN-42.";

    await page.getByRole("button", { name: projectUi.newProject }).first().click();
    const create = page.getByRole("dialog", { name: projectUi.createTitle });
    await create.getByLabel(projectUi.name).fill("Sailing trip");
    await create.getByLabel(projectUi.instructions).fill(instructions);
    await create.getByRole("button", { name: projectUi.create }).click();
    await expect(page.getByText(projectUi.created)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sailing trip", level: 1 })).toBeVisible();
    await expect(page.getByRole("textbox", { name: projectUi.instructions })).toHaveValue(instructions);

    await page.getByRole("link", { name: projectUi.newChatInProject }).click();
    await expect(page).toHaveURL(/\/app\/new-chat\?project=/);
    await expect(page.getByText("Sailing trip")).toBeVisible();
    await send(page, "[[echo]] Where do we sail?");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(page).toHaveURL(/chat=/);
    const chatIds = [new URL(page.url()).searchParams.get("chat")!];
    await expect(lastReplyText(page)).toContainText("TALA-CAPTAIN-42");
    expect(askedModel("[[echo]] Where do we sail?")?.body.messages?.[0]).toEqual({ role: "system", content: instructions });
    // The chat's project badge leads back to the project, which lists the chat.
    await page.getByRole("link", { name: "Sailing trip", exact: true }).click();
    await expect(page.getByRole("list", { name: projectUi.chatsLabel }).getByRole("link")).toHaveCount(1);

    // Edit the instructions: the next chat of the project gets the new ones.
    await page.getByRole("textbox", { name: projectUi.instructions }).fill("Answer in exactly three words. TALA-V2");
    await page.getByRole("button", { name: projectUi.saveInstructions }).click();
    await expect(page.getByText(projectUi.instructionsSaved)).toBeVisible();
    await page.getByRole("link", { name: projectUi.newChatInProject }).click();
    await send(page, "[[echo]] Again");
    await expect(lastReplyText(page)).toContainText("TALA-V2");
    await expect(page).toHaveURL(/chat=/);
    chatIds.push(new URL(page.url()).searchParams.get("chat")!);

    // Rename and delete from the list; the chats stay in the history.
    await page.goto(`${base}/app/projects`);
    const card = page.getByRole("article", { name: "Sailing trip" });
    await card.getByRole("button", { name: /^Rename/ }).click();
    await page.getByRole("dialog", { name: projectUi.renameTitle }).getByLabel(projectUi.name).fill("Sailing 2026");
    await page.getByRole("dialog", { name: projectUi.renameTitle }).getByRole("button", { name: projectUi.save }).click();
    await expect(page.getByRole("article", { name: "Sailing 2026" })).toBeVisible();
    await page.getByRole("article", { name: "Sailing 2026" }).getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("alertdialog", { name: projectUi.deleteConfirm.title }).getByRole("button", { name: projectUi.delete }).click();
    await expect(page.getByText(projectUi.deleted)).toBeVisible();
    await expect(page.getByText(projectUi.emptyTitle)).toBeVisible();
    for (const id of chatIds) {
      const res = await fetch(`${base}/api/chats/${id}`, { headers: { authorization: `Token ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { chat: { projectId: string | null } }).chat.projectId).toBeNull();
    }
  });

  test("the model chosen in Settings is the one the chat uses", async ({ page }) => {
    const base = tala.baseURL;
    await signIn(page, base, token, "/app/settings");
    const select = page.getByRole("combobox", { name: modelSettingsUi.label });
    await expect(select).toBeVisible();
    await expect(select.locator("option")).toHaveText([modelSettingsUi.serverDefault("mock-small"), "mock-small", "mock-large"]);
    await select.selectOption("mock-large");
    await expect(page.getByText(modelSettingsUi.saved)).toBeVisible();
    await page.reload();
    await expect(page.getByRole("combobox", { name: modelSettingsUi.label })).toHaveValue("mock-large");

    await page.goto(`${base}/app/new-chat`);
    await send(page, "Which model? [[tokens:3]]");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    expect(askedModel("Which model? [[tokens:3]]")?.body.model).toBe("mock-large");
  });

  test("what is typed while a new chat's first message leaves stays in the composer", async ({ page }) => {
    // Frames from the server arrive 400 ms late (a slow network), so the typing below happens
    // before the chat's creation reaches the page, which then moves to the chat's address.
    await page.routeWebSocket(/\/parties\/chat\//, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((frame) => setTimeout(() => ws.send(frame), 400));
      ws.onMessage((frame) => server.send(frame));
    });
    await signIn(page, tala.baseURL, token);
    await send(page, "Plan a day in Rabat [[tokens:3]]");
    await composer(page).pressSequentially("and the next day in Sale", { delay: 10 });
    await expect(page).toHaveURL(/[?&]chat=/);
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(composer(page)).toHaveValue("and the next day in Sale");
  });

  test("a guest gets back to their earlier chats: the list, a reload, a chat reopened from its saved messages, the phone's list", async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${tala.baseURL}/login`);
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await expect(page).toHaveURL(/\/app\/new-chat/);
    const sidebar = page.getByRole("navigation", { name: chatUi.chats });
    await send(page, "Where is the old medina? [[tokens:3]]");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await page.getByRole("button", { name: chatUi.newChat }).first().click();
    await send(page, "Best mint tea in town? [[tokens:3]]");
    await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
    await expect(sidebar.getByRole("link")).toHaveCount(2);
    await expect(page.getByText(chatUi.guestHistoryNote)).toBeVisible();
    await expect(page.getByRole("link", { name: chatUi.guestHistoryCta })).toHaveAttribute("href", "/register");

    // A reload keeps the session: the list comes back from the guest's room, and a chat reopens with its messages.
    await page.goto(`${tala.baseURL}/app/history`);
    await expect(sidebar.getByRole("link")).toHaveCount(2);
    await sidebar.getByRole("link").last().click(); // newest first: the first chat is last
    await expect(questions(page)).toHaveCount(1);
    await expect(questions(page)).toContainText("Where is the old medina?");
    await expect(lastReplyText(page)).toHaveText(mockReply("Where is the old medina?", 3));

    // On a phone, History is the list itself.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${tala.baseURL}/app/history`);
    await expect(page.getByRole("navigation", { name: chatUi.chats }).getByRole("link")).toHaveCount(2);
    await context.close();
  });

  test("a guest sees the messages left count down to the quota, then the way to an account", async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${tala.baseURL}/login`);
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await expect(page).toHaveURL(/\/app\/new-chat/);
    await expect(page.getByText(chatUi.remainingMessages(guestQuota.perGuestPerDay))).toBeVisible();
    await expect(page.getByRole("navigation", { name: chatUi.chats })).toHaveCount(0);

    for (let left = guestQuota.perGuestPerDay - 1; left >= 0; left--) {
      await send(page, `Question ${left} [[tokens:3]] [[delay:1]]`);
      if (left > 0) await expect(page.getByText(chatUi.remainingMessages(left))).toBeVisible();
    }
    await expect(page.getByText(chatUi.guestQuotaReached)).toBeVisible();
    await expect(page.getByRole("link", { name: chatUi.guestQuotaCta })).toHaveAttribute("href", "/register");
    await expect(composer(page)).toHaveCount(0);
    await expect(replies(page)).toHaveCount(guestQuota.perGuestPerDay);
    // A regenerate would count as a message: it is no longer offered.
    await expect(replies(page).last().getByRole("button", { name: chatUi.regenerate })).toHaveCount(0);

    // The guest's chat lives in this session: a reload keeps it, and the quota.
    await page.reload();
    await expect(questions(page)).toHaveCount(guestQuota.perGuestPerDay);
    await expect(page.getByText(chatUi.guestQuotaReached)).toBeVisible();
    await context.close();
  });
});
