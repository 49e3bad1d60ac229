import { createHmac } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  authResponse,
  botDefenceMessages,
  errorBodySchema,
  identitySecretCreated,
  insightsResponse,
  visitorIdentityMessages,
  widgetMessages,
  widgetStrings,
  type PublicAssistantBody,
} from "../../contract";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";

/**
 * Signed visitors and proof-of-work as a visitor meets them, with the real widget on a page of ANOTHER origin: a site signs
 * its user (the README's Node example) and the widget carries the token (`data-user-token`); the
 * same user on two devices (two browser contexts) sees one history; an assistant that asks every
 * new conversation for a proof-of-work is answered by the widget's solver, and the proof it sent
 * cannot be replayed or forged.
 */

const en = widgetStrings.en;
let host: Awaited<ReturnType<typeof startHostSite>> | undefined;
let hostOrigin = "";
let token = "";

/** The README's Node signing example, as a site's server would run it. */
function signVisitor(secret: string, claims: Record<string, unknown>) {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const data = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}`;
  return `${data}.${createHmac("sha256", secret).update(data).digest("base64url")}`;
}

/** GET /?tala=<origin>&key=<key>[&token=<jwt>] on the host page's server: the snippet, with data-user-token when given. */
function hostPage(tala: string, key: string, userToken?: string) {
  const q = new URLSearchParams({ tala, key, ...(userToken ? { token: userToken } : {}) });
  return `${hostOrigin}/?${q}`;
}

test.beforeAll(async ({ request }) => {
  host = await startHostSite((q) => {
    const attr = attrValue;
    const userToken = q.get("token") ? ` data-user-token="${attr(q.get("token"))}"` : "";
    return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Members area</title></head>
<body><p>Members area</p><script src="${attr(q.get("tala"))}/widget.js" data-assistant-key="${attr(q.get("key"))}" data-host="${attr(q.get("tala"))}"${userToken} async></script></body></html>`;
  });
  hostOrigin = host.origin;
  const res = await request.post("/api/auth/register", { data: { email: uniqueEmail("visitors"), password: "correct horse battery", firstName: "Owner" } });
  expect(res.ok()).toBe(true);
  token = authResponse.parse(await res.json()).token;
});

test.afterAll(async () => {
  await host?.close();
});

const auth = () => ({ Authorization: `Token ${token}` });

const createAssistant = (request: APIRequestContext, body: PublicAssistantBody = {}) => createAssistantWithKey(request, auth(), { name: "Members desk", ...body });

const launcher = (page: Page) => page.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false });

async function ask(page: Page, question: string) {
  const input = page.getByRole("dialog").getByRole("textbox", { name: en.messageLabel });
  await input.fill(question);
  await input.press("Enter");
}

