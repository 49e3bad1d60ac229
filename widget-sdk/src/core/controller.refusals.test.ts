import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { VNode } from "preact";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { visitorIdentity } from "../../../contract/constants";
import { budgetMessages, visitorIdentityMessages, widgetMessages } from "../../../contract/messages";
import { widgetApiPaths, widgetSessionResponse } from "../../../contract/schemas/widget";
import { widgetStrings } from "../../../contract/widget-strings";
// The chunks the core would load as scripts register themselves when imported.
import "../chunks/ar";
import "../chunks/blocked";
import "../chunks/fr";
import "../chunks/sse";
import { Controller } from "./controller";
import { App } from "./view";

/**
 * The visitor's bad moments against a server mocked at the network (msw): a signed visitor whose
 * token the server refuses (the host page asked once for a new one, then a plain sentence, never
 * the server's technical text), a switched-off, paused or over-limit assistant (the composer off,
 * the owner's contact line, the reason in the visitor's language), and the owner's look and
 * language (theme, language, avatar, availability line); a 5xx (the API's retries, then Retry) and
 * offline. The panel is rendered to VNodes (no DOM),
 * as in chunks/handoff.test.ts.
 */
const HOST = "https://tala.example";
const url = (path: string) => HOST + path;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const tokenFor = (sub: string, n = 1) => `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub, exp: 2e9, n })}.sig`;
const refused = () => HttpResponse.json({ error: visitorIdentityMessages.tokenInvalid, code: "UNAUTHORIZED", requestId: "r" }, { status: 401 });
const CONTACT = "Write to help@shop.example or call +33 1 23 45 67 89";

type Props = Record<string, unknown>;
function elements(node: unknown, out: VNode<Props>[] = []): VNode<Props>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, out));
  else if (node && typeof node === "object" && "type" in node) {
    out.push(node as VNode<Props>);
    elements((node as VNode<Props>).props.children, out);
  }
  return out;
}
const texts = (node: unknown): string[] =>
  Array.isArray(node) ? node.flatMap(texts) : typeof node === "string" ? [node] : node && typeof node === "object" && "props" in node ? texts((node as VNode<Props>).props.children) : [];

let assistant: Record<string, unknown>;
/** The user tokens each POST /sessions carried, in order. */
let sessionTokens: (string | undefined)[];
/** Which tokens the server accepts. */
let accepted: (token: string | undefined) => boolean;
let pageLang: string;
let browser: string[];
let pageDark: boolean;

/** A socket that is closed at once: every message goes over HTTP (Server-Sent Events). */
class BlockedSocket {
  readyState = 3;
  onopen = null;
  onclose = null;
  onmessage = null;
  send() {}
  close() {}
}

beforeEach(() => {
  sessionTokens = [];
  accepted = () => true;
  pageLang = "en";
  browser = ["en"];
  pageDark = false;
  assistant = { id: "asst", name: "Shop helper", headerText: "Shop", welcomeMessage: "", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: false, showSources: false, contactLine: CONTACT };
  const store = new Map<string, string>();
  vi.stubGlobal("document", { documentElement: { get lang() { return pageLang; } } });
  vi.stubGlobal("navigator", { get language() { return browser[0]; }, get languages() { return browser; } });
  vi.stubGlobal("location", { href: "https://shop.example/" });
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  vi.stubGlobal("WebSocket", BlockedSocket);
  server.use(
    http.get(url(widgetApiPaths.config), () => HttpResponse.json({ assistant, limits: { maxMessagesPerSession: 10, dailyLimit: 100 } })),
    http.post(url(widgetApiPaths.sessions), async ({ request }) => {
      const body = (await request.json()) as { userToken?: string };
      sessionTokens.push(body.userToken);
      if (!accepted(body.userToken)) return refused();
      return HttpResponse.json(widgetSessionResponse.parse({ sessionId: "s1", messages: [], remaining: { session: 8, daily: 98 } }));
    }),
    http.post(url(widgetApiPaths.messages("s1")), async ({ request }) => reply(((await request.json()) as { clientMessageId: string }).clientMessageId)),
  );
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
});

