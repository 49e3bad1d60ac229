// @vitest-environment happy-dom
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { h, render } from "preact";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { widgetApiPaths } from "../../../contract/schemas/widget";
import { widgetStrings } from "../../../contract/widget-strings";
import { chunk } from "../core/chunks";
import { Controller } from "../core/controller";
import { App } from "../core/view";
// A French visitor's page: the French strings and the lead form's French file, as the core loads them.
import "./fr";
import "./lead-fr";

/**
 * The lead form comes in one file per language (lead-en, lead-fr, lead-ar: the same code with its
 * texts). A visitor who changes language after the form showed loads that language's file for its
 * texts only: the form that shows keeps running (its values typed stay), in the new language.
 * The core's script tags are played here: appending lead-en's runs its module, then its onload.
 */
const HOST = "https://tala.example";
const server = setupServer(
  http.get(HOST + widgetApiPaths.config, () =>
    HttpResponse.json({
      assistant: {
        id: "asst",
        name: "A",
        headerText: "Shop",
        welcomeMessage: "",
        primaryColor: "#2962FF",
        position: "bottom-right",
        size: "medium",
        allowAttachments: false,
        showSources: false,
        leadForm: {
          fields: [{ key: "email", kind: "email", label: {}, required: true }],
          intro: {},
          thanks: {},
          beforeFirstMessage: "optional",
          afterMessages: 0,
          whenAsked: false,
          whenUnanswered: false,
        },
      },
      limits: { maxMessagesPerSession: 10, dailyLimit: 100 },
    }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const settle = () => new Promise((r) => setTimeout(r, 5));

describe("the lead form's languages", () => {
  it("loads the form with the visitor's language's texts, and another language's texts only when the visitor changes to it", async () => {
    // The build's chunk version, which the core puts in each chunk's name.
    vi.stubGlobal("__TALA_CHUNKS__", "01234567");
    const scripts: string[] = [];
    const append = document.head.appendChild.bind(document.head);
    vi.spyOn(document.head, "appendChild").mockImplementation(<T extends Node>(node: T): T => {
      const s = node as unknown as HTMLScriptElement;
      if (s.tagName !== "SCRIPT") return append(node);
      scripts.push(s.src.replace(/^.*\/widget-chunks\/([\w-]+)\.01234567\.js$/, "$1"));
      // The chunk's file runs, then the browser fires onload.
      void (s.src.includes("/lead-en.") ? import("./lead-en") : Promise.resolve()).then(() => s.onload?.(new Event("load")));
      return node;
    });
    const host = document.createElement("tala-widget");
    const root = host.attachShadow({ mode: "open" });
    document.body.appendChild(host);
    const c = new Controller({ apiKey: "tala_pk_test", host: HOST, locale: "fr" }, vi.fn());
    render(h(App, { c, root, host }), root);
    await c.start();
    c.setOpen(true);
    await settle();
    const fr = widgetStrings.fr;
    const en = widgetStrings.en;
    const label = () => root.querySelector("form.n label")?.textContent;
    // French: its file was already here (as the core's request would have brought it); nothing else loaded.
    expect(label()).toBe(`${fr.leadKinds.email} (${fr.leadRequired})`);
    expect(root.querySelector("form.n button[type=submit]")?.textContent).toBe(fr.send);
    expect(scripts).toEqual([]);
    const code = chunk("lead");
    const input = root.querySelector<HTMLInputElement>("#tl-email")!;
    input.value = "ines@dune.example";
    input.dispatchEvent(new Event("input", { bubbles: true }));

    // The site switches to English: lead-en's file loads for its texts; the form's code and its value stay.
    c.setLocale("en");
    // Its module's first import is transformed on the fly here: wait for the texts rather than a fixed time.
    await vi.waitFor(() => expect(label()).toBe(`${en.leadKinds.email} (${en.leadRequired})`), { timeout: 3000 });
    expect(scripts).toEqual(["lead-en"]);
    expect(chunk("lead")).toBe(code);
    expect(root.querySelector<HTMLInputElement>("#tl-email")?.value).toBe("ines@dune.example");
  });
});
