import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { apiKeyResponse, authResponse, identitySecretCreated, publicAssistantResponse, widgetStrings } from "../../contract";
import { test, uniqueEmail } from "./fixtures";
import { freePort } from "./server";

const sign = (secret: string, claims: Record<string, unknown>) => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const data = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}`;
  return `${data}.${createHmac("sha256", secret).update(data).digest("base64url")}`;
};

test("screens", async ({ browser, request, baseURL }) => {
  test.setTimeout(300_000);
  const port = await freePort();
  const host = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://h").searchParams;
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><html lang="${q.get("lang") ?? "en"}"><body style="background:#f4f4f5"><h1>Members area</h1><script src="${baseURL}/widget.js" data-assistant-key="${q.get("key")}" data-host="${baseURL}" data-user-token="${q.get("token") ?? ""}" async></script></body></html>`);
  });
  await new Promise<void>((r) => host.listen(port, "127.0.0.1", r));
  const reg = await request.post("/api/auth/register", { data: { email: uniqueEmail("shots"), password: "correct horse battery", firstName: "Owner" } });
  const token = authResponse.parse(await reg.json()).token;
  const auth = { Authorization: `Token ${token}` };
  const { assistant } = publicAssistantResponse.parse(await (await request.post("/api/public-assistants", { headers: auth, data: { name: "Members desk", showSources: true, config: { monthlyBudget: 5, botDefence: "always" } } })).json());
  await request.post(`/api/public-assistants/${assistant._id}/files`, { headers: auth, multipart: { files: { name: "faq.txt", mimeType: "text/plain", buffer: Buffer.from("Delivery takes three days.\nYou can change your delivery address in Settings, then Addresses.\n") } } });
  const key = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json()).apiKey;
  const { secret } = identitySecretCreated.parse(await (await request.post(`/api/public-assistants/${assistant._id}/identity-secret`, { headers: auth, data: {} })).json());
  const ut = sign(secret, { sub: "member-42", name: "Amina", email: "amina@example.com" });
  for (const [w, h, scheme] of [[1280, 860, "light"], [390, 844, "dark"]] as const) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
    const page = await ctx.newPage();
    await page.goto(`http://127.0.0.1:${port}/?key=${key}&token=${ut}`);
    await page.locator("tala-widget").getByRole("button", { name: widgetStrings.en.openChat }).click();
    const input = page.getByRole("dialog").getByRole("textbox", { name: widgetStrings.en.messageLabel });
    await input.fill("How do I change my delivery address?");
    await input.press("Enter");
    await page.waitForTimeout(2500);
    const chip = page.getByRole("dialog").getByRole("log").getByRole("button", { name: "faq.txt" }).first();
    if (await chip.count()) await chip.click();
    await page.screenshot({ path: `/tmp/shots/widget-${w}-${scheme}.png` });
    await page.getByRole("dialog").getByRole("button", { name: widgetStrings.en.conversations }).click();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/shots/widget-conv-${w}-${scheme}.png` });
    await page.goto(`${baseURL}/login`);
    await page.evaluate((t) => { localStorage.setItem("token", t); sessionStorage.setItem("tala:verifyBannerDismissed", "1"); }, token);
    for (const tab of ["code", "settings", "history", "insights"]) {
      await page.goto(`${baseURL}/app/public-assistants/${assistant._id}?tab=${tab}`);
      await page.waitForTimeout(1500);
      if (tab === "settings") await page.getByRole("tab", { name: /Limits/ }).first().click().catch(() => undefined);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `/tmp/shots/${tab}-${w}-${scheme}.png`, fullPage: true });
    }
    await page.goto(`${baseURL}/app/public-assistants`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/list-${w}-${scheme}.png`, fullPage: true });
    await ctx.close();
  }
  host.close();
});
