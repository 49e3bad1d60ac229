// @vitest-environment happy-dom
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { h, render } from "preact";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { leadLimits, visitorIdentity, widget } from "../../../contract/constants";
import { leadMessages } from "../../../contract/messages";
import type { ConversationHandoff } from "../../../contract/schemas/handoff";
import { leadSubmitBody, type WidgetLeadForm } from "../../../contract/schemas/leads";
import { widgetApiPaths, widgetSessionResponse } from "../../../contract/schemas/widget";
import { widgetStrings } from "../../../contract/widget-strings";
import { Controller } from "../core/controller";
import { App } from "../core/view";
// The chunks the core would load as scripts register themselves when imported.
import "./ar";
import "./handoff";
import "./lead-en";
import "./lead-ar";

/**
 * The widget's lead form (the core with its lead chunk) rendered into a real DOM (happy-dom, a
 * shadow root as on a host page) against a server mocked at the network (msw): the requests the
 * widget makes, the server's refusals, a 5xx, a 429, no network.
 */
const HOST = "https://tala.example";
const KEY = "tala_pk_test";
const t = widgetStrings.en;
const url = (path: string) => HOST + path;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

const form = (over: Partial<WidgetLeadForm> = {}): WidgetLeadForm => ({
  fields: [
    { key: "name", kind: "name", label: {}, required: false },
    { key: "email", kind: "email", label: {}, required: true },
    { key: "phone", kind: "phone", label: {}, required: false },
    { key: "text1", kind: "text", label: { en: "Order number", fr: "Numéro de commande" }, required: false },
  ],
  intro: { en: "Tell us how to reach you." },
  thanks: { en: "Thanks, we'll call you back." },
  beforeFirstMessage: "off",
  afterMessages: 0,
  whenAsked: true,
  whenUnanswered: false,
  ...over,
});
const msg = (id: string, role: string, text: string, extra: object = {}) => ({ id, chatId: "s1", role, content: { type: "text", data: text }, files: [], timestamp: 1, status: "complete", ...extra });

let config: Record<string, unknown>;
let session: { messages: unknown[]; handoff?: ConversationHandoff; leadSent?: boolean; leadAfter?: string | null; visitor?: { id: string; name?: string; email?: string } };
/** Every lead POST: its body and headers. */
let posts: { sid: string; body: unknown; key: string | null; token: string | null }[];
/** New conversations opened, and how long the server takes to open one. */
let opened: number;
let resumeMs: number;
/** What the lead route answers next. */
let answer: () => Response;

/** An open socket: what the widget sends on it is kept (the tests play the server's frames with Controller.apply). */
class OpenSocket {
  readyState = 1;
  sent: string[] = [];
  onopen = null;
  onclose = null;
  onmessage = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {}
}

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = "";
  posts = [];
  opened = 0;
  resumeMs = 0;
  answer = () => HttpResponse.json({ lead: { id: "l1", createdAt: 1 } }, { status: 201 });
  session = { messages: [] };
  config = {
    id: "asst",
    name: "A",
    headerText: "Shop",
    welcomeMessage: "",
    primaryColor: "#2962FF",
    position: "bottom-right",
    size: "medium",
    allowAttachments: false,
    showSources: false,
    leadForm: form(),
  };
  vi.stubGlobal("WebSocket", OpenSocket);
  server.use(
    http.get(url(widgetApiPaths.config), () => HttpResponse.json({ assistant: config, limits: { maxMessagesPerSession: 10, dailyLimit: 100 } })),
    // The conversation s1 (resumed, or the first one opened); a later new one is s2, with nothing in it.
    http.post(url(widgetApiPaths.sessions), async ({ request }) => {
      const { visitorSessionId } = (await request.json()) as { visitorSessionId?: string };
      await delay(resumeMs);
      const first = !opened++ || visitorSessionId === "s1";
      const body = first ? { sessionId: "s1", ...session } : { sessionId: "s2", messages: [] };
      return HttpResponse.json(widgetSessionResponse.parse({ remaining: { session: 8, daily: 98 }, ...body }), { status: first && visitorSessionId ? 200 : 201 });
    }),
    // The contract's path for each conversation (the widget builds it from its own copy of the paths).
    ...["s1", "s2"].map((sid) =>
      http.post(url(widgetApiPaths.lead(sid)), async ({ request }) => {
        posts.push({ sid, body: await request.json(), key: request.headers.get(widget.keyHeader), token: request.headers.get(visitorIdentity.tokenHeader) });
        return answer();
      }),
    ),
  );
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
});

