import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { VNode } from "preact";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { handoffLimits } from "../../../contract/constants";
import { handoffMessages } from "../../../contract/messages";
import { widgetHandoffBody, type ConversationHandoff } from "../../../contract/schemas/handoff";
import { widgetApiPaths, widgetSessionResponse } from "../../../contract/schemas/widget";
import { widgetStrings } from "../../../contract/widget-strings";
import { Controller, type UiMessage } from "../core/controller";
import { App } from "../core/view";
// The chunks the core would load as scripts register themselves when imported.
import "./ar";
import "./handoff-ar";
import "./handoff";
import "./sse";

/**
 * The widget's handoff (the core with its handoff chunk) against a server mocked at the network
 * (msw): the requests the widget really makes, under the faults a visitor's network has: offline,
 * a 5xx, an event stream cut midway, a socket that never opens. The panel is rendered to VNodes
 * (no DOM), as in view.test.ts; setInterval and Date are faked so the chunk's tick runs at once.
 */
const HOST = "https://tala.example";
const t = widgetStrings.en;
const url = (path: string) => HOST + path;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

type Props = Record<string, unknown>;
function elements(node: unknown, out: VNode<Props>[] = []): VNode<Props>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, out));
  else if (node && typeof node === "object" && "type" in node) {
    out.push(node as VNode<Props>);
    elements((node as VNode<Props>).props.children, out);
  }
  return out;
}
/** Every text of a tree. */
const texts = (node: unknown): string[] =>
  Array.isArray(node) ? node.flatMap(texts) : typeof node === "string" ? [node] : node && typeof node === "object" && "props" in node ? texts((node as VNode<Props>).props.children) : [];

const agent = { name: "Sam Lee", initials: "SL" };
const msg = (id: string, role: string, text: string, extra: object = {}) => ({
  id,
  chatId: "s1",
  role,
  content: { type: "text", data: text },
  files: [],
  timestamp: 1,
  status: "complete",
  ...extra,
});
const requested: ConversationHandoff = { state: "requested", requestedAt: 1, businessHours: "Mon–Fri 9–18", replyTime: "Usually within an hour" };
const taken: ConversationHandoff = { state: "taken", requestedAt: 1, takenAt: 2, agent };

/** A socket that never opens (a proxy holds it): CONNECTING until the test ends. */
class StuckSocket {
  readyState = 0;
  sent: string[] = [];
  onopen = null;
  onclose = null;
  onmessage = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {}
}
/** An open socket: what the widget sends on it is kept. */
let sockets: StuckSocket[];
class OpenSocket extends StuckSocket {
  override readyState = 1;
}

let session: { messages: unknown[]; handoff?: ConversationHandoff };
beforeEach(() => {
  sockets = [];
  session = { messages: [msg("u1", "user", "Where is my order?"), msg("a1", "assistant", "Let me check.")] };
  const store = new Map([["tala:session:asst", "s1"]]);
  vi.stubGlobal("document", { documentElement: { lang: "en" } });
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  vi.stubGlobal("location", { href: "https://shop.example/" });
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  socketKind(StuckSocket);
  server.use(
    http.get(url(widgetApiPaths.config), () =>
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
          handoff: { visitorAction: true, businessHours: "Mon–Fri 9–18", replyTime: "Usually within an hour", emailAfterMinutes: 5 },
        },
        limits: { maxMessagesPerSession: 10, dailyLimit: 100 },
      }),
    ),
    http.post(url(widgetApiPaths.sessions), () => HttpResponse.json(widgetSessionResponse.parse({ sessionId: "s1", remaining: { session: 8, daily: 98 }, ...session }))),
    http.get(url(widgetApiPaths.session("s1")), () => HttpResponse.json(widgetSessionResponse.parse({ sessionId: "s1", remaining: { session: 8, daily: 98 }, ...session }))),
  );
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function socketKind(kind: typeof StuckSocket) {
  vi.stubGlobal(
    "WebSocket",
    class extends kind {
      constructor() {
        super();
        sockets.push(this);
      }
    },
  );
}

