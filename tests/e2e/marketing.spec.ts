import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appMessages, chatUi, fixedBlogPosts, footerLinks, publicRoutes, serviceWorker, widgetStrings } from "../../contract";
import { test, expect } from "./fixtures";
import type { APIRequestContext, Page } from "@playwright/test";

/** Every public page the marketing build writes, with its h1. */
const pages = [
  { path: publicRoutes.home, h1: /An AI assistant for you/, title: /^Tala: AI assistants/ },
  { path: publicRoutes.blog, h1: /^Blog$/, title: "Blog | Tala" },
  { path: publicRoutes.faq, h1: /Frequently asked questions/, title: /Frequently asked questions \| Tala/ },
  { path: publicRoutes.privacyPolicy, h1: /Privacy policy/, title: /Privacy policy \| Tala/ },
  { path: publicRoutes.terms, h1: /Terms of use/, title: /Terms of use \| Tala/ },
  { path: publicRoutes.blogPost(1), h1: /Introducing Tala/, title: /Introducing Tala/ },
  { path: publicRoutes.blogPost(8), h1: /knowledge base/, title: /knowledge base/ },
];

/** The top bar and footer shared with the app, signed out. */
async function expectChrome(page: Page) {
  const top = page.getByRole("banner");
  await expect(top.getByRole("link", { name: "Tala" })).toHaveAttribute("href", "/");
  await expect(top.getByRole("link", { name: appMessages.home })).toHaveAttribute("href", "/");
  await expect(top.getByRole("link", { name: appMessages.signIn })).toHaveAttribute("href", publicRoutes.login);
  await expect(top.getByRole("link", { name: appMessages.getStarted })).toHaveAttribute("href", publicRoutes.register);
  const footer = page.getByRole("contentinfo");
  for (const link of footerLinks) await expect(footer.getByRole("link", { name: link.label, exact: true })).toHaveAttribute("href", link.path);
  await expect(footer.getByRole("link", { name: new RegExp(appMessages.storeBadge.title) })).toBeVisible();
  await expect(footer.getByText(appMessages.credit)).toBeVisible();
}

