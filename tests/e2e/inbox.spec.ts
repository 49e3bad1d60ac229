import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  authResponse,
  inboxUi,
  widgetApiPaths,
  widgetSessionResponse,
  type PublicAssistantBody,
} from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { createAssistantWithKey } from "./host-site";

/**
 * The owner's live Inbox in the dashboard, with visitors driven through the widget's HTTP API: a
 * visitor's message appears with no reload (the owner's chat-room socket), and a request for a
 * person shows on the navigation badge, the Inbox tab and its filter. Desktop and phone, light and
 * dark, each screen checked with axe. Taking over, talking and handing back, with a visitor's
 * widget in a second browser: handoff.spec.ts.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const C = inboxUi.conversation;

async function owner(request: APIRequestContext) {
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("inbox"), password: "owner password 1", firstName: "Sam", lastName: "Lee" } });
  expect(res.status()).toBe(201);
  const { token } = authResponse.parse(await res.json());
  const auth = { authorization: `Token ${token}` };
  const body: PublicAssistantBody = { name: "Dune Tours", config: { handoff: { visitorAction: true, businessHours: "Mon–Fri 9–18", replyTime: "Within an hour" } } };
  const { id, key } = await createAssistantWithKey(request, auth, body);
  return { token, auth, id, key: { "x-assistant-key": key } };
}

async function visitorSays(request: APIRequestContext, key: Record<string, string>, content: string, sessionId?: string) {
  const id = sessionId ?? widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "https://dunetours.example/trips", locale: "en" } })).json()).sessionId;
  const sent = await request.post(widgetApiPaths.messages(id), { headers: key, data: { content, clientMessageId: `v-${Math.random()}` } });
  expect(sent.status()).toBe(200);
  await sent.text();
  return id;
}

async function signIn(page: Page, token: string, theme: "light" | "dark" = "light") {
  await page.goto("/login");
  await page.evaluate(([t, th]) => {
    localStorage.setItem("token", t!);
    localStorage.setItem("vite-ui-theme", th!);
  }, [token, theme]);
}

async function expectAxeClean(page: Page) {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const res = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(violations).toEqual([]);
}

test.use({ bypassCSP: true });

test("the Inbox is live: a visitor's message appears with no reload, and a request rings the badge", async ({ page, request }) => {
  test.setTimeout(90_000);
  const o = await owner(request);
  await visitorSays(request, o.key, "Do you offer airport pickup?");
  await signIn(page, o.token);
  await page.goto(`/app/public-assistants/${o.id}?tab=inbox`);
  const list = page.getByRole("list", { name: inboxUi.listLabel });
  await expect(list).toContainText("Do you offer airport pickup?");
  // The watch is asked once the socket is up; a new visitor's message then arrives over it.
  await expect(page.getByText(inboxUi.polling)).toBeHidden();
  await page.waitForResponse((r) => r.url().includes("/inbox/watch") && r.status() === 204);
  // The row appears while the visitor's request is still answering (the target is 1 s; slack for a loaded machine).
  const second = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: o.key, data: { referrer: "", locale: "fr" } })).json()).sessionId;
  const sending = request.post(widgetApiPaths.messages(second), { headers: o.key, data: { content: "Can I book the Sahara trip for 8 people?", clientMessageId: "v-live" } });
  await expect(list.getByRole("button").first()).toContainText("Can I book the Sahara trip for 8 people?", { timeout: 3_000 });
  await (await sending).text();

  // The visitor asks for a person: the navigation badge and the Inbox tab count it, at once.
  const asked = await request.post(widgetApiPaths.handoff(second), { headers: o.key, data: {} });
  expect(asked.status()).toBe(202);
  await expect(page.getByRole("link", { name: new RegExp(inboxUi.badge(1)) })).toBeVisible();
  await expect(page.getByRole("tab", { name: new RegExp(inboxUi.badge(1)) })).toBeVisible();
  await expect(page.getByRole("group", { name: inboxUi.filtersLabel }).getByRole("button", { name: /Needs a person/ })).toContainText("1");
});

for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`the Inbox, a conversation, and the Talk to a person settings are axe-clean on ${name}, light and dark, without sideways scrolling`, async ({ browser, request }) => {
    test.setTimeout(90_000);
    const o = await owner(request);
    const s = await visitorSays(request, o.key, "I would like to talk to someone");
    await request.post(widgetApiPaths.handoff(s), { headers: o.key, data: { email: "visitor@example.com" } });
    for (const theme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport, bypassCSP: true, baseURL: process.env.E2E_BASE_URL });
      const page = await context.newPage();
      await signIn(page, o.token, theme);
      await page.goto(`/app/public-assistants/${o.id}?tab=inbox`);
      await expect(page.getByRole("list", { name: inboxUi.listLabel })).toContainText("I would like to talk to someone");
      await expectAxeClean(page);
      await page.goto(`/app/public-assistants/${o.id}?tab=inbox&session=${s}`);
      await expect(page.getByRole("link", { name: "visitor@example.com" })).toBeVisible();
      await expect(page.getByRole("button", { name: C.takeOver })).toBeVisible();
      await expectAxeClean(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.goto(`/app/public-assistants/${o.id}?tab=settings`);
      await page.getByRole("heading", { name: inboxUi.settings.title }).scrollIntoViewIfNeeded();
      await expectAxeClean(page);
      await context.close();
    }
  });
}