async function openWidget() {
  const c = new Controller({ apiKey: "tala_pk_test", host: HOST }, vi.fn());
  await c.start();
  c.setOpen(true);
  await vi.waitFor(() => expect(c.state.messages.length).toBeGreaterThan(0));
  const app = new App({ c, root: {} as ShadowRoot, host: {} as HTMLElement });
  const tree = () => elements(app.render(app.props));
  const button = (label: string) => tree().find((e) => e.type === "button" && (e.props.children === label || e.props["aria-label"] === label));
  const click = (label: string) => (button(label)!.props.onClick as (e: unknown) => void)({ currentTarget: null, preventDefault() {} });
  return { c, app, tree, button, click, text: () => texts(app.render(app.props)).join(" ") };
}

/** An event stream: its events, then it ends (`end`), is cut (`cut`) or stays open. */
function stream(events: [string, unknown][], after: "end" | "cut" | "open" = "open") {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new HttpResponse(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        if (after === "end") controller.close();
        // Cut once what was sent has been read (an error at once would drop the queued events).
        if (after === "cut") setTimeout(() => controller.error(new Error("connection reset")), 30);
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}
/** Waits (real time, fake clocks untouched) until `ok` holds. */
async function until(ok: () => boolean) {
  for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}
const tick = async (ms = 1000) => {
  await vi.advanceTimersByTimeAsync(ms);
};

describe("asking for a person", () => {
  it("offers Talk to a person, then shows the waiting card with the owner's hours and reply time, and goes back", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(url(widgetApiPaths.handoff("s1")), async ({ request }) => {
        bodies.push(widgetHandoffBody.parse(await request.json()));
        return HttpResponse.json({ handoff: requested }, { status: 202 });
      }),
      http.delete(url(widgetApiPaths.handoff("s1")), () => HttpResponse.json({ handoff: { state: "none" } }, { status: 202 })),
    );
    const w = await openWidget();
    expect(w.button(t.talkToPerson)).toBeDefined();
    w.click(t.talkToPerson);
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    expect(bodies).toEqual([{}]);
    const shown = w.text();
    for (const s of [widgetStrings.en.waiting, "Mon–Fri 9–18", "Usually within an hour", widgetStrings.en.backToAssistant]) expect(shown).toContain(s);
    // Asked: the action is not offered twice.
    expect(w.button(t.talkToPerson)).toBeUndefined();
    w.click(widgetStrings.en.backToAssistant);
    await vi.waitFor(() => expect(w.c.state.handing).toBe(false));
    expect(w.text()).not.toContain(widgetStrings.en.waiting);
    expect(w.button(t.talkToPerson)).toBeDefined();
    w.c.destroy();
  });

  it("offline: the request fails with a clear message and Retry, which asks again once the network is back", async () => {
    let online = false;
    server.use(http.post(url(widgetApiPaths.handoff("s1")), () => (online ? HttpResponse.json({ handoff: requested }, { status: 202 }) : HttpResponse.error())));
    const w = await openWidget();
    w.click(t.talkToPerson);
    await vi.waitFor(() => expect(w.c.state.notice?.text).toBe(widgetStrings.en.requestFailed));
    expect(w.c.state.handing).toBeFalsy();
    online = true;
    w.click(t.retry);
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    expect(w.c.state.notice).toBeNull();
    w.c.destroy();
  });

  it("a 5xx: the server's text when it sent one (else ours), with Retry; a refusal (4xx) has no Retry", async () => {
    let status = 503;
    server.use(
      http.post(url(widgetApiPaths.handoff("s1")), () =>
        status === 503
          ? HttpResponse.json({ error: "Service temporarily unavailable." }, { status: 503 })
          : status === 500
            ? new HttpResponse("oops", { status: 500 })
            : HttpResponse.json({ error: handoffMessages.handoffOff }, { status: 400 }),
      ),
    );
    const w = await openWidget();
    w.click(t.talkToPerson);
    await vi.waitFor(() => expect(w.c.state.notice?.text).toBe("Service temporarily unavailable."));
    expect(w.button(t.retry)).toBeDefined();
    status = 500;
    w.click(t.retry);
    await vi.waitFor(() => expect(w.c.state.notice?.text).toBe(widgetStrings.en.requestFailed));
    status = 400;
    w.click(t.retry);
    await vi.waitFor(() => expect(w.c.state.notice?.text).toBe(handoffMessages.handoffOff));
    expect(w.button(t.retry)).toBeUndefined();
    expect(w.c.state.handing).toBeFalsy();
    w.c.destroy();
  });

  it("shows the action under an answer that offers a person, only when the owner offers it", async () => {
    session.messages.push(msg("a2", "assistant", handoffMessages.offerReply.en, { offersHandoff: true }));
    const w = await openWidget();
    const under = w.tree().filter((e) => e.props.class === "m1" && elements(e.props.children).some((b) => b.props.children === t.talkToPerson));
    expect(under).toHaveLength(1);
    w.c.set({ config: { ...w.c.state.config!, handoff: undefined } });
    expect(w.button(t.talkToPerson)).toBeUndefined();
    w.c.destroy();
  });
});

