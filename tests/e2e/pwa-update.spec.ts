import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { appMessages, serviceWorker } from "../../contract";
import { expect, test } from "./fixtures";

const file = join(process.cwd(), "dist/public", serviceWorker.path.slice(1));
const versionOf = (code: string) => /version ([0-9a-f]{16})/.exec(code)?.[1];
const served = async (r: APIRequestContext) => versionOf(await (await r.get(serviceWorker.path)).text());

const controllerVersion = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
    }
    return new Promise<string>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => resolve(e.data.version);
      navigator.serviceWorker.controller!.postMessage({ type: "GET_VERSION" }, [channel.port2]);
    });
  });

test("a second build with a changed version makes the app ask to update, and it reloads on confirm", async ({ page, request }) => {
  test.setTimeout(120_000);
  const original = readFileSync(file);
  await page.goto("/app");
  const first = await controllerVersion(page);
  try {
    execFileSync(process.execPath, ["scripts/build-service-worker.mjs"], {
      env: { ...process.env, TALA_BUILD_ID: `e2e-update-${Date.now()}` },
      stdio: "ignore",
    });
    const second = versionOf(readFileSync(file, "utf8"));
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    await expect.poll(() => served(request)).toBe(second);

    const prompt = new Promise<string>((resolve) => {
      page.once("dialog", async (dialog) => {
        resolve(dialog.message());
        await dialog.accept();
      });
    });
    const reloaded = page.waitForEvent("framenavigated", { timeout: 60_000 });
    // What the browser does on its own update check: fetch the worker again (retried, since
    // wrangler dev restarts when dist/public changes and an install can fail in that moment).
    // The accepted prompt reloads the page, which ends this evaluation: that is the expected outcome.
    await page
      .evaluate(async () => {
        const registration = (await navigator.serviceWorker.getRegistration())!;
        for (let attempt = 0; attempt < 20 && !registration.waiting; attempt++) {
          await registration.update().catch(() => undefined);
          await new Promise((r) => setTimeout(r, 500));
        }
      })
      .catch((err: Error) => {
        if (!/Execution context was destroyed|navigation/.test(err.message)) throw err;
      });
    expect(await prompt).toBe(appMessages.updateAvailable);
    await reloaded;
    await expect.poll(() => controllerVersion(page), { timeout: 30_000 }).toBe(second);
  } finally {
    writeFileSync(file, original);
    await expect.poll(() => served(request)).toBe(versionOf(original.toString("utf8")));
  }
});