test.describe("marketing pages", () => {
  for (const p of pages) {
    test(`${p.path} renders its content, title and head tags`, async ({ page, baseURL }) => {
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(200);
      await expect(page).toHaveTitle(p.title);
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(p.h1);
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.locator('meta[name="viewport"]')).toHaveAttribute("content", /width=device-width/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", /^https?:\/\//);
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", serviceWorker.manifestPath);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
      expect(new URL(canonical!).pathname).toBe(p.path);
      // Budgets: no external script or stylesheet to block rendering.
      await expect(page.locator("script[src], link[rel=stylesheet]")).toHaveCount(0);
      await expectChrome(page);
      expect(baseURL).toBeTruthy();
    });
  }

  test("the home page leads to registration and lists the latest posts", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "For everyone who chats" })).toBeVisible();
    await expect(page.getByRole("heading", { name: /For site owners/ })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: appMessages.getStarted }).first().click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("the home page shows the product and starts a guest chat with no sign-up", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".shot")).toBeVisible();
    await expect(page.locator(".shot")).toHaveAttribute("aria-hidden", "true");
    await page.getByRole("link", { name: appMessages.tryAsGuest }).click();
    await expect(page).toHaveURL(/\/app\/new-chat$/);
    await expect(page.getByRole("textbox", { name: chatUi.composerLabel })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem("guestSessionId"))).toMatch(/^guest-\d+-[a-z0-9]+$/);
  });

  test("a reader signed in to the dashboard sees their menu (Settings, Sign out) instead of Sign In", async ({ page, request }) => {
    const email = `marketing-${Date.now()}@example.test`;
    const res = await request.post("/api/auth/register", { data: { email, password: "marketing password 1", firstName: "Noor", lastName: "", phone: "", birthDate: "" } });
    expect(res.status()).toBe(201);
    const { token } = (await res.json()) as { token: string };
    await page.goto(publicRoutes.blog);
    await page.evaluate((t) => localStorage.setItem("token", t), token);
    await page.goto(publicRoutes.blog);
    const top = page.getByRole("banner");
    const menu = top.getByText("Noor", { exact: true });
    await expect(menu).toBeVisible();
    await expect(top.getByRole("link", { name: appMessages.signIn })).toBeHidden();
    await expect(top.getByRole("link", { name: appMessages.getStarted })).toBeHidden();
    await menu.click();
    await expect(top.getByRole("link", { name: appMessages.settings })).toHaveAttribute("href", "/app/settings");
    await page.keyboard.press("Escape");
    await expect(top.getByRole("link", { name: appMessages.settings })).toBeHidden();
    await menu.click();
    await top.getByRole("button", { name: appMessages.signOut }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    expect((await request.get("/api/auth/me", { headers: { authorization: `Token ${token}` } })).status()).toBe(401);
    // An expired or revoked token keeps the signed-out bar.
    await page.evaluate((t) => localStorage.setItem("token", t), token);
    await page.goto(publicRoutes.blog);
    await expect(page.getByRole("banner").getByRole("link", { name: appMessages.signIn })).toBeVisible();
  });

  test("the blog lists at least six posts, in English and French", async ({ page }) => {
    await page.goto(publicRoutes.blog);
    const cards = page.getByRole("main").getByRole("article");
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    await expect(page.locator('article[lang="fr"]').first()).toBeVisible();
  });

  for (const [path, id] of Object.entries(fixedBlogPosts)) {
    test(`${path} shows post ${id}, the same as /blog/${id}`, async ({ page }) => {
      await page.goto(publicRoutes.blogPost(id));
      const title = await page.getByRole("heading", { level: 1 }).textContent();
      const body = await page.locator(".prose").textContent();
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title!);
      expect(await page.locator(".prose").textContent()).toBe(body);
      await expect(page.locator("html")).toHaveAttribute("lang", path.startsWith("/ia") ? "fr" : "en");
      // Both addresses name one canonical URL: the fixed route.
      expect(new URL((await page.locator('link[rel="canonical"]').getAttribute("href"))!).pathname).toBe(path);
      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
    });
  }

  test("an unknown blog id answers the 404 page, which leads back to /blog", async ({ page }) => {
    const res = await page.goto("/blog/999");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post not found");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await page.getByRole("main").getByRole("link", { name: "Back to the blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test("any other unknown path lands on /", async ({ page }) => {
    await page.goto("/no-such-page/at-all");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/An AI assistant for you/);
  });

  test("sitemap.xml, robots.txt and the manifest describe the site", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    for (const path of ["/", "/blog", "/faq", "/privacy-policy", "/terms", ...Object.keys(fixedBlogPosts)]) {
      expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+${path === "/" ? "/" : path}</loc>`));
    }
    expect(sitemap).not.toContain("/blog/3<"); // the canonical of post 3 is /ai-morocco
    expect(await (await request.get("/robots.txt")).text()).toMatch(/Sitemap: https?:\/\/.+\/sitemap\.xml/);
    const manifest = await (await request.get(serviceWorker.manifestPath)).json();
    expect(manifest).toMatchObject({ name: "Tala", start_url: "/app", display: "standalone", theme_color: serviceWorker.themeColor });
    const sizes = manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
    for (const icon of manifest.icons) expect((await request.get(icon.src)).headers()["content-type"]).toBe("image/png");
  });

  test("the Theme control applies dark mode, remembers it, and applies it before the first paint", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/faq");
    await page.getByRole("banner").getByLabel(appMessages.theme).selectOption("dark");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem("vite-ui-theme"))).toBe("dark");
    // The class is there as soon as the document exists: set by the inline head script.
    await page.goto("/blog");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    // A hovered button keeps its white text at AA contrast in dark mode, as in light.
    await page.goto("/");
    const cta = page.locator("a.btn:not(.ghost)").first();
    await cta.hover();
    await expect.poll(() => cta.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    const ratio = await cta.evaluate((el) => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) => {
        const [r = 0, g = 0, b = 0] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(el).backgroundColor)];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    expect(ratio).toBeGreaterThanOrEqual(4.5);
    await page.getByRole("banner").getByLabel(appMessages.theme).selectOption("light");
    await expect(page.locator("html")).toHaveClass(/\blight\b/);
  });
});

test.describe("installable app", () => {
  /** Waits until the service worker is active and controls the page. */
  async function controlledBy(page: Page) {
    return page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }));
      }
      return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
    });
  }

  test("the service worker registers with scope /", async ({ page, baseURL }) => {
    await page.goto("/");
    const { scope, script } = await controlledBy(page);
    expect(scope).toBe(`${baseURL}/`);
    expect(new URL(script).pathname).toBe(serviceWorker.path);
  });

  test("offline: /app reloads to the app shell, saved pages stay readable, anything else shows the offline page, /api is never cached", async ({
    page,
    context,
  }) => {
    await page.goto("/");
    await controlledBy(page);
    await page.goto("/app");
    await controlledBy(page);
    // Fetched once online: an API answer the worker must not keep.
    expect((await page.request.get("/api/health")).ok()).toBe(true);

    await context.setOffline(true);
    try {
      const res = await page.reload();
      expect(res?.fromServiceWorker()).toBe(true);
      await expect(page.locator("#root > *").first()).toBeAttached();
      expect(await page.title()).toMatch(/Tala/);
      // Any dashboard path opens offline: the same shell, the client router takes over.
      const deep = await page.goto("/app/projects");
      expect(deep?.fromServiceWorker()).toBe(true);
      await expect(page.locator("#root > *").first()).toBeAttached();

      await page.goto("/ia-maroc");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Assistants IA pour les entreprises marocaines/);

      await page.goto("/not-saved-anywhere");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are offline");

      const api = await page.evaluate(() =>
        fetch("/api/health").then(
          () => "answered",
          () => "failed",
        ),
      );
      expect(api).toBe("failed");
    } finally {
      await context.setOffline(false);
    }
  });

  test("the worker's version is in its file and it answers GET_VERSION", async ({ page, request }) => {
    const code = await (await request.get(serviceWorker.path)).text();
    const version = /version ([0-9a-f]{16})/.exec(code)?.[1];
    expect(version).toBeTruthy();
    await page.goto("/");
    await controlledBy(page);
    const reported = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e) => resolve(e.data.version);
          navigator.serviceWorker.controller!.postMessage({ type: "GET_VERSION" }, [channel.port2]);
        }),
    );
    expect(reported).toBe(version);
  });

  /**
   * The service worker side of "a second build with a changed version triggers the update prompt":
   * regenerate only /service-worker.js with another TALA_BUILD_ID (what a deploy does), and check
   * that the new worker installs, waits, takes over on SKIP_WAITING and drops the old cache.
   * The dashboard's prompt itself is tested where registerServiceWorker is wired in.
   */
  test("a new build id installs a waiting worker that takes over on SKIP_WAITING", async ({ page, request }) => {
    const file = join(process.cwd(), "dist/public", serviceWorker.path.slice(1));
    const original = readFileSync(file);
    const versionOf = (code: string) => /version ([0-9a-f]{16})/.exec(code)?.[1];
    const served = async (r: APIRequestContext) => versionOf(await (await r.get(serviceWorker.path)).text());
    const askVersion = () =>
      page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (e) => resolve(e.data.version);
            navigator.serviceWorker.controller!.postMessage({ type: "GET_VERSION" }, [channel.port2]);
          }),
      );

    await page.goto("/");
    await controlledBy(page);
    const first = await askVersion();
    try {
      execFileSync(process.execPath, ["scripts/build-service-worker.mjs"], {
        env: { ...process.env, TALA_BUILD_ID: `e2e-${Date.now()}` },
        stdio: "ignore",
      });
      const second = versionOf(readFileSync(file, "utf8"));
      expect(second).not.toBe(first);
      await expect.poll(() => served(request)).toBe(second);

      // wrangler dev reloads when a file of dist/public changes, and a precache fetch that lands in
      // that moment fails the install: the browser would retry on its next check, so do we.
      const waiting = await page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.getRegistration())!;
        const settled = (worker: ServiceWorker) =>
          new Promise<void>((resolve) => {
            if (worker.state === "installed" || worker.state === "redundant") return resolve();
            worker.addEventListener("statechange", () => (worker.state === "installed" || worker.state === "redundant") && resolve());
          });
        for (let attempt = 0; attempt < 20 && !registration.waiting; attempt++) {
          await registration.update().catch(() => undefined);
          const worker = registration.installing ?? registration.waiting;
          if (worker) await settled(worker);
          if (!registration.waiting) await new Promise((r) => setTimeout(r, 500));
        }
        return Boolean(registration.waiting) && Boolean(navigator.serviceWorker.controller);
      });
      expect(waiting).toBe(true);
      // Still the old version until the page asks.
      expect(await askVersion()).toBe(first);

      await page.evaluate(async (type) => {
        const registration = (await navigator.serviceWorker.getRegistration())!;
        const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
        registration.waiting!.postMessage({ type });
        await changed;
      }, serviceWorker.skipWaitingType);
      expect(await askVersion()).toBe(second);
      await expect.poll(() => page.evaluate(() => caches.keys())).toEqual([`tala-precache-${second}`]);
    } finally {
      writeFileSync(file, original);
      await expect.poll(() => served(request)).toBe(versionOf(original.toString("utf8")));
    }
  });
});

test.describe("the home page's live demo", () => {
  test("loads the widget only on click, with the local demo assistant, which answers from its document", async ({ page }) => {
    const en = widgetStrings.en;
    const widgetRequests: string[] = [];
    page.on("request", (r) => {
      if (/\/widget(-core)?\.js|\/api\/dev\/demo-assistant/.test(r.url())) widgetRequests.push(r.url());
    });
    await page.goto(publicRoutes.home);
    await expect(page.getByRole("heading", { name: "Try it live" })).toBeVisible();
    // Nothing of the widget before the visitor asks for it.
    expect(widgetRequests).toEqual([]);

    await page.getByRole("button", { name: "Try the live demo" }).click();
    // The widget opens by itself (through its shadow root) once loaded.
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(page.locator("tala-widget").getByRole("button", { name: en.closeChat, expanded: true })).toBeVisible();

    const input = dialog.getByRole("textbox", { name: en.messageLabel });
    await input.fill("What languages does Tala speak?");
    await input.press("Enter");
    const log = dialog.getByRole("log");
    await expect(log).toContainText("French, Arabic and Spanish");
    await expect(log).toContainText("about-tala.md");
  });

  test("without a demo (a deployed site: 404) it says so instead of loading the widget", async ({ page }) => {
    await page.route("**/api/dev/demo-assistant", (route) => route.fulfill({ status: 404, contentType: "application/json", body: "{}" }));
    await page.goto(publicRoutes.home);
    await page.getByRole("button", { name: "Try the live demo" }).click();
    await expect(page.getByRole("status")).toHaveText("The live demo runs on local installs; create your own assistant to try Tala.");
    await expect(page.locator("script[src='/widget.js']")).toHaveCount(0);
  });
});