describe("a person has the conversation", () => {
  it("a socket that never opens: the event stream brings the person joining, typing and their message, shown with their name", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    session.handoff = requested;
    let opened = 0;
    server.use(
      http.get(url(widgetApiPaths.events("s1")), () => {
        opened++;
        return stream([
          ["handoff", { chatId: "s1", handoff: taken }],
          ["typing", { chatId: "s1", typing: true, name: "Sam Lee" }],
        ]);
      }),
    );
    const w = await openWidget();
    expect(sockets[0]!.readyState).toBe(0);
    await tick();
    await vi.waitFor(() => expect(w.c.state.handoff?.state).toBe("taken"));
    expect(opened).toBe(1);
    // The joined note (announced in the log) and the typing line.
    expect(w.text()).toContain(widgetStrings.en.joined("Sam Lee"));
    await vi.waitFor(() => expect(w.text()).toContain(widgetStrings.en.personTyping("Sam Lee")));
    // Their message ends their typing; shown as safe markdown under their name, never rated.
    w.c.apply({ event: "new-message", data: { message: msg("g1", "agent", "Hi, **Sam** here", { author: agent }) as never } });
    expect(w.text()).not.toContain(widgetStrings.en.personTyping("Sam Lee"));
    const bubble = w.tree().find((e) => e.key === "g1")!;
    expect(texts(bubble)).toEqual(["Sam Lee: ", "SL", "Sam Lee", "Hi, ", "Sam", " here"]);
    expect(elements(bubble).some((e) => e.type === "strong")).toBe(true);
    expect(elements(bubble).filter((e) => e.type === "button")).toEqual([]);
    // Its typing expires by itself too.
    w.c.apply({ event: "typing", data: { chatId: "s1", typing: true } });
    await vi.waitFor(() => expect(w.text()).toContain(widgetStrings.en.personTyping("Sam Lee")));
    await tick(handoffLimits.typingTtlMs + 1000);
    expect(w.text()).not.toContain("is typing");
    w.c.destroy();
  });

  it("an event stream cut midway reconnects, and a message it repeats shows once", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    session.handoff = taken;
    const g1 = msg("g1", "agent", "First", { author: agent });
    const g2 = msg("g2", "agent", "Second", { author: agent });
    let opened = 0;
    server.use(
      http.get(url(widgetApiPaths.events("s1")), () => {
        opened++;
        return opened === 1 ? stream([["new-message", { message: g1 }]], "cut") : stream([["new-message", { message: g1 }], ["new-message", { message: g2 }]]);
      }),
    );
    const w = await openWidget();
    await tick();
    await vi.waitFor(() => expect(w.c.state.messages.some((m) => m.id === "g1")).toBe(true));
    // The cut is waited on (1 s), then the stream opens again; the session read on reopening brings nothing new.
    session.messages.push(g1);
    await vi.waitFor(async () => {
      await tick();
      expect(w.c.state.messages.some((m) => m.id === "g2")).toBe(true);
    }, 5000);
    expect(opened).toBe(2);
    expect(w.c.state.messages.filter((m) => m.id === "g1")).toHaveLength(1);
    expect(w.c.state.notice).toBeNull();
    w.c.destroy();
  });

  it("a stream that cannot open is tried again later and later; an open socket stops it", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    session.handoff = taken;
    let opened = 0;
    server.use(
      http.get(url(widgetApiPaths.events("s1")), () => {
        opened++;
        return HttpResponse.error();
      }),
    );
    const w = await openWidget();
    await until(() => w.c.state.handing === true);
    await tick();
    await until(() => opened === 1);
    await tick(1000);
    await until(() => opened === 2);
    // Now 2 s until the next try.
    await tick(1000);
    await new Promise((r) => setTimeout(r, 50));
    expect(opened).toBe(2);
    await tick(1000);
    await until(() => opened === 3);
    sockets[0]!.readyState = 1;
    await tick(10_000);
    expect(opened).toBe(3);
    w.c.destroy();
  });

  it("the visitor's message while a person has it: saved, no answer awaited, no failure shown (over HTTP)", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    session.handoff = taken;
    server.use(
      http.get(url(widgetApiPaths.events("s1")), () => stream([])),
      http.post(url(widgetApiPaths.messages("s1")), async ({ request }) => {
        const body = (await request.json()) as { clientMessageId: string; content: string };
        return stream([["new-message", { message: msg("u2", "user", body.content), clientMessageId: body.clientMessageId }]], "end");
      }),
    );
    socketKind(class extends StuckSocket {
      override readyState = 3;
    });
    const w = await openWidget();
    w.c.set({ draft: "Thanks!" });
    await w.c.send();
    await vi.waitFor(() => expect(w.c.state.messages.some((m) => m.id === "u2")).toBe(true));
    await vi.waitFor(() => expect(w.c.state.busy).toBe(false));
    await new Promise((r) => setTimeout(r, 20));
    expect(w.c.state.notice).toBeNull();
    expect(w.c.state.messages.find((m) => m.id === "u2")!.status).toBe("complete");
    w.c.destroy();
  });

  it("sends the visitor's typing on the socket at most every typingSendMs, and not typing on send or blur", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    socketKind(OpenSocket);
    session.handoff = taken;
    const w = await openWidget();
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    const sent = () => sockets[0]!.sent.map((s) => JSON.parse(s) as { event: string; data: { typing: boolean } }).filter((f) => f.event === "typing").map((f) => f.data.typing);
    w.c.set({ draft: "H" });
    w.c.set({ draft: "He" });
    w.c.set({ draft: "Hel" });
    expect(sent()).toEqual([true]);
    await tick(handoffLimits.typingSendMs);
    w.c.set({ draft: "Hell" });
    expect(sent()).toEqual([true, true]);
    w.c.set({ draft: "" });
    expect(sent()).toEqual([true, true, false]);
    w.c.set({ draft: "Again" });
    const textarea = w.tree().find((e) => e.type === "textarea")!;
    (textarea.props.onBlur as () => void)();
    expect(sent()).toEqual([true, true, false, true, false]);
    w.c.destroy();
  });

  it("the person's initials are never inside the dimmed text of a note or a name (their contrast on the brand colour holds)", async () => {
    socketKind(OpenSocket);
    session.handoff = requested;
    session.messages.push(msg("g1", "agent", "Hello", { author: agent }));
    const w = await openWidget();
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    w.c.apply({ event: "handoff", data: { chatId: "s1", handoff: taken } });
    await vi.waitFor(() => expect(w.text()).toContain(widgetStrings.en.joined("Sam Lee")));
    const tree = w.tree();
    const avatars = tree.filter((e) => e.type === "span" && texts(e.props.children).join("") === "SL");
    // The note's and the message's.
    expect(avatars).toHaveLength(2);
    const dimmed = tree.filter((e) => String(e.props.class ?? "").split(" ").includes("t"));
    for (const d of dimmed) expect(elements(d.props.children).filter((e) => avatars.includes(e))).toEqual([]);
    w.c.destroy();
  });

  it("hands back: a note, then the assistant answers again; Talk to a person is offered again", async () => {
    socketKind(OpenSocket);
    session.handoff = taken;
    const w = await openWidget();
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    w.c.apply({ event: "handoff", data: { chatId: "s1", handoff: { state: "none" } } });
    await vi.waitFor(() => expect(w.c.state.handing).toBe(false));
    expect(w.text()).toContain(widgetStrings.en.handedBack);
    expect(w.button(t.talkToPerson)).toBeDefined();
    w.c.destroy();
  });

  it("a reply written after the visitor left shows when they come back, under the person's name", async () => {
    socketKind(OpenSocket);
    session.handoff = { state: "none", requestedAt: 1, takenAt: 2 };
    session.messages.push(msg("g1", "agent", "We shipped it today.", { author: { ...agent, photoUrl: "javascript:alert(1)" } }));
    const w = await openWidget();
    await vi.waitFor(() => expect(w.tree().some((e) => e.key === "g1")).toBe(true));
    const bubble = w.tree().find((e) => e.key === "g1")!;
    expect(texts(bubble)).toContain("We shipped it today.");
    // A photo address that is not http(s) is never used: the initials show.
    expect(elements(bubble).some((e) => e.type === "img")).toBe(false);
    expect(w.text()).not.toContain(widgetStrings.en.handedBack);
    w.c.destroy();
  });

  it("in Arabic: the waiting card's texts, the panel right to left", async () => {
    socketKind(OpenSocket);
    session.handoff = requested;
    const w = await openWidget();
    w.c.setLocale("ar");
    await vi.waitFor(() => expect(w.c.state.locale).toBe("ar"));
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    expect(w.text()).toContain(widgetStrings.ar.waiting);
    expect(w.button(widgetStrings.ar.backToAssistant)).toBeDefined();
    expect(w.tree().find((e) => e.props.role === "dialog")!.props.dir).toBe("rtl");
    w.c.destroy();
  });
});

