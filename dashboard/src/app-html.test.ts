/**
 * app.html must apply the theme before any script module runs, so its inline script cannot import
 * the contract. This test keeps its copies of the contract's values in step.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appMessages, serviceWorker, theme } from "../../contract";

const html = readFileSync(new URL("../app.html", import.meta.url), "utf8");

describe("dashboard/app.html", () => {
  it("reads the theme the contract defines", () => {
    expect(html).toContain(`localStorage.getItem(${JSON.stringify(theme.storageKey)})`);
    expect(html).toContain(JSON.stringify(theme.values));
    expect(html).toContain(`choice = ${JSON.stringify(theme.defaultMain)}`);
  });

  it("shows a spinner with the loading text inside #root before the app runs", () => {
    expect(html).toMatch(/<div id="root">\s*<div class="boot" role="status"><span class="boot-spinner"><\/span>/);
    expect(html).toContain(appMessages.loading);
  });

  it("links the manifest and theme colour of the contract", () => {
    expect(html).toContain(`href="${serviceWorker.manifestPath}"`);
    expect(html).toContain(`content="${serviceWorker.themeColor}"`);
  });
});