async function widget(options: { userToken?: string; refreshToken?: () => unknown; locale?: string } = {}) {
  const emit = vi.fn();
  const c = new Controller({ apiKey: "tala_pk_test", host: HOST, ...(options as object) }, emit);
  c.state.dark = pageDark;
  await c.start();
  c.setOpen(true);
  const app = new App({ c, root: {} as ShadowRoot, host: {} as HTMLElement });
  const tree = () => elements(app.render(app.props));
  return { c, emit, tree, text: () => texts(app.render(app.props)).join("") };
}

/** The reply to "hi" as the server streams it (the visitor's saved message, then the answer). */
function reply(clientMessageId: string) {
  const msg = (id: string, role: string, data: string) => ({ id, chatId: "s1", role, content: { type: "text", data }, files: [], timestamp: 1, status: "complete" });
  const events = [
    ["new-message", { message: msg("u1", "user", "hi"), clientMessageId }],
    ["new-message", { message: msg("a1", "assistant", "Hello!") }],
  ];
  return new HttpResponse(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
}

const sendHi = async (c: Controller) => {
  c.set({ draft: "hi" });
  await c.send();
};

describe("a signed visitor whose token is refused", () => {
  it("asks the host page once for a new token and opens the conversation with it", async () => {
    accepted = (token) => token === tokenFor("u1", 2);
    const refresh = vi.fn(async () => tokenFor("u1", 2));
    const { c } = await widget({ userToken: tokenFor("u1"), refreshToken: refresh });
    await sendHi(c);
    await vi.waitFor(() => expect(c.currentSession).toBe("s1"));
    expect(sessionTokens).toEqual([tokenFor("u1"), tokenFor("u1", 2)]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(c.state.notice).toBeNull();
    expect(c.visTok).toBe(tokenFor("u1", 2));
    await vi.waitFor(() => expect(c.state.messages.map((m) => m.text)).toEqual(["hi", "Hello!"]));
    c.destroy();
  });

  it.each([
    ["returns nothing", () => undefined],
    ["resolves to null", async () => null],
    ["throws", () => { throw new Error("signed out"); }],
    ["rejects", async () => Promise.reject(new Error("500"))],
    ["returns the same token", () => tokenFor("u1")],
    ["returns another user's token", () => tokenFor("u2")],
  ])("when the refresh %s: the plain sentence and the contact line, never the server's text", async (_, fn) => {
    accepted = () => false;
    const refresh = vi.fn(fn);
    const { c, emit, text, tree } = await widget({ userToken: tokenFor("u1"), refreshToken: refresh });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.en.tokenExpired));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sessionTokens).toEqual([tokenFor("u1")]);
    expect(c.state.notice).toMatchObject({ blocking: true });
    expect(text()).toContain(CONTACT);
    expect(text()).not.toContain("HS256");
    expect(text()).not.toContain(visitorIdentityMessages.tokenInvalid);
    expect(emit).toHaveBeenCalledWith("error", { error: widgetStrings.en.tokenExpired, reason: "identity-invalid" });
    // The composer is off; never an anonymous session.
    expect(tree().find((e) => e.type === "textarea")!.props.disabled).toBe(true);
    c.destroy();
  });

  it("a new token the server refuses too: the host is asked once per failure, then the sentence", async () => {
    accepted = () => false;
    let n = 1;
    const refresh = vi.fn(() => tokenFor("u1", ++n));
    const { c } = await widget({ userToken: tokenFor("u1"), refreshToken: refresh });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.en.tokenExpired));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sessionTokens).toEqual([tokenFor("u1"), tokenFor("u1", 2)]);
    c.destroy();
  });

  it("without a refresh callback: the sentence in the visitor's language (French)", async () => {
    accepted = () => false;
    const { c, text } = await widget({ userToken: tokenFor("u1"), locale: "fr" });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.fr.tokenExpired));
    expect(text()).toContain(CONTACT);
    c.destroy();
  });

  it("a reply refused over HTTP (socket blocked): the new token, and the message goes again with it", async () => {
    const fresh = tokenFor("u1", 2);
    const sentWith: (string | null)[] = [];
    server.use(
      http.post(url(widgetApiPaths.messages("s1")), async ({ request }) => {
        const token = request.headers.get(visitorIdentity.tokenHeader);
        sentWith.push(token);
        if (token !== fresh) return refused();
        return reply(((await request.json()) as { clientMessageId: string }).clientMessageId);
      }),
    );
    const refresh = vi.fn(() => fresh);
    const { c, text } = await widget({ userToken: tokenFor("u1"), refreshToken: refresh });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.messages.map((m) => m.text)).toEqual(["hi", "Hello!"]));
    expect(sentWith).toEqual([tokenFor("u1"), fresh]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(c.state.notice).toBeNull();
    expect(text()).not.toContain(widgetStrings.en.tokenExpired);
    c.destroy();
  });

  it("identify(token, refresh) sets the callback used on the next refusal", async () => {
    accepted = (token) => token !== tokenFor("u1", 2);
    const refresh = vi.fn(() => tokenFor("u1", 3));
    const { c } = await widget();
    c.identify(tokenFor("u1", 2), refresh);
    await sendHi(c);
    await vi.waitFor(() => expect(c.currentSession).toBe("s1"));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sessionTokens).toEqual([tokenFor("u1", 2), tokenFor("u1", 3)]);
    c.destroy();
  });
});

