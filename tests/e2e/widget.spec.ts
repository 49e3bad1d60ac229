import type { APIRequestContext, Page } from "@playwright/test";
import {
  widgetApiPaths,
  widgetSessionResponse,
  feedbackBody,
  appRoutes,
  insightsLimits,
  insightsResponse,
  insightsUi,
  authResponse,
  chatHistoryResponse,
  publicAssistantDefaults,
  publicAssistantUi,
  widgetMessages,
  widgetStrings,
  type PublicAssistantBody,
} from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

/**
 * The embeddable widget as a visitor meets it: a page on ANOTHER origin (a small Node server
 * started here) pastes the integration snippet; Tala (the E2E server, offline mode: answers are
 * labelled excerpts with their sources) answers through the widget's socket or its SSE fallback.
 * The host page's CSS is deliberately hostile.
 */

const HOSTILE_CSS = "* { all: unset; font-size: 40px !important } button { display: none !important } div { color: red !important; background: yellow !important }";
const en = widgetStrings.en;

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let hostOrigin = "";
let token = "";

/** GET /?tala=<origin>&key=<key>[&lang=][&plain=1 (no snippet)] on the host page's server. */
function hostPage(tala: string, key: string, opts: { lang?: string; snippet?: boolean } = {}) {
  const q = new URLSearchParams({ tala, key, lang: opts.lang ?? "en", snippet: opts.snippet === false ? "0" : "1" });
  return `${hostOrigin}/?${q}`;
}

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const attr = attrValue;
    const snippet =
      q.get("snippet") === "1"
        ? `<script src="${attr(q.get("tala"))}/widget.js" data-assistant-key="${attr(q.get("key"))}" data-host="${attr(q.get("tala"))}" async></script>`
        : "";
    return `<!doctype html><html lang="${attr(q.get("lang"))}"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop</title><style>${HOSTILE_CSS} #probe { display: block; color: rgb(1, 2, 3); margin: 7px }</style></head>
<body><p id="probe">Welcome to the shop</p><div id="box">Some host content</div><button id="buy">Buy</button>${snippet}</body></html>`;
  });
  hostOrigin = host.origin;

  // One owner for the whole file (registration is throttled per IP).
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("widget"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

const auth = () => ({ Authorization: `Token ${token}` });

/** A new public assistant of the owner, and its full API key. */
const createAssistant = (request: APIRequestContext, body: PublicAssistantBody = {}) =>
  createAssistantWithKey(request, auth(), { name: "Shop assistant", showSources: true, ...body });

async function uploadText(request: APIRequestContext, id: string, name: string, text: string) {
  const res = await request.post(`/api/public-assistants/${id}/files`, {
    headers: auth(),
    multipart: { files: { name, mimeType: "text/plain", buffer: Buffer.from(text) } },
  });
  expect(res.status()).toBe(201);
}

/** The widget's launcher (the one button with aria-expanded), found through its open shadow root. */
const launcher = (page: Page, name = en.openChat, expanded = false) => page.locator("tala-widget").getByRole("button", { name, expanded });

async function ask(page: Page, question: string) {
  const input = page.getByRole("dialog").getByRole("textbox", { name: en.messageLabel });
  await input.fill(question);
  await input.press("Enter");
}

test("a visitor on another site asks the knowledge base, gets a streamed answer with its source, and keeps it after a reload", async ({ page, request, baseURL }) => {
  const { id, key } = await createAssistant(request);
  const fileName = `warranty-${Date.now()}.txt`;
  await uploadText(request, id, fileName, "The Zorblax kettle comes with a warranty of seven years.\nReturns are free within 30 days.\n");

  const received: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => received.push(String(f.payload))));
  await page.goto(hostPage(baseURL!, key));
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL!).origin);
  await launcher(page).click();
  const dialog = page.getByRole("dialog", { name: "Tala Assistant" });
  await expect(dialog).toBeVisible();
  await expect(launcher(page, en.closeChat, true)).toBeVisible();

  await ask(page, "How long is the Zorblax warranty?");
  const log = dialog.getByRole("log");
  await expect(log).toContainText("How long is the Zorblax warranty?");
  await expect(log).toContainText("warranty of seven years");
  await expect(log).toContainText(fileName);
  // Streamed over the visitor session's socket: thinking, then deltas, then the saved answer.
  const events = received.map((f) => (JSON.parse(f) as { event: string }).event);
  expect(events).toContain("thinking");
  expect(events.indexOf("message-delta")).toBeGreaterThan(events.indexOf("thinking"));
  expect(events.lastIndexOf("new-message")).toBeGreaterThan(events.indexOf("message-delta"));
  // Sources sit under the answer as chips: the file's name, a disclosure of its excerpt.
  const sourceChip = log.getByRole("button", { name: fileName }).first();
  await expect(sourceChip).toHaveAttribute("aria-expanded", "false");
  const passage = log.locator(`[id="${await sourceChip.getAttribute("aria-controls")}"]`);
  await expect(passage).toBeHidden();
  await sourceChip.click();
  await expect(sourceChip).toHaveAttribute("aria-expanded", "true");
  await expect(passage).toBeVisible();
  await expect(passage).toContainText("seven years");

  // Reload: the same conversation comes back (the session id is kept in this site's storage).
  await page.reload();
  await launcher(page).click();
  await expect(page.getByRole("dialog").getByRole("log")).toContainText("warranty of seven years");
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("tala:session:")))).toEqual([`tala:session:${id}`]);

  // The owner sees the session in the assistant's history.
  const history = chatHistoryResponse.parse(await (await request.get(`/api/public-assistants/${id}/chats`, { headers: auth() })).json());
  expect(history.sessions).toHaveLength(1);
  const [session] = history.sessions;
  expect(session!.messages.map((m) => m.content.data)[0]).toBe("How long is the Zorblax warranty?");
  expect(session!.sessionInfo.origin).toBe(hostOrigin);

  // And in the dashboard: the row says what the visitor asked; the detail shows the source's passage on click.
  await page.goto(`${baseURL}/login`);
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  await page.goto(`${baseURL}/app/public-assistants`);
  const card = page.getByRole("article").filter({ hasText: "Shop assistant" }).last();
  await card.getByRole("button", { name: publicAssistantUi.card.viewHistory }).click();
  const history_ = page.getByRole("dialog", { name: publicAssistantUi.history.title });
  const row = history_.getByRole("list", { name: publicAssistantUi.history.sessionsLabel }).getByRole("button").first();
  await expect(row).toContainText("How long is the Zorblax warranty?");
  await expect(row).toContainText(session!.sessionId.slice(0, 8));
  await row.click();
  const detail = page.getByRole("dialog", { name: "How long is the Zorblax warranty?" });
  const chip = detail.getByRole("button", { name: publicAssistantUi.session.showPassage(fileName) });
  await expect(chip).toHaveAttribute("aria-expanded", "false");
  await chip.click();
  await expect(chip).toHaveAttribute("aria-expanded", "true");
  await expect(detail.locator("blockquote")).toContainText("seven years");
});