/** Lets Preact render and pending promises settle. */
const settle = () => new Promise((r) => setTimeout(r, 5));

async function openWidget(options: { locale?: string; userToken?: string; stored?: boolean } = {}) {
  if (options.stored) localStorage.setItem(`tala:session:asst${options.userToken ? ":user:u1" : ""}`, "s1");
  const host = document.createElement("tala-widget");
  const root = host.attachShadow({ mode: "open" });
  document.body.appendChild(host);
  const c = new Controller({ apiKey: KEY, host: HOST, locale: options.locale, userToken: options.userToken }, vi.fn());
  render(h(App, { c, root, host }), root);
  await c.start();
  c.setOpen(true);
  await settle();
  const q = <E extends Element = HTMLElement>(sel: string) => root.querySelector<E & HTMLElement>(sel);
  const field = (key: string) => root.getElementById(`tl-${key}`) as HTMLInputElement | null;
  const type = (key: string, value: string) => {
    const input = field(key)!;
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const submit = async () => {
    q("form.n")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    await settle();
  };
  const buttons = () => [...root.querySelectorAll("button")];
  const button = (text: string) => buttons().find((b) => b.textContent === text || b.getAttribute("aria-label") === text);
  const leadForm = () => q<HTMLFormElement>("form.n");
  return { c, root, q, field, type, submit, button, leadForm, textarea: () => q<HTMLTextAreaElement>("textarea")! };
}
type Widget = Awaited<ReturnType<typeof openWidget>>;

/** The visitor sends a message and the server answers it (as its socket frames would). */
async function exchange(w: Widget, text: string, n: number, reply: object = {}) {
  w.c.set({ draft: text });
  await w.c.send();
  const mine = w.c.state.messages.at(-1)!;
  w.c.apply({ event: "new-message", data: { message: msg(`u${n}`, "user", text) as never, clientMessageId: mine.key } });
  w.c.apply({ event: "new-message", data: { message: msg(`a${n}`, "assistant", "An answer.", reply) as never } });
  await settle();
}

/** A JWT with these claims (the widget reads it unverified; the server verifies). */
const jwt = (claims: object) => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}.sig`;
};

describe("the lead form", () => {
  it("renders the owner's form accessibly: a visible label for each field, autocomplete and keyboard types, required said in text", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const w = await openWidget();
    const f = w.leadForm()!;
    expect(f).not.toBeNull();
    // Named by its intro, the owner's line in the visitor's language.
    const intro = w.root.getElementById(f.getAttribute("aria-labelledby")!)!;
    expect(intro.textContent).toBe("Tell us how to reach you.");
    const labels = [...f.querySelectorAll("label")];
    expect(labels.map((l) => l.textContent)).toEqual([t.leadKinds.name, `${t.leadKinds.email} (${t.leadRequired})`, t.leadKinds.phone, "Order number"]);
    for (const l of labels) expect(w.root.getElementById(l.getAttribute("for")!)?.tagName).toBe("INPUT");
    const attrs = (key: string) => {
      const i = w.field(key)!;
      return [i.type, i.getAttribute("autocomplete"), i.getAttribute("dir"), i.maxLength, i.required];
    };
    expect(attrs("name")).toEqual(["text", "name", "auto", leadLimits.maxValueChars.name, false]);
    expect(attrs("email")).toEqual(["email", "email", "ltr", leadLimits.maxValueChars.email, true]);
    expect(attrs("phone")).toEqual(["tel", "tel", "ltr", leadLimits.maxValueChars.phone, false]);
    expect(attrs("text1")).toEqual(["text", null, "auto", leadLimits.maxValueChars.text, false]);
    // Optional before the first message: the visitor may write instead, or dismiss it.
    expect(w.textarea().disabled).toBe(false);
    expect(w.button(t.leadNotNow)).toBeDefined();
    expect(w.button(t.send)?.getAttribute("type")).toBe("submit");
  });

  it("checks the values before sending: each error under its field (aria-invalid, aria-describedby), a summary announced, focus on the first invalid field", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const w = await openWidget();
    w.type("phone", "12-ab");
    await w.submit();
    const email = w.field("email")!;
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(w.root.getElementById(email.getAttribute("aria-describedby")!)?.textContent).toBe(t.leadMissing(t.leadKinds.email));
    expect(w.root.getElementById(w.field("phone")!.getAttribute("aria-describedby")!)?.textContent).toBe(t.leadPhone);
    expect(w.field("name")!.getAttribute("aria-invalid")).toBe("false");
    expect(w.field("name")!.hasAttribute("aria-describedby")).toBe(false);
    expect(w.q("[role=alert]")?.textContent).toBe(t.leadFix);
    expect(w.root.activeElement).toBe(email);
    // An address as the server checks it, a phone with too few digits.
    w.type("email", "ann@shop");
    w.type("phone", "+1 (23)");
    await w.submit();
    expect(w.root.getElementById(w.field("email")!.getAttribute("aria-describedby")!)?.textContent).toBe(t.leadEmail);
    expect(w.field("phone")!.getAttribute("aria-invalid")).toBe("true");
    expect(posts).toEqual([]);
  });

  it("sends { fields, trigger } to its own session with the key, then the owner's thank-you line replaces it in the conversation, once", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const w = await openWidget();
    w.type("name", "  Ann Lee ");
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(w.leadForm()).toBeNull());
    // The conversation opened for it (none was), then the values trimmed, the empty ones left out.
    expect(posts).toEqual([{ sid: "s1", body: { fields: { name: "Ann Lee", email: "ann@shop.example" }, trigger: "before-first-message" }, key: KEY, token: null }]);
    expect(leadSubmitBody.safeParse(posts[0]!.body).success).toBe(true);
    expect(w.q("[role=log]")!.textContent).toContain("Thanks, we'll call you back.");
    expect(w.c.state.leadSent).toBe(true);
    await settle();
    expect(w.root.activeElement).toBe(w.textarea());
    // Not again in this conversation, whatever offers it.
    await exchange(w, "Call me back", 1, { offersLeadForm: true });
    expect(w.leadForm()).toBeNull();
  });

  it("a refusal (400) lands on the field it names (the envelope's fields), else above the buttons", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const w = await openWidget();
    w.type("email", "ann@shop.example");
    const refuse = (body: object) => () => HttpResponse.json({ code: "VALIDATION_ERROR", requestId: "r", ...body }, { status: 400 });
    answer = refuse({ error: "E-mail must be a valid e-mail address.", fields: { "fields.email": "E-mail must be a valid e-mail address." } });
    await w.submit();
    await vi.waitFor(() => expect(w.field("email")!.getAttribute("aria-invalid")).toBe("true"));
    expect(w.root.getElementById(w.field("email")!.getAttribute("aria-describedby")!)?.textContent).toBe("E-mail must be a valid e-mail address.");
    expect(w.q("[role=alert]")?.textContent).toBe(t.leadFix);
    expect(w.root.activeElement).toBe(w.field("email"));
    // The key alone names it too.
    answer = refuse({ error: leadMessages.valueTooLong("Order number", leadLimits.maxValueChars.text), fields: { text1: leadMessages.valueTooLong("Order number", leadLimits.maxValueChars.text) } });
    await w.submit();
    await vi.waitFor(() => expect(w.field("text1")!.getAttribute("aria-invalid")).toBe("true"));
    expect(w.field("email")!.getAttribute("aria-invalid")).toBe("false");
    // A field the form does not have (the owner changed it meanwhile): above the buttons.
    answer = refuse({ error: leadMessages.unknownField("company"), fields: { "fields.company": leadMessages.unknownField("company") } });
    await w.submit();
    await vi.waitFor(() => expect(w.q("[role=alert]")?.textContent).toBe(leadMessages.unknownField("company")));
    expect(w.q<HTMLFormElement>("form.n")!.querySelectorAll("[aria-invalid=true]")).toHaveLength(0);
    // Nothing of the form's: the server's text above the buttons, no Retry (sending again would not help).
    answer = refuse({ error: leadMessages.formOff });
    await w.submit();
    await vi.waitFor(() => expect(w.q("[role=alert]")?.textContent).toBe(leadMessages.formOff));
    expect(w.button(t.retry)).toBeUndefined();
    expect(w.q<HTMLFormElement>("form.n")!.querySelectorAll("[aria-invalid=true]")).toHaveLength(0);
  });

  it("no network, a 5xx or a 429: a clear line and Retry, the values kept; Retry sends them again", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const w = await openWidget();
    w.type("name", "Ann");
    w.type("email", "ann@shop.example");
    answer = () => HttpResponse.error();
    await w.submit();
    await vi.waitFor(() => expect(w.q("[role=alert]")?.textContent).toBe(t.leadFailed));
    expect(w.button(t.retry)?.getAttribute("type")).toBe("submit");
    expect([w.field("name")!.value, w.field("email")!.value]).toEqual(["Ann", "ann@shop.example"]);
    answer = () => new HttpResponse("oops", { status: 500 });
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(2));
    await vi.waitFor(() => expect(w.q("[role=alert]")?.textContent).toBe(t.leadFailed));
    answer = () => HttpResponse.json({ error: leadMessages.tooManyLeads(leadLimits.maxLeadsPerSession), code: "RATE_LIMITED", requestId: "r" }, { status: 429 });
    await w.submit();
    await vi.waitFor(() => expect(w.q("[role=alert]")?.textContent).toBe(leadMessages.tooManyLeads(leadLimits.maxLeadsPerSession)));
    expect(w.button(t.retry)).toBeDefined();
    expect(w.field("email")!.value).toBe("ann@shop.example");
    answer = () => HttpResponse.json({ lead: { id: "l1", createdAt: 1 } }, { status: 201 });
    w.button(t.retry)!.click();
    await w.submit();
    await vi.waitFor(() => expect(w.leadForm()).toBeNull());
    expect(posts.at(-1)!.body).toEqual({ fields: { name: "Ann", email: "ann@shop.example" }, trigger: "before-first-message" });
  });

  it("a signed visitor's name and e-mail are filled in, and their token goes with the lead", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional" });
    const token = jwt({ sub: "u1", name: "Zoë Ähm", email: "zoe@shop.example", exp: 9e9 });
    session.visitor = { id: "u1", name: "Zoë Ähm", email: "zoe@shop.example" };
    const w = await openWidget({ userToken: token });
    expect([w.field("name")!.value, w.field("email")!.value]).toEqual(["Zoë Ähm", "zoe@shop.example"]);
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.token).toBe(token);
  });

  it("in Arabic: the panel right to left, the form's texts in Arabic, addresses and numbers left to right", async () => {
    config.leadForm = form({ beforeFirstMessage: "optional", intro: {} });
    const w = await openWidget({ locale: "ar" });
    await vi.waitFor(() => expect(w.q("label")?.textContent).toBe(widgetStrings.ar.leadKinds.name));
    expect(w.q(".p")!.getAttribute("dir")).toBe("rtl");
    expect(w.q("#tl-i")!.textContent).toBe(widgetStrings.ar.leadIntro);
    // The owner wrote the text field's label in English and French only: English.
    expect([...w.leadForm()!.querySelectorAll("label")].map((l) => l.textContent)[3]).toBe("Order number");
    expect(w.field("email")!.getAttribute("dir")).toBe("ltr");
    expect(w.button(widgetStrings.ar.leadNotNow)).toBeDefined();
    await w.submit();
    expect(w.root.getElementById(w.field("email")!.getAttribute("aria-describedby")!)?.textContent).toBe(widgetStrings.ar.leadMissing(widgetStrings.ar.leadKinds.email));
  });

  it("required before the first message: the composer is disabled with a line saying why, the form cannot be dismissed, until it is sent", async () => {
    config.leadForm = form({ beforeFirstMessage: "required" });
    const w = await openWidget();
    expect(w.textarea().disabled).toBe(true);
    expect(w.c.state.notice?.text).toBe(t.leadFirst);
    expect(w.button(t.leadNotNow)).toBeUndefined();
    // Focus starts in the form; Escape does not dismiss it (it closes the panel, as everywhere).
    expect(w.root.activeElement).toBe(w.field("name"));
    w.field("name")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(w.c.state.open).toBe(false);
    w.c.setOpen(true);
    await settle();
    expect(w.leadForm()).not.toBeNull();
    // The visitor cannot write meanwhile.
    w.c.set({ draft: "Hello" });
    await w.c.send();
    expect(w.c.state.messages).toEqual([]);
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(w.textarea().disabled).toBe(false));
    expect(w.c.state.notice).toBeNull();
    expect(w.leadForm()).toBeNull();
  });

  it("after the visitor's N-th message, once: Not now and Escape dismiss it, focus goes back to the message box", async () => {
    config.leadForm = form({ afterMessages: 2 });
    const w = await openWidget();
    expect(w.leadForm()).toBeNull();
    await exchange(w, "One", 1);
    expect(w.leadForm()).toBeNull();
    await exchange(w, "Two", 2);
    expect(w.leadForm()).not.toBeNull();
    w.field("name")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await settle();
    expect(w.leadForm()).toBeNull();
    // The panel stays open: Escape was the form's.
    expect(w.c.state.open).toBe(true);
    expect(w.root.activeElement).toBe(w.textarea());
    await exchange(w, "Three", 3);
    expect(w.leadForm()).toBeNull();
  });

  it("under an answer that offers it (asked to be contacted): shown once, sent with trigger asked; a visitor who writes on dismisses it", async () => {
    const w = await openWidget();
    await exchange(w, "Can someone contact me?", 1, { offersLeadForm: true });
    const f = w.leadForm()!;
    // At the end of the conversation, right under the answer offering it.
    expect(f.previousElementSibling?.textContent).toContain("An answer.");
    await exchange(w, "Never mind", 2);
    expect(w.leadForm()).toBeNull();
    await exchange(w, "Please contact me", 3, { offersLeadForm: true });
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ fields: { email: "ann@shop.example" }, trigger: "asked" });
    // Both triggers on: the widget cannot tell which one offered it, and sends none.
    w.c.newConversation();
    config.leadForm = form({ whenUnanswered: true });
    w.c.set({ config: { ...w.c.state.config!, leadForm: form({ whenUnanswered: true }) } });
    await exchange(w, "What is your return policy?", 4, { offersLeadForm: true });
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toMatchObject({ sid: "s2", body: { fields: { email: "ann@shop.example" } } });
    expect(posts[1]!.body).not.toHaveProperty("trigger");
  });

  it("under an answer that says why it offers it (leadTrigger): that trigger is sent, whatever the owner's choices; an unknown one falls back to them", async () => {
    config.leadForm = form({ whenUnanswered: true });
    const w = await openWidget();
    await exchange(w, "What is your return policy?", 1, { offersLeadForm: true, leadTrigger: "unanswered" });
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ fields: { email: "ann@shop.example" }, trigger: "unanswered" });
    // Both on and nothing the widget knows said: none sent.
    w.c.newConversation();
    await exchange(w, "Contact me?", 2, { offersLeadForm: true, leadTrigger: "maybe" });
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]!.body).not.toHaveProperty("trigger");
  });

  it("a returning visitor's conversation, while it is resumed: the form before the first message waits for it, and never shows once it has messages", async () => {
    config.leadForm = form({ beforeFirstMessage: "required" });
    session = { messages: [msg("u0", "user", "Hi"), msg("a0", "assistant", "Hello")] };
    resumeMs = 80;
    const notices: (string | undefined)[] = [];
    const w = await openWidget({ stored: true });
    w.c.subscribe(() => notices.push(w.c.state.notice?.text));
    expect(w.c.state.messages).toEqual([]);
    expect(w.leadForm()).toBeNull();
    expect(w.textarea().disabled).toBe(false);
    await vi.waitFor(() => expect(w.c.state.messages).toHaveLength(2));
    await settle();
    expect(w.leadForm()).toBeNull();
    expect(w.textarea().disabled).toBe(false);
    expect(notices).not.toContain(t.leadFirst);
    // A new conversation (nothing stored for it) is asked at once.
    w.c.newConversation();
    await settle();
    expect(w.leadForm()).not.toBeNull();
    expect(w.textarea().disabled).toBe(true);
  });

  it("a conversation that already sent a lead (the server says so) is not asked again", async () => {
    config.leadForm = form({ afterMessages: 1 });
    session = { messages: [msg("u0", "user", "Hi"), msg("a0", "assistant", "Hello", { offersLeadForm: true })], leadSent: true };
    const w = await openWidget({ stored: true });
    await vi.waitFor(() => expect(w.c.state.messages).toHaveLength(2));
    await settle();
    expect(w.leadForm()).toBeNull();
    await exchange(w, "Contact me", 1, { offersLeadForm: true });
    expect(w.leadForm()).toBeNull();
    // A new conversation is asked again.
    w.c.newConversation();
    await exchange(w, "Hi again", 2);
    expect(w.leadForm()).not.toBeNull();
  });

  it("after a reload, a conversation that sent a lead shows the owner's thank-you line again where it was, not rated, and no form", async () => {
    config.leadForm = form({ afterMessages: 1 });
    session = { messages: [msg("u0", "user", "Hi"), msg("a0", "assistant", "Hello", { offersLeadForm: true }), msg("u1", "user", "Ok"), msg("a1", "assistant", "Fine")], leadSent: true, leadAfter: "a0" };
    const w = await openWidget({ stored: true });
    await vi.waitFor(() => expect(w.c.state.messages.map((m) => m.text)).toEqual(["Hi", "Hello", "Thanks, we'll call you back.", "Ok", "Fine"]));
    await settle();
    const lines = [...w.root.querySelectorAll(".m1")].map((el) => el.textContent);
    expect(lines[2]).toContain("Thanks, we'll call you back.");
    // Rating buttons under the two answers, none under the thank-you line.
    expect(w.root.querySelectorAll(".m1")[2]!.querySelector(".rt")).toBeNull();
    expect(w.root.querySelectorAll(".rt")).toHaveLength(2);
    expect(w.leadForm()).toBeNull();
    // Only once, whatever renders next; the form is not asked again in this conversation.
    await exchange(w, "Contact me", 2, { offersLeadForm: true });
    expect(w.c.state.messages.filter((m) => m.text === "Thanks, we'll call you back.")).toHaveLength(1);
    expect(w.leadForm()).toBeNull();
    w.c.destroy();
  });

  it("after a reload, a lead sent before the first message: the thank-you line (the default, in the visitor's language) first, the required form not asked again", async () => {
    config.leadForm = form({ beforeFirstMessage: "required", thanks: {} });
    session = { messages: [], leadSent: true, leadAfter: null };
    const w = await openWidget({ stored: true, locale: "ar" });
    await vi.waitFor(() => expect(w.c.state.messages.map((m) => m.text)).toEqual([widgetStrings.ar.leadThanks]));
    await settle();
    expect(w.leadForm()).toBeNull();
    expect(w.textarea().disabled).toBe(false);
    await exchange(w, "Hi", 1);
    expect(w.c.state.messages.map((m) => m.text)).toEqual([widgetStrings.ar.leadThanks, "Hi", "An answer."]);
    expect(w.leadForm()).toBeNull();
    w.c.destroy();
  });

  it("nobody took over: the handoff's e-mail ask is the lead form (its intro the ask), sent with trigger handoff", async () => {
    config.handoff = { visitorAction: true, businessHours: "", replyTime: "", emailAfterMinutes: 5 };
    session = { messages: [msg("u0", "user", "A person please")], handoff: { state: "requested", requestedAt: 1, askEmailAt: Date.now() - 1000 } };
    const w = await openWidget({ stored: true });
    await vi.waitFor(() => expect(w.leadForm()).not.toBeNull(), { timeout: 3000 });
    expect(w.q("#tl-i")!.textContent).toBe(t.emailAsk);
    // The handoff's own address field is not shown beside it.
    expect(w.root.querySelectorAll("input[type=email]")).toHaveLength(1);
    w.type("email", "ann@shop.example");
    await w.submit();
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ fields: { email: "ann@shop.example" }, trigger: "handoff" });
    w.c.destroy();
  });

  it("has its texts in the three languages, each distinct from English but the shared e-mail label", () => {
    for (const locale of ["en", "fr", "ar"] as const) {
      const s = widgetStrings[locale];
      const texts = [...Object.values(s.leadKinds), s.leadRequired, s.leadNotNow, s.leadIntro, s.leadThanks, s.leadFirst, s.leadMissing("X"), s.leadEmail, s.leadPhone, s.leadFix, s.leadFailed];
      expect(texts.every((x) => x.trim().length > 0)).toBe(true);
      if (locale !== "en") expect(texts.filter((x, i) => x === [...Object.values(t.leadKinds), t.leadRequired, t.leadNotNow, t.leadIntro, t.leadThanks, t.leadFirst, t.leadMissing("X"), t.leadEmail, t.leadPhone, t.leadFix, t.leadFailed][i])).toEqual(locale === "fr" ? ["E-mail"] : []);
    }
    // English checks say what the server says.
    expect([t.leadEmail, t.leadPhone, t.leadMissing("Name")]).toEqual([leadMessages.emailInvalid, leadMessages.phoneInvalid, leadMessages.valueRequired("Name")]);
  });
});
