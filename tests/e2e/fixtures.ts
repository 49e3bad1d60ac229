import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type TestInfo } from "@playwright/test";
import { outboxResponse } from "../../contract";

export { expect };

/**
 * The address a spec file's API calls come from (`cf-connecting-ip`, which the local runtime keeps
 * when the client sets it): each file is its own client, as separate people are, so the files'
 * owners do not share one address's registration limit. The browser's own requests keep the
 * loopback address.
 */
function clientAddressOf(file: string): string {
  let hash = 0;
  for (const ch of file) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.77.${(hash >>> 8) % 250}.${(hash % 250) + 1}`;
}

/**
 * The address the browser's widget calls come from: each test's visitors are their own network,
 * as separate people are, so the whole run's visitors do not share one address's per-IP
 * throttles (new conversations per hour above all). Set on the calls to Tala's `/api/widget/`
 * (a page's own `page.route` handlers run first and may fall back to this one).
 */
function visitorAddressOf(testInfo: TestInfo): string {
  let hash = 0;
  for (const ch of `${testInfo.file}\n${testInfo.titlePath.join("\n")}\n${testInfo.retry}`) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.78.${(hash >>> 8) % 250}.${(hash % 250) + 1}`;
}

async function visitorsFromOwnAddress(context: BrowserContext, testInfo: TestInfo) {
  const tala = process.env.E2E_BASE_URL;
  if (!tala) return;
  const origin = new URL(tala).origin;
  const address = visitorAddressOf(testInfo);
  await context.route(
    (url) => url.origin === origin && url.pathname.startsWith("/api/widget/"),
    async (route) => route.fallback({ headers: { ...(await route.request().allHeaders()), "cf-connecting-ip": address } }),
  );
}

/** Every test gets the server started by global-setup.ts as its baseURL. */
export const test = base.extend<{ visitorAddresses: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  request: async ({ playwright, baseURL }, use, testInfo) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "cf-connecting-ip": clientAddressOf(testInfo.file) } });
    await use(request);
    await request.dispose();
  },
  context: async ({ context }, use, testInfo) => {
    await visitorsFromOwnAddress(context, testInfo);
    await use(context);
  },
  // Contexts a test opens itself (a second device, a visitor beside the owner) get the test's address too.
  visitorAddresses: [
    async ({ browser }: { browser: Browser }, use: () => Promise<void>, testInfo: TestInfo) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
        const context = await newContext(...args);
        await visitorsFromOwnAddress(context, testInfo);
        return context;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
    },
    { auto: true },
  ],
});

/** A fresh address per test, so runs never collide in the shared database. */
export const uniqueEmail = (tag = "user") => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** Reads the newest code sent to `email` from the local dev outbox, as a developer would. */
export async function latestCode(request: APIRequestContext, email: string): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
    if (res.ok()) {
      const { emails } = outboxResponse.parse(await res.json());
      const hit = emails.find((e) => e.to === email && e.code);
      if (hit?.code) return hit.code;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no code in the dev outbox for ${email}`);
}
