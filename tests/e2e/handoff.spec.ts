/**
 * A person taking over, end to end, in two browsers: the owner's dashboard (signed in, the
 * assistant's Inbox tab) and a visitor's widget on ANOTHER origin (a small Node host page pasting
 * the snippet). The visitor asks for a person in plain words (the offer reply, no model), presses
 * "Talk to a person" and waits; the owner is told with no reload (badge, "Needs a person"), takes
 * over, and they talk (Markdown, sanitised; typing both ways); the owner hands back and the
 * assistant answers again. Also: a visitor whose page cannot open WebSockets (the event stream
 * carries the person's messages and typing), and the e-mail fallback (the widget's clock moved
 * past "ask for an e-mail after", the server's state real; the reply reaches the dev outbox and
 * shows when the visitor comes back). Desktop and phone; axe on the widget waiting and taken.
 * The E2E server has no model: answers are offline mode's labelled excerpts of the knowledge.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import {
  appRoutes,
  authResponse,
  handoffMessages,
  inboxResponse,
  inboxUi,
  outboxResponse,
  widgetApiPaths,
  widgetSessionResponse,
  widgetStrings,
  type PublicAssistantBody,
} from "../../contract";
import { expectNoAxeFindings, shot } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

const en = widgetStrings.en;
const C = inboxUi.conversation;
const S = inboxUi.settings;
const AGENT = "Sam Lee";
const HOURS = "Mon–Fri, 9:00–18:00 CET";
const REPLY_TIME = "We usually reply within an hour";
const KNOWLEDGE = "Airport pickup\n\nEvery trip includes a free pickup at Marrakech airport, day or night.\n";
const PICKUP = "free pickup at Marrakech airport";
/** The person's reply: Markdown, and markup a visitor's page must never run. */
const REPLY = 'Yes, **groups of 8** are fine in March. <img src="x" onerror="window.__pwned = 1">';

let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let token = "";
const auth = () => ({ Authorization: `Token ${token}` });

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const tala = attrValue(q.get("tala"));
    return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dune Tours</title></head>
<body><h1>Dune Tours</h1><p>Trips in the Sahara.</p><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
  });
  // One owner for the file (registration is throttled per address); their name is the person's.
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("handoff"), password: "owner password 1", firstName: "Sam", lastName: "Lee" } });
  expect(res.status()).toBe(201);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

/** A new assistant of the owner with a knowledge text (so the assistant's answers are recognisable), and its key. */
async function newAssistant(request: APIRequestContext, config: PublicAssistantBody["config"] = {}) {
  const a = await createAssistantWithKey(request, auth(), { name: "Dune Tours", config });
  const res = await request.post(`/api/public-assistants/${a.id}/files`, {
    headers: auth(),
    multipart: { files: { name: "trips.txt", mimeType: "text/plain", buffer: Buffer.from(KNOWLEDGE) } },
  });
  expect(res.status()).toBe(201);
  return a;
}

type Viewport = { width: number; height: number };

