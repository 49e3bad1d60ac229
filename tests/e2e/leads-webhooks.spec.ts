/**
 * Lead capture and signed webhooks, end to end: an owner sets a lead form (on, asked before the
 * first message, their own labels) and a webhook for `lead.created` to a receiver (a Node http
 * server in the test) in the dashboard, keeping the secret shown once; a visitor on ANOTHER origin
 * fills the form in the widget; the receiver gets `lead.created` signed with that secret (checked
 * here as the README's verifiers do); the lead is in the Leads tab and in its CSV export, the
 * delivery in the endpoint's deliveries. Desktop and phone, light and dark, axe on each screen.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { Page } from "@playwright/test";
import { appRoutes, authResponse, deliveriesResponse, leadsUi, webhookEventSchema, webhookLimits, webhooksResponse, webhooksUi, widgetStrings } from "../../contract";
import { axeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";
import { attrValue, createAssistantWithKey, startHostSite } from "./host-site";
import { freePort } from "./server";

const en = widgetStrings.en;
const F = leadsUi.form;
const W = webhooksUi;
const INTRO = "Tell us how to reach you";
const THANKS = "Thanks, Dune Tours will call you today.";
const NAME_LABEL = "Your name";
const PHONE_LABEL = "Mobile";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook receiver: every POST it gets, answered 200. */
async function startReceiver() {
  const received: Received[] = [];
  const port = await freePort();
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/tala`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The README's check: HMAC-SHA256 of "<t>.<raw body>" with the secret, in constant time, t within the tolerance. */
function signatureValid(header: string, body: string, secret: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > webhookLimits.signatureToleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, "hex"));
}

async function looks(page: Page, testInfo: Parameters<typeof shot>[1], name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Let the theme's transitions settle before reading colours.
    await page.waitForTimeout(300);
    expect((await sidewaysOverflow(page)).overflow).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, testInfo, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

for (const size of [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
]) {
  test(`a lead left in the widget reaches the owner's webhook, Leads tab and export (${size.name})`, async ({ browser, request, baseURL }, testInfo) => {
    test.setTimeout(180_000);
    const receiver = await startReceiver();
    const host = await startHostSite((q) => {
      const tala = attrValue(q.get("tala"));
      return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dune Tours</title></head>
<body><h1>Dune Tours</h1><script src="${tala}/widget.js" data-assistant-key="${attrValue(q.get("key"))}" data-host="${tala}" async></script></body></html>`;
    });
    try {
      const reg = await request.post("/api/auth/register", { data: { email: uniqueEmail("leads"), password: "owner password 1", firstName: "Nadia", lastName: "Alaoui" } });
      expect(reg.status()).toBe(201);
      const { token } = authResponse.parse(await reg.json());
      const a = await createAssistantWithKey(request, { Authorization: `Token ${token}` }, { name: "Dune Tours" });

      // The owner, in the dashboard.
      const ownerContext = await browser.newContext({ viewport: size.viewport, baseURL });
      const o = await ownerContext.newPage();
      await o.goto("/login");
      await o.evaluate((t) => {
        localStorage.setItem("token", t);
        sessionStorage.setItem("tala:verifyBannerDismissed", "1");
      }, token);

      // The lead form: on, offered before the first message, the owner's labels and lines, a phone field.
      await o.goto(appRoutes.publicAssistant(a.id, "leads"));
      await expect(o.getByText(leadsUi.emptyOff)).toBeVisible();
      await looks(o, testInfo, "leads-empty");
      await o.getByRole("button", { name: leadsUi.emptyAction }).click();
      await o.getByRole("switch", { name: F.enabled }).click();
      await o.getByLabel(F.addFieldLabel).selectOption("phone");
      await o.getByRole("button", { name: F.addField }).click();
      await o.getByLabel(F.labelIn(F.languages.en!)).first().fill(NAME_LABEL);
      await o.getByLabel(F.labelIn(F.languages.en!)).nth(2).fill(PHONE_LABEL);
      await o.getByRole("checkbox", { name: F.requiredOf(PHONE_LABEL) }).check();
      await o.getByLabel(F.introLabel(F.languages.en!)).fill(INTRO);
      await o.getByLabel(F.thanksLabel(F.languages.en!)).fill(THANKS);
      await o.getByLabel(F.beforeFirst).selectOption("optional");
      await looks(o, testInfo, "lead-form-editor");
      await o.getByRole("button", { name: F.save }).click();
      await expect(o.getByRole("status").filter({ hasText: F.saved })).toBeVisible();

      // A webhook for lead.created to the receiver; its secret, shown once.
      await o.goto(appRoutes.publicAssistant(a.id, "webhooks"));
      await expect(o.getByText(W.emptyTitle)).toBeVisible();
      await o.getByRole("button", { name: W.add }).click();
      const add = o.getByRole("dialog", { name: W.form.addTitle });
      await add.getByLabel(W.form.url).fill(receiver.url);
      await add.getByLabel(W.form.description).fill("CRM");
      await expect(add.getByRole("checkbox", { name: "lead.created" })).toBeChecked();
      await looks(o, testInfo, "webhook-add");
      await add.getByRole("button", { name: W.form.create }).click();
      const shown = o.getByRole("dialog", { name: W.secret.createdTitle });
      const secret = await shown.getByLabel(W.secret.label, { exact: true }).inputValue();
      expect(secret.startsWith(webhookLimits.secretPrefix)).toBe(true);
      await looks(o, testInfo, "webhook-secret");
      await shown.getByRole("button", { name: W.secret.done }).click();
      await expect(o.getByRole("dialog")).toHaveCount(0);
      await expect(o.getByText(secret)).toHaveCount(0);

      // The visitor, on another origin: the form is offered before the first message.
      const visitorContext = await browser.newContext({ viewport: size.viewport });
      const v = await visitorContext.newPage();
      await v.goto(`${host.origin}/?${new URLSearchParams({ tala: baseURL!, key: a.key })}`);
      await v.locator("tala-widget").getByRole("button", { name: en.openChat, expanded: false }).click();
      const panel = v.locator("tala-widget").getByRole("dialog");
      const form = panel.getByRole("form", { name: INTRO });
      await expect(form).toBeVisible();
      await form.getByLabel(NAME_LABEL).fill("Amina Berrada");
      await form.getByLabel(/E-mail/).fill("amina@example.com");
      await form.getByLabel(PHONE_LABEL).fill("+212 600 000 000");
      await form.getByRole("button", { name: en.send }).click();
      await expect(panel.getByText(THANKS)).toBeVisible();

      // The receiver gets lead.created, signed with the endpoint's secret.
      await expect.poll(() => receiver.received.filter((r) => r.body.includes('"lead.created"')).length, { timeout: 30_000 }).toBe(1);
      const hit = receiver.received.find((r) => r.body.includes('"lead.created"'))!;
      expect(hit.headers["user-agent"]).toBe(webhookLimits.userAgent);
      expect(signatureValid(String(hit.headers[webhookLimits.signatureHeader.toLowerCase()]), hit.body, secret)).toBe(true);
      expect(signatureValid(String(hit.headers[webhookLimits.signatureHeader.toLowerCase()]), hit.body, `${secret}x`)).toBe(false);
      const event = webhookEventSchema.parse(JSON.parse(hit.body));
      expect(event.id).toBe(hit.headers[webhookLimits.eventIdHeader.toLowerCase()]);
      expect(event.assistantId).toBe(a.id);
      expect(event.data).toMatchObject({ fields: { name: "Amina Berrada", email: "amina@example.com", phone: "+212 600 000 000" }, trigger: "before-first-message" });

      // The lead in the Leads tab, with the way back to its conversation; and in the export.
      await o.goto(appRoutes.publicAssistant(a.id, "leads"));
      const lead = o.getByText("Amina Berrada").locator("visible=true").first();
      await expect(lead).toBeVisible();
      await expect(o.getByRole("link", { name: leadsUi.openConversationOf("Amina Berrada") }).locator("visible=true")).toHaveAttribute("href", /tab=history&session=/);
      await looks(o, testInfo, "leads");
      const [download] = await Promise.all([o.waitForEvent("download"), o.getByRole("button", { name: leadsUi.exportCsv }).click()]);
      expect(download.suggestedFilename()).toBe(`leads-${a.id}.csv`);
      const csv = await (await import("node:fs/promises")).readFile((await download.path())!, "utf8");
      expect(csv).toContain('"Amina Berrada","amina@example.com"');
      // A phone number's leading + is neutralised against formula injection.
      expect(csv).toContain(`"'+212 600 000 000"`);

      // The delivery in the endpoint's deliveries (once the consumer reported it to the assistant's object).
      const { webhooks } = webhooksResponse.parse(await (await request.get(`/api/public-assistants/${a.id}/webhooks`, { headers: { Authorization: `Token ${token}` } })).json());
      await expect
        .poll(async () => {
          const res = await request.get(`/api/public-assistants/${a.id}/webhooks/${webhooks[0]!.id}/deliveries`, { headers: { Authorization: `Token ${token}` } });
          return deliveriesResponse.parse(await res.json()).deliveries.map((d) => `${d.type}:${d.status}`);
        })
        .toEqual(["lead.created:delivered"]);
      await o.goto(appRoutes.publicAssistant(a.id, "webhooks"));
      const card = o.getByRole("listitem", { name: receiver.url });
      await card.getByRole("button", { name: new RegExp(W.deliveries.show) }).click();
      const deliveries = card.getByRole("region", { name: W.deliveries.title });
      await expect(deliveries.getByText("lead.created")).toBeVisible();
      await expect(deliveries.getByText(W.deliveries.statuses.delivered!)).toBeVisible();
      await expect(card).toContainText("HTTP 200");
      await looks(o, testInfo, "webhooks");

      await visitorContext.close();
      await ownerContext.close();
    } finally {
      await host.close();
      await receiver.close();
    }
  });
}