describe("the e-mail ask", () => {
  it("when nobody took it in time: checks the address as the server does, sends it, then thanks without repeating it", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    socketKind(OpenSocket);
    session.handoff = { ...requested, askEmailAt: Date.now() + 60_000 };
    const sent: unknown[] = [];
    server.use(
      http.post(url(widgetApiPaths.handoff("s1")), async ({ request }) => {
        sent.push(widgetHandoffBody.parse(await request.json()));
        return HttpResponse.json({ handoff: { ...requested, emailLeft: true } }, { status: 202 });
      }),
    );
    const w = await openWidget();
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    const form = () => w.tree().find((e) => e.type === "form" && e.props.noValidate);
    expect(form()).toBeUndefined();
    await tick(61_000);
    expect(w.text()).toContain(widgetStrings.en.emailAsk);
    const input = () => elements(form()).find((e) => e.type === "input")!;
    expect(input().props).toMatchObject({ type: "email", maxLength: handoffLimits.maxEmailChars });
    const submit = () => (form()!.props.onSubmit as (e: unknown) => void)({ preventDefault() {}, currentTarget: { closest: () => null } });
    (input().props.onInput as (e: unknown) => void)({ currentTarget: { value: "not an address" } });
    submit();
    expect(w.text()).toContain(handoffMessages.emailInvalid);
    expect(input().props["aria-invalid"]).toBe(true);
    expect(sent).toEqual([]);
    (input().props.onInput as (e: unknown) => void)({ currentTarget: { value: " visitor@shop.example " } });
    submit();
    await vi.waitFor(() => expect(sent).toEqual([{ email: "visitor@shop.example" }]));
    await vi.waitFor(() => expect(form()).toBeUndefined());
    expect(w.text()).toContain(widgetStrings.en.emailThanks);
    expect(w.text()).not.toContain("visitor@shop.example");
    w.c.destroy();
  });

  it("No thanks dismisses it; a signed visitor is never asked", async () => {
    socketKind(OpenSocket);
    session.handoff = { ...requested, askEmailAt: 1 };
    const w = await openWidget();
    await vi.waitFor(() => expect(w.c.state.handing).toBe(true));
    expect(w.text()).toContain(widgetStrings.en.emailAsk);
    w.click(widgetStrings.en.noThanks);
    expect(w.text()).not.toContain(widgetStrings.en.emailAsk);
    w.c.destroy();

    const v = await openWidget();
    v.c.set({ verified: true });
    await vi.waitFor(() => expect(v.c.state.handing).toBe(true));
    expect(v.text()).not.toContain(widgetStrings.en.emailAsk);
    v.c.destroy();
  });
});

describe("the handoff's texts", () => {
  it("exist in the three languages", () => {
    for (const locale of ["en", "fr", "ar"] as const) {
      const s = widgetStrings[locale];
      expect([s.talkToPerson, s.waiting, s.backToAssistant, s.joined("Sam"), s.handedBack, s.personTyping(), s.emailAsk, s.emailLabel, s.noThanks, s.emailInvalid, s.emailThanks, s.requestFailed].every(Boolean)).toBe(true);
    }
    expect(widgetStrings.fr.talkToPerson).not.toBe(widgetStrings.en.talkToPerson);
    expect(handoffMessages.offerReply.fr).toContain(widgetStrings.fr.talkToPerson);
    expect(handoffMessages.offerReply.ar).toContain(widgetStrings.ar.talkToPerson);
    expect(handoffMessages.offerReply.en).toContain(widgetStrings.en.talkToPerson);
  });
});

export type { UiMessage };