describe("an assistant that cannot answer", () => {
  it("switched off: the refusal carries the contact line; the panel says why, in French, with the composer off", async () => {
    browser = ["fr-FR"];
    pageLang = "";
    server.use(http.get(url(widgetApiPaths.config), () => HttpResponse.json({ error: widgetMessages.unavailable, code: "FORBIDDEN", requestId: "r", contactLine: CONTACT }, { status: 403 })));
    const { c, emit, text, tree } = await widget();
    expect(c.state.hidden).toBe(false);
    expect(c.state.locale).toBe("fr");
    await vi.waitFor(() => expect(c.state.notice?.blocking).toBe(true));
    expect(c.state.notice).toMatchObject({ text: widgetStrings.fr.unavailable, blocking: true });
    expect(text()).toContain(CONTACT);
    expect(tree().find((e) => e.type === "textarea")!.props.disabled).toBe(true);
    expect(emit).toHaveBeenCalledWith("error", { error: widgetStrings.fr.unavailable, reason: "unavailable" });
    // No "New conversation" there: it would only clear the sentence for a conversation refused again.
    expect(tree().some((e) => e.props["aria-label"] === widgetStrings.fr.newConversation)).toBe(false);
    expect(tree().some((e) => e.props["aria-label"] === widgetStrings.fr.closeChat)).toBe(true);
    c.destroy();
  });

  it("switched off without a contact line: no widget, as before", async () => {
    server.use(http.get(url(widgetApiPaths.config), () => HttpResponse.json({ error: widgetMessages.unavailable, code: "FORBIDDEN", requestId: "r" }, { status: 403 })));
    const { c, tree } = await widget();
    expect(c.state.hidden).toBe(true);
    expect(tree()).toEqual([]);
    c.destroy();
  });

  it.each([
    ["the month's budget is used (paused)", budgetMessages.budgetReached, "budget-reached", "budgetReached"],
    ["the daily limit is reached", widgetMessages.dailyLimitReached, "daily-limit", "dailyLimitReached"],
    ["it was switched off meanwhile", widgetMessages.unavailable, undefined, "unavailable"],
  ] as const)("%s: the reason in Arabic, the contact line, the composer off", async (_, error, reason, key) => {
    server.use(http.post(url(widgetApiPaths.messages("s1")), () => HttpResponse.json({ error, code: "RATE_LIMITED", requestId: "r", reason }, { status: reason ? 429 : 403 })));
    const { c, text, tree } = await widget({ locale: "ar" });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.ar[key]));
    expect(c.state.notice?.blocking).toBe(true);
    expect(text()).toContain(CONTACT);
    expect(tree().find((e) => e.type === "textarea")!.props.disabled).toBe(true);
    c.destroy();
  });

  it("the contact line reads in the owner's direction in an Arabic panel (dir=auto); its links, e-mail address and phone number clickable", async () => {
    assistant.contactLine = "Write to [our help page](https://shop.example/help), help@shop.example or +33 1 23 45 67 89";
    server.use(http.post(url(widgetApiPaths.messages("s1")), () => HttpResponse.json({ error: budgetMessages.budgetReached, code: "RATE_LIMITED", requestId: "r", reason: "budget-reached" }, { status: 429 })));
    const { c, tree } = await widget({ locale: "ar" });
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.ar.budgetReached));
    const alert = tree().find((e) => e.props.role === "alert")!;
    const line = elements(alert.props.children).find((e) => e.type === "p" && texts(e).join("").startsWith("Write to"))!;
    expect(line.props.dir).toBe("auto");
    expect(elements(line.props.children).filter((e) => e.type === "a").map((a) => [a.props.href, texts(a).join("")])).toEqual([
      ["https://shop.example/help", "our help page"],
      ["mailto:help@shop.example", "help@shop.example"],
      ["tel:+33123456789", "+33 1 23 45 67 89"],
    ]);
    // The visitor's refused message stays, marked as not sent (its own class: full contrast, a dashed outline).
    expect(String(tree().find((e) => e.props.class?.toString().startsWith("m1 u"))!.props.class)).toBe("m1 u f");
    c.destroy();
  });

  it("a 5xx on the message (after the API's retries): the send failed, Retry, the composer stays on, no contact line", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    let calls = 0;
    server.use(http.post(url(widgetApiPaths.messages("s1")), () => (calls++, HttpResponse.json({ error: "Internal error", code: "INTERNAL", requestId: "r" }, { status: 503 }))));
    const { c, text, tree } = await widget();
    await sendHi(c);
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(1000);
      expect(c.state.notice).not.toBeNull();
    });
    vi.useRealTimers();
    expect(c.state.notice).toMatchObject({ retry: true, blocking: false });
    expect(text()).not.toContain(CONTACT);
    expect(text()).toContain(widgetStrings.en.retry);
    expect(tree().find((e) => e.type === "textarea")!.props.disabled).toBe(false);
    expect(c.state.messages.map((m) => m.status)).toEqual(["failed"]);
    // Retry sends it again; the server is back.
    server.use(http.post(url(widgetApiPaths.messages("s1")), async ({ request }) => reply(((await request.json()) as { clientMessageId: string }).clientMessageId)));
    c.retry();
    await vi.waitFor(() => expect(c.state.messages.map((m) => m.text)).toEqual(["hi", "Hello!"]));
    expect(c.state.notice).toBeNull();
    expect(calls).toBeGreaterThanOrEqual(1);
    c.destroy();
  });

  it("a 5xx opening the conversation is retried by the API; the conversation opens when the server is back", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    let failures = 2;
    server.use(
      http.post(url(widgetApiPaths.sessions), () =>
        failures-- > 0 ? HttpResponse.json({ error: "Busy", code: "INTERNAL", requestId: "r" }, { status: 502 }) : HttpResponse.json(widgetSessionResponse.parse({ sessionId: "s1", messages: [], remaining: { session: 8, daily: 98 } })),
      ),
    );
    const { c } = await widget();
    const sent = sendHi(c);
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(1000);
      expect(c.currentSession).toBe("s1");
    });
    vi.useRealTimers();
    await sent;
    await vi.waitFor(() => expect(c.state.messages.map((m) => m.text)).toEqual(["hi", "Hello!"]));
    expect(c.state.notice).toBeNull();
    c.destroy();
  });

  it("a failure that is not final shows no contact line (Retry instead)", async () => {
    server.use(http.post(url(widgetApiPaths.messages("s1")), () => HttpResponse.error()));
    const { c, text } = await widget();
    await sendHi(c);
    await vi.waitFor(() => expect(c.state.notice?.text).toBe(widgetStrings.en.sendFailed));
    expect(text()).not.toContain(CONTACT);
    expect(text()).toContain(widgetStrings.en.retry);
    c.destroy();
  });
});