test("a signed-in visitor finds their conversation on a second device; a token the site did not sign is refused, never anonymous", async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const { id, key } = await createAssistant(request);
  const created = await request.post(`/api/public-assistants/${id}/identity-secret`, { headers: auth(), data: {} });
  expect(created.status()).toBe(201);
  const { secret } = identitySecretCreated.parse(await created.json());
  const userToken = signVisitor(secret, { sub: "member-42", name: "Amina", email: "amina@example.com" });

  // Device one: the visitor asks a question.
  const laptop = await browser.newContext();
  const first = await laptop.newPage();
  await first.goto(hostPage(baseURL!, key, userToken));
  await launcher(first).click();
  await ask(first, "Where do I change my delivery address?");
  const log = first.getByRole("dialog").getByRole("log");
  await expect(log).toContainText("Where do I change my delivery address?");
  // Offline mode, an empty knowledge base: the honest answer that nothing was found.
  await expect(log).toContainText(widgetMessages.offlineNothing.slice(0, 40));
  await laptop.close();

  // Device two, nothing shared but the site's sign-in: the conversation is listed and reopens.
  const phone = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const second = await phone.newPage();
  await second.goto(hostPage(baseURL!, key, userToken));
  await launcher(second).click();
  const dialog = second.getByRole("dialog");
  await dialog.getByRole("button", { name: en.conversations }).click();
  const item = dialog.getByRole("button", { name: /Where do I change my delivery address\?/ });
  await expect(item).toBeVisible();
  await item.click();
  await expect(dialog.getByRole("log")).toContainText("Where do I change my delivery address?");
  await phone.close();

  // The owner sees who it was.
  const history = await (await request.get(`/api/public-assistants/${id}/chats?user=member-42`, { headers: auth() })).json();
  expect(JSON.stringify(history)).toContain("Amina");

  // A token signed with another secret: the widget says so (in plain words, never the server's technical ones) and starts nothing anonymously.
  const stranger = await browser.newContext();
  const third = await stranger.newPage();
  const starts: number[] = [];
  third.on("response", (r) => {
    if (r.url().endsWith("/api/widget/sessions") && r.request().method() === "POST") starts.push(r.status());
  });
  await third.goto(hostPage(baseURL!, key, signVisitor("tala_vs_not-this-assistants-secret-at-all-000000", { sub: "member-42" })));
  await launcher(third).click();
  await ask(third, "Hello?");
  await expect(third.getByRole("dialog")).toContainText(widgetStrings.en.tokenExpired);
  await expect(third.getByRole("dialog")).not.toContainText(visitorIdentityMessages.tokenInvalid);
  expect(starts.length).toBeGreaterThan(0);
  expect(starts.every((s) => s === 401)).toBe(true);
  await stranger.close();
});

test("bot defence on: the real widget solves the proof-of-work in the background; its proof cannot be replayed or forged", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const { id, key } = await createAssistant(request, { config: { botDefence: "always" } });
  const starts: { status: number; body: Record<string, unknown> }[] = [];
  page.on("response", async (r) => {
    if (!r.url().endsWith("/api/widget/sessions") || r.request().method() !== "POST") return;
    starts.push({ status: r.status(), body: (r.request().postDataJSON() ?? {}) as Record<string, unknown> });
  });
  await page.goto(hostPage(baseURL!, key));
  await launcher(page).click();
  await ask(page, "Is anyone there?");
  const log = page.getByRole("dialog").getByRole("log");
  await expect(log).toContainText("Is anyone there?");
  // Asked first (428), then the solved proof started the conversation (201); the visitor saw no error.
  await expect.poll(() => starts.map((s) => s.status)).toEqual([428, 201]);
  await expect(page.getByRole("dialog")).not.toContainText(botDefenceMessages.proofRefused);
  const solved = starts[1]!.body as { proof: { challenge: string; nonce: string } };
  expect(solved.proof.challenge).toBeTruthy();

  // The same proof again (replayed), and a forged one: refused with a fresh challenge each time.
  const headers = { "x-assistant-key": key, origin: hostOrigin };
  const replayed = await request.post("/api/widget/sessions", { headers, data: solved });
  expect(replayed.status()).toBe(403);
  const replayBody = errorBodySchema.parse(await replayed.json());
  expect(replayBody.error).toBe(botDefenceMessages.proofRefused);
  expect(replayBody.challenge?.challenge).toBeTruthy();
  expect(replayBody.challenge?.challenge).not.toBe(solved.proof.challenge);
  const forged = await request.post("/api/widget/sessions", { headers, data: { proof: { challenge: solved.proof.challenge.replace(/.$/, (c) => (c === "A" ? "B" : "A")), nonce: solved.proof.nonce } } });
  expect(forged.status()).toBe(403);

  // The owner's counts: one challenged by the widget's first try, two refused.
  const insights = insightsResponse.parse(await (await request.get(`/api/public-assistants/${id}/insights`, { headers: auth() })).json());
  expect(insights.defence).toMatchObject({ challenged: 1, refused: 2, required: true });
});