/** The owner's browser, signed in. */
async function ownerBrowser(browser: Browser, viewport: Viewport, baseURL: string) {
  const context = await browser.newContext({ viewport, baseURL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.evaluate((t) => {
    localStorage.setItem("token", t);
    sessionStorage.setItem("tala:verifyBannerDismissed", "1");
  }, token);
  return { context, page };
}

/**
 * A page whose network refuses WebSockets to Tala, as a strict proxy does: each socket's handshake
 * really fails (a closed port: error, then close 1006, never open); plain HTTP gets through.
 */
async function blockSockets(context: BrowserContext) {
  await context.addInitScript(() => {
    const Real = window.WebSocket;
    const tried: string[] = [];
    (window as unknown as { __socketsTried: string[] }).__socketsTried = tried;
    window.WebSocket = class extends Real {
      constructor(url: string | URL, protocols?: string | string[]) {
        tried.push(String(url));
        super(String(url).includes("/parties/") ? "ws://127.0.0.1:9/blocked" : url, protocols);
      }
    };
  });
}

/** The visitor's page on the host site, the widget opened: its panel. */
async function openWidget(page: Page, tala: string, key: string) {
  await page.goto(`${host!.origin}/?${new URLSearchParams({ tala, key })}`);
  await page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
  const dialog = page.locator("tala-widget").getByRole("dialog");
  await expect(dialog.getByRole("textbox", { name: en.messageLabel })).toBeVisible();
  return dialog;
}

async function ask(page: Page, text: string) {
  const input = page.locator("tala-widget").getByRole("dialog").getByRole("textbox", { name: en.messageLabel });
  await input.fill(text);
  await input.press("Enter");
}

/** The session the widget keeps for this assistant (as the widget stores it). */
const visitorSession = (page: Page, assistantId: string) => page.evaluate((id) => localStorage.getItem(`tala:session:${id}`), assistantId);

/** The visitor asks for a person in plain words: the offer reply (no model: word for word) with the action under it, pressed; the waiting card. */
async function askForAPerson(page: Page) {
  const dialog = page.locator("tala-widget").getByRole("dialog");
  const log = dialog.getByRole("log");
  await ask(page, "Can I talk to a human?");
  await expect(log).toContainText(handoffMessages.offerReply.en);
  await log.getByRole("button", { name: en.talkToPerson }).click();
  await expect(dialog.getByRole("status").filter({ hasText: en.waiting })).toBeVisible();
  // The action is not offered twice while a person is asked for.
  await expect(dialog.getByRole("button", { name: en.talkToPerson })).toHaveCount(0);
  return { dialog, log };
}

/** Milliseconds until `fn` resolves. */
async function timed(fn: () => Promise<unknown>) {
  const t0 = Date.now();
  await fn();
  return Date.now() - t0;
}

const sizes = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

for (const size of sizes) {
  test(`a visitor asks for a person, the owner is told with no reload, takes over, they talk, and the owner hands back (${size.name})`, async ({ browser, request, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    const desktop = size.name === "desktop";
    const a = await newAssistant(request);
    const owner = await ownerBrowser(browser, size.viewport, baseURL!);
    const visitor = await browser.newContext({ viewport: size.viewport });
    try {
      const o = owner.page;
      const handoff = { visitorAction: true, businessHours: HOURS, replyTime: REPLY_TIME };
      if (desktop) {
        // 1. Talk to a person, turned on in the assistant's Settings.
        await o.goto(appRoutes.publicAssistant(a.id, "settings"));
        const section = o.getByRole("region", { name: S.title });
        const action = section.getByRole("switch", { name: S.visitorAction });
        await expect(action).toHaveAttribute("aria-checked", "false");
        await action.click();
        await section.getByLabel(S.businessHours, { exact: true }).fill(HOURS);
        await section.getByLabel(S.replyTime, { exact: true }).fill(REPLY_TIME);
        await section.getByRole("button", { name: S.save }).click();
        await expect(o.getByRole("status").filter({ hasText: S.saved })).toBeVisible();
        await expect(action).toHaveAttribute("aria-checked", "true");
        await o.getByRole("tab", { name: new RegExp(inboxUi.tab) }).click();
      } else {
        const res = await request.put(`/api/public-assistants/${a.id}`, { headers: auth(), data: { config: { handoff } } });
        expect(res.status()).toBe(200);
        await o.goto(appRoutes.publicAssistant(a.id, "inbox"));
      }
      // The Inbox is on screen, its socket up, before the visitor writes: what follows comes with no reload.
      await expect(o.getByText(inboxUi.empty.all)).toBeVisible();
      await expect(o.getByText(inboxUi.polling)).toBeHidden();

      // 2. The visitor asks for a person and waits, with the owner's texts.
      const vp = await visitor.newPage();
      const dialog = await openWidget(vp, baseURL!, a.key);
      const log = dialog.getByRole("log");
      await askForAPerson(vp);
      await expect(dialog).toContainText(HOURS);
      await expect(dialog).toContainText(REPLY_TIME);
      await expectNoAxeFindings(vp);
      await shot(vp, testInfo, `widget-waiting-${size.name}`);

      // 3. The owner: the badge and "Needs a person", with no reload; opens it and takes over.
      await expect(o.getByRole("tab", { name: new RegExp(inboxUi.badge(1)) })).toBeVisible();
      if (desktop) await expect(o.getByRole("link", { name: new RegExp(inboxUi.badge(1)) })).toBeVisible();
      const filters = o.getByRole("group", { name: inboxUi.filtersLabel });
      await filters.getByRole("button", { name: new RegExp(inboxUi.filters["needs-person"]) }).click();
      const list = o.getByRole("list", { name: inboxUi.listLabel });
      await list.getByRole("button", { name: /Can I talk to a human\?/ }).click();
      await expect(o).toHaveURL(/[?&]session=/);
      await o.getByRole("button", { name: C.takeOver }).click();
      await expect(o.getByText(C.taken(AGENT))).toBeVisible();
      // The visitor sees the person join: their name, and their initials (no photo).
      const joined = log.getByText(en.joined(AGENT));
      await expect(joined).toBeVisible();
      await expect(log.locator("div", { has: vp.getByText(en.joined(AGENT)) }).last()).toContainText("SL");
      await expect(dialog.getByRole("status").filter({ hasText: en.waiting })).toHaveCount(0);

      // 4. They talk. The person types: the visitor sees it.
      const composer = o.getByLabel(inboxUi.composer.label);
      await composer.fill(REPLY);
      await expect(dialog.getByText(en.personTyping(AGENT))).toBeVisible({ timeout: 5_000 });
      // Rendered as Markdown, the markup inert (no element from it, nothing run), in a few seconds.
      const bold = log.locator("strong", { hasText: "groups of 8" });
      const reached = await timed(async () => {
        await o.getByRole("button", { name: inboxUi.composer.send }).click();
        await expect(bold).toBeVisible({ timeout: 5_000 });
      });
      testInfo.annotations.push({ type: "person's message to the visitor (socket)", description: `${reached} ms` });
      // The person's message: their name over it, the markup shown as text, never an element.
      const agentMessage = log.locator("div", { has: vp.locator("strong", { hasText: "groups of 8" }) }).filter({ hasText: `${AGENT}:` }).last();
      await expect(agentMessage).toContainText("are fine in March.");
      await expect(agentMessage.locator("img")).toHaveCount(0);
      await expect(dialog.getByText(en.personTyping(AGENT))).toHaveCount(0);
      expect(await vp.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await o.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await expect(composer).toHaveValue("");
      // The owner's view has it too, under "(person)", as the same sanitised Markdown.
      await expect(o.getByText(inboxUi.agentLabel(AGENT))).toBeVisible();
      await expect(o.locator(".markdown strong", { hasText: "groups of 8" })).toBeVisible();
      // The visitor's session has it as a person's message with its author.
      const sessionId = (await visitorSession(vp, a.id))!;
      const seen = widgetSessionResponse.parse(await (await request.get(widgetApiPaths.session(sessionId), { headers: { "x-assistant-key": a.key } })).json());
      expect(seen.messages.at(-1)).toMatchObject({ role: "agent", author: { name: AGENT, initials: "SL" }, content: { data: REPLY } });
      expect(seen.handoff).toMatchObject({ state: "taken", agent: { name: AGENT } });
      await expectNoAxeFindings(vp);
      await shot(vp, testInfo, `widget-taken-${size.name}`);

      // The visitor types (the owner sees it), then writes: it reaches the owner's view, not the model.
      const input = dialog.getByRole("textbox", { name: en.messageLabel });
      await input.fill("Great, what time");
      await expect(o.getByText(C.typing)).toBeVisible({ timeout: 5_000 });
      await input.fill("Great, what time do we start?");
      await input.press("Enter");
      const messages = o.getByRole("list", { name: C.messagesLabel });
      await expect(messages).toContainText("Great, what time do we start?", { timeout: 5_000 });
      await expect(log.getByRole("status").filter({ hasText: en.thinking })).toHaveCount(0);

      // 5. The owner hands back: the visitor is told, and the assistant answers the next question.
      await o.getByRole("button", { name: C.handBack }).click();
      await expect(o.getByText(C.none)).toBeVisible();
      await expect(composer).toHaveCount(0);
      await expect(log.getByText(en.handedBack)).toBeVisible({ timeout: 5_000 });
      // Writing as a person now is refused with the contract's message.
      const refused = await request.post(`/api/public-assistants/${a.id}/chats/${sessionId}/messages`, { headers: auth(), data: { content: "Hello" } });
      expect(refused.status()).toBe(409);
      expect(((await refused.json()) as { error: string }).error).toBe(handoffMessages.notTakenOver);
      // Talk to a person is offered again: above the message box and under the earlier offer.
      await expect(dialog.getByRole("button", { name: en.talkToPerson })).toHaveCount(2);
      await ask(vp, "Do you offer airport pickup?");
      await expect(log).toContainText(PICKUP);
      await expect(messages).toContainText(PICKUP, { timeout: 5_000 });
    } finally {
      await visitor.close();
      await owner.context.close();
    }
  });
}

test("with WebSockets blocked, the visitor gets the person's typing and messages over the event stream", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const a = await newAssistant(request, { handoff: { visitorAction: true, businessHours: HOURS } });
  const visitor = await browser.newContext({ viewport: sizes[0].viewport });
  await blockSockets(visitor);
  const owner = await ownerBrowser(browser, sizes[0].viewport, baseURL!);
  try {
    const vp = await visitor.newPage();
    const streams: string[] = [];
    vp.on("request", (r) => {
      if (r.method() === "GET" && /\/api\/widget\/sessions\/[^/]+\/events$/.test(new URL(r.url()).pathname)) streams.push(r.url());
    });
    const dialog = await openWidget(vp, baseURL!, a.key);
    const { log } = await askForAPerson(vp);
    const sessionId = (await visitorSession(vp, a.id))!;
    expect(sessionId).toBeTruthy();
    await expect.poll(() => streams.length).toBeGreaterThan(0);

    const o = owner.page;
    await o.goto(appRoutes.inboxConversation(a.id, sessionId));
    await o.getByRole("button", { name: C.takeOver }).click();
    await expect(log.getByText(en.joined(AGENT))).toBeVisible({ timeout: 5_000 });
    await o.getByLabel(inboxUi.composer.label).fill("Let me look at your booking.");
    await expect(dialog.getByText(en.personTyping(AGENT))).toBeVisible({ timeout: 5_000 });
    const reached = await timed(async () => {
      await o.getByRole("button", { name: inboxUi.composer.send }).click();
      await expect(log).toContainText("Let me look at your booking.", { timeout: 5_000 });
    });
    test.info().annotations.push({ type: "person's message to the visitor (event stream)", description: `${reached} ms` });
    // The visitor's reply goes over HTTP and reaches the owner.
    await ask(vp, "Thank you, it is under Lee.");
    await expect(o.getByRole("list", { name: C.messagesLabel })).toContainText("Thank you, it is under Lee.", { timeout: 5_000 });
    // Every socket the widget tried was refused: nothing came over one.
    const tried = await vp.evaluate(() => (window as unknown as { __socketsTried: string[] }).__socketsTried);
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.every((u) => u.includes("/parties/widget/"))).toBe(true);
  } finally {
    await visitor.close();
    await owner.context.close();
  }
});

test("the e-mail fallback: nobody takes over in time, the visitor leaves an address and goes; the reply reaches the outbox and the widget", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const emailAfterMinutes = 1;
  const a = await newAssistant(request, { handoff: { visitorAction: true, emailAfterMinutes, replyTime: REPLY_TIME } });
  const address = uniqueEmail("visitor");
  const visitor = await browser.newContext({ viewport: sizes[1].viewport });
  const owner = await ownerBrowser(browser, sizes[1].viewport, baseURL!);
  try {
    // The widget's clock is Playwright's, so it can be moved past the time the server set; the server's state stays real.
    const vp = await visitor.newPage();
    await vp.clock.install();
    const dialog = await openWidget(vp, baseURL!, a.key);
    // The action above the message box starts the conversation itself.
    await dialog.getByRole("button", { name: en.talkToPerson }).click();
    await expect(dialog.getByRole("status").filter({ hasText: en.waiting })).toBeVisible();
    await expect(dialog.getByText(en.emailAsk)).toHaveCount(0);
    const sessionId = (await visitorSession(vp, a.id))!;
    expect(sessionId).toBeTruthy();

    await vp.clock.fastForward((emailAfterMinutes * 60 + 5) * 1000);
    await expect(dialog.getByText(en.emailAsk)).toBeVisible({ timeout: 5_000 });
    const field = dialog.getByLabel(en.emailLabel);
    await field.fill("not an address");
    await field.press("Enter");
    await expect(dialog.getByRole("alert").filter({ hasText: en.emailInvalid })).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await field.fill(address);
    await field.press("Enter");
    await expect(dialog.getByText(en.emailThanks)).toBeVisible();
    await expect(dialog.getByText(en.emailAsk)).toHaveCount(0);

    // The owner's view shows the address; the visitor leaves before anyone answers.
    const o = owner.page;
    await o.goto(appRoutes.inboxConversation(a.id, sessionId));
    await expect(o.getByRole("link", { name: address })).toBeVisible();
    await vp.close();
    // Once the visitor's socket is gone, the conversation is no longer live (the reply then goes by e-mail).
    await expect
      .poll(async () => inboxResponse.parse(await (await request.get(`/api/public-assistants/${a.id}/inbox?filter=live`, { headers: auth() })).json()).conversations.map((c) => c.sessionId))
      .not.toContain(sessionId);

    await o.getByRole("button", { name: C.takeOver }).click();
    await o.getByLabel(inboxUi.composer.label).fill("Yes, we pick up **8 people** at the airport.");
    await o.getByRole("button", { name: inboxUi.composer.send }).click();
    await expect(o.getByRole("list", { name: C.messagesLabel })).toContainText("8 people");

    // The dev outbox has the e-mail to the visitor, with the reply.
    await expect
      .poll(async () => {
        const { emails } = outboxResponse.parse(await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(address)}`)).json());
        return emails.filter((e) => e.to === address).map((e) => ({ subject: e.subject, hasReply: e.text.includes("8 people") }));
      })
      .toEqual([{ subject: handoffMessages.visitorEmailSubject("Dune Tours"), hasReply: true }]);

    // The visitor comes back: the reply is there, under the person's name.
    const again = await visitor.newPage();
    const log = (await openWidget(again, baseURL!, a.key)).getByRole("log");
    await expect(log.locator("strong", { hasText: "8 people" })).toBeVisible();
    await expect(log).toContainText(AGENT);
  } finally {
    await visitor.close();
    await owner.context.close();
  }
});