test("a visitor rates an answer: pressed at once, sent as the contract says, changed, and put back when the request fails", async ({ page, request, baseURL }) => {
  const { id, key } = await createAssistant(request);
  await uploadText(request, id, "faq.txt", "Shipping takes three days.\n");
  // The real feedback route answers; the test watches what the widget sends, and cuts the network on cue.
  const sent: { url: string; method: string; key?: string; body: unknown }[] = [];
  let failNext = false;
  await page.route(/\/api\/widget\/sessions\/[^/]+\/messages\/[^/]+\/feedback$/, async (route) => {
    const req = route.request();
    if (req.method() === "OPTIONS") return route.continue();
    sent.push({ url: new URL(req.url()).pathname, method: req.method(), key: req.headers()["x-assistant-key"], body: feedbackBody.parse(req.postDataJSON()) });
    return failNext ? route.abort("internetdisconnected") : route.continue();
  });

  await page.goto(hostPage(baseURL!, key));
  await launcher(page).click();
  const log = page.getByRole("dialog").getByRole("log");
  await ask(page, "How long does shipping take?");
  await expect(log).toContainText("three days");
  const helpful = log.getByRole("button", { name: en.helpful, exact: true });
  const notHelpful = log.getByRole("button", { name: en.notHelpful, exact: true });
  // Only under the answer: not under the welcome message or the visitor's question.
  await expect(helpful).toHaveCount(1);
  await expect(helpful).toHaveAttribute("aria-pressed", "false");
  await expect(notHelpful).toHaveAttribute("aria-pressed", "false");

  await helpful.click();
  await expect(helpful).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => sent.length).toBe(1);
  const sessionId = await page.evaluate((assistantId) => localStorage.getItem(`tala:session:${assistantId}`), id);
  const session = widgetSessionResponse.parse(await (await request.get(widgetApiPaths.session(sessionId!), { headers: { "x-assistant-key": key } })).json());
  const answerId = session.messages.find((m) => m.role === "assistant")!.id;
  expect(sent[0]).toEqual({ url: widgetApiPaths.feedback(sessionId!, answerId), method: "POST", key, body: { rating: "up" } });

  // Changing it sends again (keyboard: the button is a real button).
  await notHelpful.focus();
  await page.keyboard.press("Enter");
  await expect(notHelpful).toHaveAttribute("aria-pressed", "true");
  await expect(helpful).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => sent.length).toBe(2);
  expect(sent[1]!.body).toEqual({ rating: "down" });

  // Offline: the choice shows, then the last rating the server has comes back; no alarm, no retry.
  failNext = true;
  await helpful.click();
  await expect.poll(() => sent.length).toBe(3);
  await expect(notHelpful).toHaveAttribute("aria-pressed", "true");
  await expect(helpful).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("dialog").getByRole("alert")).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(sent).toHaveLength(3);

  // The server kept the last rating it accepted: the reopened conversation shows it, and the owner counts it.
  const reread = widgetSessionResponse.parse(await (await request.get(widgetApiPaths.session(sessionId!), { headers: { "x-assistant-key": key } })).json());
  expect(reread.messages.find((m) => m.id === answerId)?.rating).toBe("down");
  await page.reload();
  await launcher(page).click();
  await expect(page.getByRole("dialog").getByRole("log").getByRole("button", { name: en.notHelpful, exact: true })).toHaveAttribute("aria-pressed", "true");
  const insights = insightsResponse.parse(await (await request.get(`/api/public-assistants/${id}/insights?days=7`, { headers: auth() })).json());
  expect(insights.feedback).toEqual({ up: 0, down: 1 });
  expect(insights.ratedAnswers[0]).toMatchObject({ sessionId, messageId: answerId, rating: "down", question: "How long does shipping take?" });

  // The owner's Insights tab: the day's conversation in the chart, the rating, and the way to the conversation.
  await page.goto(`${baseURL}/login`);
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  await page.goto(`${baseURL}${appRoutes.publicAssistant(id, "insights")}`);
  await expect(page.getByRole("img", { name: insightsUi.chartLabel(insightsLimits.defaultDays, 1, 1) })).toBeVisible();
  await expect(page.getByRole("region", { name: insightsUi.feedback })).toContainText("100%");
  const rated = page.getByRole("listitem").filter({ hasText: "How long does shipping take?" }).first();
  await expect(rated).toContainText(insightsUi.notHelpful);
  await rated.getByRole("button", { name: insightsUi.openConversation }).click();
  await expect(page).toHaveURL(new RegExp(`tab=history.*session=${sessionId}`));
  const conversation = page.getByRole("dialog", { name: /How long does shipping take\?/ });
  await expect(conversation).toContainText("Shipping takes three days.");
  await expect(conversation).toContainText(insightsUi.notHelpful);
});