describe("the owner's look and language", () => {
  it.each([
    ["auto", false, false],
    ["auto", true, true],
    ["dark", false, true],
    ["light", true, false],
    [undefined, true, true],
  ] as const)("theme %s with a page/OS that is dark: %s → dark %s", async (theme, dark, expected) => {
    assistant.theme = theme;
    pageDark = dark;
    const { c, tree } = await widget();
    expect(String(tree()[0]!.props.class).split(" ").includes("dk")).toBe(expected);
    c.destroy();
  });

  it("a fixed language wins over the page's and the browser's; the site's own locale wins over it", async () => {
    assistant.language = "ar";
    browser = ["fr-FR", "en"];
    pageLang = "en";
    const a = await widget();
    expect(a.c.state.locale).toBe("ar");
    // A setLocale the widget cannot speak falls back to the owner's choice, not the browser's.
    a.c.setLocale("de");
    await vi.waitFor(() => expect(a.c.state.locale).toBe("ar"));
    a.c.destroy();
    const b = await widget({ locale: "fr" });
    expect(b.c.state.locale).toBe("fr");
    b.c.destroy();
    assistant.language = "auto";
    const d = await widget();
    expect(d.c.state.locale).toBe("en");
    d.c.destroy();
  });

  it("the header: the avatar (alt: the assistant's name, a fixed box with the initial under it) and the availability line", async () => {
    assistant.avatarUrl = "/api/widget/avatars/asst.png";
    assistant.availabilityLine = "We usually reply within an hour";
    const { c, tree, text } = await widget();
    const img = tree().find((e) => e.type === "img")!;
    expect(img.props).toMatchObject({ src: `${HOST}/api/widget/avatars/asst.png`, alt: "Shop helper", width: 32, height: 32 });
    const box = tree().find((e) => e.props.class === "av")!;
    expect(box.props["data-i"]).toBe("S");
    // A failed load hides the image: the initial shows in the same box.
    const el = { hidden: false };
    (img.props.onError as (e: unknown) => void)({ currentTarget: el });
    expect(el.hidden).toBe(true);
    expect(text()).toContain("We usually reply within an hour");
    c.destroy();
  });

  it("an avatar address that is not http(s) is not shown; none set: no box", async () => {
    assistant.avatarUrl = "javascript:alert(1)";
    const a = await widget();
    expect(a.tree().some((e) => e.type === "img" || e.props.class === "av")).toBe(false);
    a.c.destroy();
    delete assistant.avatarUrl;
    const b = await widget();
    expect(b.tree().some((e) => e.props.class === "av")).toBe(false);
    b.c.destroy();
  });

  it("the typing indicator: three dots, its words for screen readers only", async () => {
    const { c, tree } = await widget();
    c.set({ busy: true });
    const status = tree().find((e) => e.props.role === "status")!;
    expect(status.props.class).toBe("m1 ty");
    const inside = elements(status.props.children);
    expect(inside.filter((e) => e.type === "i")).toHaveLength(3);
    expect(inside.find((e) => e.props.class === "x")!.props.children).toBe(widgetStrings.en.thinking);
    c.destroy();
  });
});
