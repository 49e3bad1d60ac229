// @vitest-environment happy-dom
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { h, render } from "preact";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { widgetApiPaths } from "../../../contract/schemas/widget";
import { widgetStrings } from "../../../contract/widget-strings";
// The Arabic chunk registers itself when imported, as the script the core would load.
import "../chunks/ar";
import { Controller } from "./controller";
import { App } from "./view";

/**
 * The owner's privacy notice at the composer's foot: the widget rendered into a shadow root of a
 * real DOM (happy-dom) against a config served by a server mocked at the network (msw).
 */
const HOST = "https://tala.example";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

let config: Record<string, unknown>;
/** The config is refused (a revoked key: the widget shows nothing, the notice with it). */
let down: boolean;

beforeEach(() => {
  document.body.innerHTML = "";
  down = false;
  config = {
    id: "asst",
    name: "A",
    headerText: "Shop",
    welcomeMessage: "Hello!",
    primaryColor: "#2962FF",
    position: "bottom-right",
    size: "medium",
    allowAttachments: false,
    showSources: false,
  };
  server.use(
    http.get(HOST + widgetApiPaths.config, () =>
      down ? HttpResponse.json({ error: "Invalid key" }, { status: 401 }) : HttpResponse.json({ assistant: config, limits: { maxMessagesPerSession: 10, dailyLimit: 100 } }),
    ),
  );
});
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});

async function openWidget(locale?: string) {
  const host = document.createElement("tala-widget");
  const root = host.attachShadow({ mode: "open" });
  document.body.appendChild(host);
  const c = new Controller({ apiKey: "tala_pk_test", host: HOST, locale }, vi.fn());
  render(h(App, { c, root, host }), root);
  await c.start();
  // Opening with no stored conversation asks the server for nothing more.
  c.setOpen(true);
  await new Promise((r) => setTimeout(r, 5));
  const composer = root.querySelector("form.c");
  // The line right after the composer, if any.
  const notice = composer?.nextElementSibling?.tagName === "P" ? (composer.nextElementSibling as HTMLElement) : null;
  return { c, root, composer, notice };
}

describe("the privacy notice", () => {
  it("shows the owner's line as a link to the policy, opening in a new tab without the page's opener or referrer", async () => {
    config.privacyNotice = "We keep this chat for 30 days. Read our privacy policy.";
    config.privacyUrl = "https://shop.example/privacy";
    const { notice, root } = await openWidget();
    expect(notice?.textContent).toBe("We keep this chat for 30 days. Read our privacy policy.");
    expect(notice?.getAttribute("dir")).toBe("auto");
    const a = notice!.querySelector("a")!;
    expect(a.getAttribute("href")).toBe("https://shop.example/privacy");
    expect(a.getAttribute("target")).toBe("_blank");
    expect(a.getAttribute("rel")?.split(" ")).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
    // Outside the live log: never announced as a new message.
    expect(notice!.closest("[aria-live]")).toBeNull();
    expect(root.querySelector("[role=log]")?.textContent).not.toContain("privacy policy");
  });

  it("shows a line without a link as plain text, and a link without a line as its address", async () => {
    config.privacyNotice = "Conversations are kept 90 days.";
    let w = await openWidget();
    expect(w.notice?.textContent).toBe("Conversations are kept 90 days.");
    expect(w.notice?.querySelector("a")).toBeNull();
    document.body.innerHTML = "";
    delete config.privacyNotice;
    config.privacyUrl = "https://shop.example/privacy";
    w = await openWidget();
    expect(w.notice?.querySelector("a")?.textContent).toBe("https://shop.example/privacy");
  });

  it("never links an address that is not https (the server validates it; the widget trusts no config)", async () => {
    for (const bad of ["javascript:alert(1)", "http://shop.example/privacy", "data:text/html,x", "//shop.example/privacy"]) {
      document.body.innerHTML = "";
      config.privacyNotice = "Our policy";
      config.privacyUrl = bad;
      const { notice } = await openWidget();
      expect(notice?.textContent).toBe("Our policy");
      expect(notice?.querySelector("a")).toBeNull();
    }
  });

  it("shows nothing when the owner set neither, and refuses a config whose notice is not text", async () => {
    const w = await openWidget();
    expect(w.composer).not.toBeNull();
    expect(w.notice).toBeNull();
    document.body.innerHTML = "";
    config.privacyNotice = { text: "x" };
    const bad = await openWidget();
    // A malformed config is refused whole: no widget, as for any other field.
    expect(bad.c.state.hidden).toBe(true);
    expect(bad.root.querySelector("form.c")).toBeNull();
  });

  it("reads in its own direction in an Arabic (RTL) panel, under the Arabic composer", async () => {
    config.privacyNotice = "نحتفظ بالمحادثة 30 يومًا.";
    config.privacyUrl = "https://shop.example/ar/privacy";
    const { root, notice } = await openWidget("ar");
    expect(root.querySelector(".p")?.getAttribute("dir")).toBe("rtl");
    expect(root.querySelector("textarea")?.getAttribute("aria-label")).toBe(widgetStrings.ar.messageLabel);
    expect(notice?.getAttribute("dir")).toBe("auto");
    expect(notice?.querySelector("a")?.textContent).toBe("نحتفظ بالمحادثة 30 يومًا.");
  });

  it("is gone with the rest of the widget when the config is refused", async () => {
    down = true;
    vi.spyOn(console, "warn").mockImplementation(() => {});
    config.privacyNotice = "Our policy";
    const { root, notice } = await openWidget();
    expect(notice).toBeNull();
    expect(root.textContent).toBe("");
  });
});