test("the session limit stops the visitor with a clear message at exactly the configured count (over the SSE fallback)", async ({ page, request, baseURL }) => {
  const { id, key } = await createAssistant(request);
  await uploadText(request, id, "faq.txt", "Shipping takes three days.\n");
  const put = await request.put(`/api/public-assistants/${id}`, { headers: auth(), data: { config: { maxMessagesPerSession: 2 } } });
  expect(put.ok()).toBe(true);

  // A network that refuses WebSockets: the widget falls back to POST …/messages read as SSE.
  await page.routeWebSocket(/\/parties\/widget\//, (ws) => ws.close());
  // Only the headers: Chromium may drop a streamed body once it is read by the page.
  const streams: string[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/messages") && r.request().method() === "POST") streams.push(r.headers()["content-type"] ?? "");
  });
  await page.goto(hostPage(baseURL!, key));
  await launcher(page).click();
  const dialog = page.getByRole("dialog");
  const input = dialog.getByRole("textbox", { name: en.messageLabel });
  await ask(page, "How long does shipping take?");
  await expect(dialog.getByRole("log")).toContainText("three days");
  await expect(dialog).toContainText(en.remaining(1));
  await expect(dialog.getByRole("button", { name: en.send })).toBeVisible();
  await ask(page, "And on weekends?");
  // After the second answer: input disabled, the limit's message, a way to start over.
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText(widgetMessages.sessionLimitReached);
  await expect(input).toBeDisabled();
  await expect(alert.getByRole("button", { name: en.newConversation })).toBeVisible();

  const history = chatHistoryResponse.parse(await (await request.get(`/api/public-assistants/${id}/chats`, { headers: auth() })).json());
  expect(history.sessions[0]!.messages.filter((m) => m.role === "user")).toHaveLength(2);
  // Both answers came as Server-Sent Events, streamed (deltas before the saved message).
  await expect.poll(() => streams.length).toBe(2);
  for (const s of streams) expect(s).toMatch(/^text\/event-stream/);
  // The same call outside the browser shows the stream's order: deltas before the saved message.
  const headers = { "x-assistant-key": key };
  const created = await request.post(widgetApiPaths.sessions, { headers, data: { referrer: "", locale: "en" } });
  const { sessionId } = (await created.json()) as { sessionId: string };
  const sse = await (await request.post(widgetApiPaths.messages(sessionId), { headers, data: { content: "How long does shipping take?", clientMessageId: "e2e-1" } })).text();
  expect(sse.indexOf("event: message-delta")).toBeGreaterThan(sse.indexOf("event: thinking"));
  // The first new-message is the visitor's own, saved; the last is the saved answer.
  expect(sse.lastIndexOf("event: new-message")).toBeGreaterThan(sse.lastIndexOf("event: message-delta"));
  expect(sse).toContain("event: remaining-messages");

  // A new conversation is a new session: the visitor may ask again.
  await alert.getByRole("button", { name: en.newConversation }).click();
  await expect(input).toBeEnabled();
  await expect(dialog.getByRole("log")).not.toContainText("shipping");
});

test("a page whose key was regenerated shows no widget and tells the site owner in one console line", async ({ page, request, baseURL }) => {
  const { id, key } = await createAssistant(request);
  expect((await request.post(`/api/public-assistants/${id}/regenerate-key`, { headers: auth() })).status()).toBe(200);
  const lines: string[] = [];
  page.on("console", (m) => lines.push(`${m.type()}: ${m.text()}`));
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/widget/config"));
  await page.goto(hostPage(baseURL!, key));
  expect((await refused).status()).toBe(401);
  await expect.poll(() => lines.filter((l) => l.includes("Tala widget"))).toEqual([`warning: Tala widget: ${widgetMessages.unavailable}`]);
  await expect(page.locator("tala-widget").getByRole("button")).toHaveCount(0);
  // The browser's own line for the failed request aside, the widget says nothing else.
  expect(lines.filter((l) => !l.includes("Tala widget") && !l.includes("401"))).toEqual([]);
});

test("a page on an origin outside the allowlist gets no widget and no answers", async ({ page, request, baseURL }) => {
  const { key } = await createAssistant(request, { allowedOrigins: ["https://shop.example"] });
  // The server refuses this origin, and does not let its browser read the refusal (no CORS header).
  const direct = await request.get("/api/widget/config", { headers: { Origin: hostOrigin, "X-Assistant-Key": key } });
  expect(direct.status()).toBe(403);
  expect(direct.headers()["access-control-allow-origin"]).toBeUndefined();
  expect((await direct.json()).error).toBe(widgetMessages.originNotAllowed);

  const refused = page.waitForEvent("requestfailed", (r) => r.url().endsWith("/api/widget/config"));
  await page.goto(hostPage(baseURL!, key));
  await refused;
  await page.waitForTimeout(500);
  await expect(page.locator("tala-widget").getByRole("button")).toHaveCount(0);
  // Even a script of that page calling the API itself gets nothing.
  const answered = await page.evaluate(
    async ({ tala, key }) => {
      try {
        const res = await fetch(`${tala}/api/widget/sessions`, { method: "POST", headers: { "content-type": "application/json", "X-Assistant-Key": key }, body: "{}" });
        return res.status;
      } catch {
        return "blocked";
      }
    },
    { tala: baseURL!, key },
  );
  expect(answered).toBe("blocked");
});

test("the host page's CSS does not reach the widget, the widget's CSS does not leak out, and nothing shifts", async ({ page, request, baseURL }) => {
  const { key } = await createAssistant(request);
  const hostStyles = () =>
    page.evaluate(() =>
      ["probe", "box", "buy"].map((id) => {
        const s = getComputedStyle(document.getElementById(id)!);
        return [s.color, s.fontSize, s.fontFamily, s.display, s.margin, s.background, s.boxSizing, s.lineHeight].join("|");
      }),
    );
  await page.goto(hostPage(baseURL!, key, { snippet: false }));
  const without = await hostStyles();

  await page.goto(hostPage(baseURL!, key));
  await launcher(page).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await hostStyles()).toEqual(without);
  // Only the page's own stylesheet exists in the document: the widget's live in its shadow root.
  expect(await page.evaluate(() => document.styleSheets.length)).toBe(1);

  const inside = await page.evaluate(() => {
    const root = document.querySelector("tala-widget")!.shadowRoot!;
    const style = (sel: string) => getComputedStyle(root.querySelector(sel)!);
    const hostBox = document.querySelector("tala-widget")!.getBoundingClientRect();
    return {
      launcher: [style(".l").display, style(".l").width, style(".l").position].join(" "),
      panelFont: style("[role=dialog]").fontSize,
      textColor: style("[role=dialog]").color,
      sendVisible: style("button[type=submit]").display,
      hostSize: [hostBox.width, hostBox.height],
    };
  });
  expect(inside).toEqual({ launcher: "flex 56px fixed", panelFont: "14px", textColor: "rgb(17, 24, 39)", sendVisible: "flex", hostSize: [0, 0] });

  const shifts = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) total += (e as unknown as { value: number }).value;
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
  expect(shifts).toBe(0);
});

test("Arabic renders right to left, and the panel is keyboard operable; the owner's privacy notice links to their policy in a new tab", async ({ page, request, baseURL }) => {
  const notice = "نحتفظ بالمحادثات 30 يومًا. اقرأ سياسة الخصوصية.";
  const policy = "https://policy.shop.example/ar/privacy";
  const { key } = await createAssistant(request, { config: { customization: { privacyNotice: notice, privacyUrl: policy } } });
  const ar = widgetStrings.ar;
  await page.goto(hostPage(baseURL!, key, { lang: "ar" }));
  await launcher(page, ar.openChat).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toHaveAttribute("dir", "rtl");
  await expect(dialog).toHaveAttribute("lang", "ar");
  await expect(dialog).toHaveAttribute("aria-modal", "false");
  await expect(dialog.getByRole("textbox", { name: ar.messageLabel })).toBeFocused();

  // The notice: the owner's line at the composer's foot (not in the live log), the link to their https policy.
  const link = dialog.getByRole("link", { name: notice });
  await expect(link).toHaveAttribute("href", policy);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /\bnoopener\b.*\bnoreferrer\b/);
  await expect(dialog.getByRole("log").getByRole("link", { name: notice })).toHaveCount(0);
  await page.context().route(`${policy}*`, (r) => r.fulfill({ contentType: "text/html", body: "<title>Policy</title>" }));
  const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await expect(tab).toHaveURL(policy);
  // Opened without a handle back to the host page, and without the page's address as referrer.
  expect(await tab.evaluate(() => [window.opener, document.referrer])).toEqual([null, ""]);
  await tab.close();
  await dialog.getByRole("textbox", { name: ar.messageLabel }).focus();

  // Tab cycles inside the open panel.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.querySelector("tala-widget")!.shadowRoot!.activeElement?.closest("[role=dialog]"))).toBe(true);
  }
  // The focus ring on the coloured header is drawn in the header's text colour, never lost in it.
  const newConversation = dialog.getByRole("button", { name: ar.newConversation });
  await newConversation.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(newConversation).toBeFocused();
  const ring = await newConversation.evaluate((el) => {
    const style = getComputedStyle(el);
    return { outline: style.outlineColor, text: getComputedStyle(el.closest(".h")!).color, width: style.outlineWidth };
  });
  expect(ring.width).toBe("2px");
  expect(ring.outline).toBe(ring.text);
  // Escape closes it and gives focus back to the launcher.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(launcher(page, ar.openChat)).toBeFocused();
  await expect(launcher(page, ar.openChat)).toHaveAttribute("aria-expanded", "false");
});

test('"+" asks before dropping a conversation the visitor wrote in: Cancel keeps it, confirming starts a new one', async ({ page, request, baseURL }) => {
  const { id, key } = await createAssistant(request);
  await uploadText(request, id, "faq.txt", "Shipping takes three days.\n");
  await page.goto(hostPage(baseURL!, key));
  await launcher(page).click();
  const dialog = page.getByRole("dialog");
  const log = dialog.getByRole("log");
  const plus = dialog.locator(".h").getByRole("button", { name: en.newConversation });
  const confirm = dialog.getByRole("alertdialog", { name: en.newConversationConfirm });

  await ask(page, "How long does shipping take?");
  await expect(log).toContainText("three days");
  await plus.click();
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(en.newConversationConfirm);
  await expect(confirm.getByRole("button", { name: en.newConversation })).toBeFocused();
  await confirm.getByRole("button", { name: en.cancel }).click();
  await expect(confirm).toHaveCount(0);
  await expect(log).toContainText("How long does shipping take?");
  await expect(plus).toBeFocused();

  // Escape answers "no" too, without closing the panel.
  await plus.press("Enter");
  await expect(confirm).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(plus).toBeFocused();

  // Enter on the focused confirmation starts the new conversation: only the welcome is left.
  await plus.press("Enter");
  await expect(confirm.getByRole("button", { name: en.newConversation })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toHaveCount(0);
  await expect(log).not.toContainText("shipping");
  await expect(log).toHaveText(`${en.assistant}: ${publicAssistantDefaults.config.customization.welcomeMessage}`);
  await expect(dialog.getByRole("textbox", { name: en.messageLabel })).toBeFocused();

  // With nothing written, "+" asks nothing.
  await plus.click();
  await expect(confirm).toHaveCount(0);
});
