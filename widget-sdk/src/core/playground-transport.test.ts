import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { playgroundMessageBody } from "../../../contract/schemas/playground";
import { playground } from "../../../contract/constants";
import { widgetMessages } from "../../../contract/messages";
import { widgetStrings } from "../../../contract/widget-strings";
import type { WidgetServerFrame } from "../../../contract/schemas/widget";
import { createPlaygroundTransport, playgroundHistory } from "./playground-transport";
import { PlaygroundController } from "./playground";

/**
 * The Playground's transport against a scripted endpoint (fetch stubbed): what it sends, how it
 * reads the widget's SSE, and how failures reach the widget; then the widget's controller driven
 * through it (no session, no /api/widget call).
 */
const URL_ = "/api/public-assistants/a1/playground";
const user = (id: string, cid: string, text: string) => ({
  event: "new-message",
  data: { clientMessageId: cid, message: { id, chatId: "c", role: "user", content: { type: "text", data: text }, files: [], timestamp: 1, status: "complete", error: null } },
});
const answer = (id: string, text: string) => ({
  event: "new-message",
  data: {
    message: { id, chatId: "c", role: "assistant", content: { type: "text", data: text }, files: [], timestamp: 2, status: "complete", error: null },
    sources: [{ fileId: "f1", name: "spa.txt", excerpt: "ninety minutes" }],
  },
});
const sse = (events: { event: string; data: unknown }[], split = 7) => {
  const text = events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join("");
  // Chunks cut anywhere, as a network does.
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += split) chunks.push(text.slice(i, i + split));
  return new Response(new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(new TextEncoder().encode(x))), c.close()) }), {
    headers: { "content-type": "text/event-stream" },
  });
};
const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

type Call = { url: string; init: RequestInit };
function recorder(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return respond(call);
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

function events() {
  const frames: WidgetServerFrame[] = [];
  const lost: [string, string | null, number][] = [];
  return { frames, lost, onFrame: (f: WidgetServerFrame) => frames.push(f), onLost: (id: string, e: string | null, s: number) => lost.push([id, e, s]) };
}
const settle = () => new Promise((r) => setTimeout(r, 0));
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 50 && !ok(); i++) await settle();
};

describe("createPlaygroundTransport", () => {
  it("posts the message with the earlier turns, the locale and the owner's token, and passes the widget's events on", async () => {
    const { calls, fetch } = recorder(() =>
      sse([user("u1", "m1", "How long?"), { event: "thinking", data: { messageId: "a1" } }, { event: "message-delta", data: { messageId: "a1", delta: "Ninety", offset: 0 } }, answer("a1", "Ninety minutes."), { event: "remaining-messages", data: { remaining: 19, limit: 20 } }]),
    );
    const ev = events();
    const remaining: number[] = [];
    const history = [{ role: "user" as const, content: "Hi" }, { role: "assistant" as const, content: "Hello!" }];
    const t = createPlaygroundTransport({ url: URL_, authorization: () => "Token t1", history: () => history, locale: "fr-FR", onRemaining: (r) => remaining.push(r), fetch }, ev);
    t.send({ content: "How long?", files: [{ name: "a.txt", text: "x" }], clientMessageId: "m1" });
    await until(() => remaining.length > 0);

    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [Call];
    expect(url).toBe(URL_);
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>).authorization).toBe("Token t1");
    const body = playgroundMessageBody.parse(JSON.parse(String(init.body)));
    expect(body).toMatchObject({ content: "How long?", clientMessageId: "m1", history, locale: "fr-FR", files: [{ name: "a.txt", text: "x" }] });
    expect(ev.frames.map((f) => f.event)).toEqual(["new-message", "thinking", "message-delta", "new-message"]);
    // The owner's throttle is not a visitor limit: it never reaches the widget.
    expect(remaining).toEqual([19]);
    expect(ev.lost).toEqual([]);
  });

  it("hands a refusal to onLost with the server's message and status (429 throttle, 5xx)", async () => {
    for (const [status, error] of [
      [429, widgetMessages.tooManyMessages],
      [500, "Something went wrong."],
    ] as const) {
      const { fetch } = recorder(() => json({ error, code: "X", requestId: "r" }, status));
      const ev = events();
      createPlaygroundTransport({ url: URL_, authorization: () => null, history: () => [], locale: "en", fetch }, ev).send({ content: "q", clientMessageId: "m1" });
      await until(() => ev.lost.length > 0);
      expect(ev.lost).toEqual([["m1", error, status]]);
    }
  });

  it("reports a network failure and a stream cut before its answer, but not a stop", async () => {
    const offline = events();
    createPlaygroundTransport({ url: URL_, authorization: () => null, history: () => [], locale: "en", fetch: (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch }, offline).send({
      content: "q",
      clientMessageId: "m1",
    });
    await until(() => offline.lost.length > 0);
    expect(offline.lost).toEqual([["m1", null, 0]]);

    const cut = events();
    createPlaygroundTransport({ url: URL_, authorization: () => null, history: () => [], locale: "en", fetch: recorder(() => sse([{ event: "thinking", data: { messageId: "a1" } }])).fetch }, cut).send({
      content: "q",
      clientMessageId: "m2",
    });
    await until(() => cut.lost.length > 0);
    expect(cut.lost).toEqual([["m2", null, 0]]);

    // Stop: the request is aborted; the widget settles the answer itself, nothing is "lost".
    let signal: AbortSignal | undefined;
    const stopped = events();
    const t = createPlaygroundTransport(
      {
        url: URL_,
        authorization: () => null,
        history: () => [],
        locale: "en",
        fetch: ((_u: string, init: RequestInit) => {
          signal = init.signal!;
          return new Promise((_r, reject) => signal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
        }) as unknown as typeof fetch,
      },
      stopped,
    );
    t.send({ content: "q", clientMessageId: "m3" });
    await settle();
    expect(t.stop()).toBe(true);
    await settle();
    expect(signal?.aborted).toBe(true);
    expect(stopped.lost).toEqual([]);
    expect(t.stop()).toBe(false);
  });

  it("drops events that are not the widget's", async () => {
    const ev = events();
    const bad = new Response("event: thinking\ndata: {not json\n\nevent: evil\ndata: {}\n\nevent: thinking\ndata: {\"messageId\":3}\n\n");
    createPlaygroundTransport({ url: URL_, authorization: () => null, history: () => [], locale: "en", fetch: (async () => bad) as typeof fetch }, ev).send({ content: "q", clientMessageId: "m1" });
    await until(() => ev.lost.length > 0);
    expect(ev.frames).toEqual([]);
    expect(ev.lost).toEqual([["m1", null, 0]]);
  });
});

describe("playgroundHistory", () => {
  const m = (role: "user" | "assistant", text: string, status = "complete") => ({ role, text, status });
  it("keeps accepted messages and finished answers, the latest within the endpoint's bounds", () => {
    expect(playgroundHistory([m("user", "a"), m("assistant", "b"), m("user", "c", "failed"), m("user", "d", "pending"), m("assistant", "e", "error"), m("assistant", "f", "stopped"), m("assistant", "", "stopped")])).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "assistant", content: "f" },
    ]);
    const many = Array.from({ length: playground.maxHistoryMessages + 5 }, (_, i) => m(i % 2 ? "assistant" : "user", `t${i}`));
    const turns = playgroundHistory(many);
    expect(turns).toHaveLength(playground.maxHistoryMessages);
    expect(turns.at(-1)!.content).toBe(`t${many.length - 1}`);
    const long = "x".repeat(playground.maxHistoryChars - 3);
    expect(playgroundHistory([m("user", "old question"), m("assistant", long), m("user", "abc")]).map((t) => t.content)).toEqual([long, "abc"]);
  });
});

describe("PlaygroundController", () => {
  beforeEach(() => {
    vi.stubGlobal("document", { documentElement: { lang: "en" } });
    vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
    vi.stubGlobal("localStorage", { getItem: () => null, setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal("WebSocket", undefined);
  });
  afterEach(() => vi.unstubAllGlobals());
  const config = { id: "a1", name: "A", headerText: "Riad", welcomeMessage: "Hi", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: true, showSources: true } as const;

  it("opens with the given config, answers through the playground only, and sends the conversation so far", async () => {
    let n = 0;
    const cidOf = (call: Call) => (JSON.parse(String(call.init.body)) as { clientMessageId: string }).clientMessageId;
    const { calls, fetch } = recorder((call) => (n++ === 0 ? sse([user("u1", cidOf(call), "first"), answer("a1", "One.")]) : sse([answer("a2", "Two.")])));
    const c = new PlaygroundController({ url: URL_, authorization: () => "Token t", config, fetch });
    expect(c.state).toMatchObject({ config, open: true, hidden: false });

    // The message's key is the widget's own id: the echo carries it.
    c.set({ draft: "first" });
    await c.send();
    await until(() => !c.state.busy);
    expect(c.state.messages[0]!.key).toBe(cidOf(calls[0]!));
    expect(c.state.messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ["user", "first", "complete"],
      ["assistant", "One.", "complete"],
    ]);
    await c.send("second");
    await until(() => calls.length === 2 && !c.state.busy);
    expect(calls.every((x) => x.url === URL_)).toBe(true);
    expect((JSON.parse(String(calls[1]!.init.body)) as { history: unknown }).history).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "One." },
    ]);

    // A new conversation starts empty and keeps using the playground.
    c.newConversation();
    expect(c.state.messages).toEqual([]);
    await c.send("third");
    await until(() => calls.length === 3);
    expect((JSON.parse(String(calls[2]!.init.body)) as { history: unknown }).history).toEqual([]);
  });

  it("shows the owner's throttle as the widget shows a refused reply: the server's text and Retry", async () => {
    const { fetch } = recorder(() => json({ error: widgetMessages.tooManyMessages, code: "RATE_LIMITED", requestId: "r" }, 429));
    const c = new PlaygroundController({ url: URL_, authorization: () => null, config, fetch });
    await c.send("hello");
    await until(() => !c.state.busy);
    expect(c.state.notice).toMatchObject({ text: widgetMessages.tooManyMessages, retry: true, blocking: false });
    expect(c.state.messages[0]!.status).toBe("failed");
  });

  it("shows neither Talk to a person nor the lead form: no visitor session to hand over or send a lead to", () => {
    const handoff = { visitorAction: true, businessHours: "", replyTime: "", emailAfterMinutes: 5 };
    const leadForm = { fields: [{ key: "email", kind: "email", label: {}, required: true }], intro: {}, thanks: {}, beforeFirstMessage: "required", afterMessages: 0, whenAsked: true, whenUnanswered: true } as const;
    const c = new PlaygroundController({ url: URL_, authorization: () => null, config: { ...config, handoff, leadForm: { ...leadForm, fields: [...leadForm.fields] } }, fetch: globalThis.fetch });
    expect(c.state.config).toMatchObject({ handoff: undefined, leadForm: undefined });
  });

  it("speaks the owner's fixed language, as the widget on a site does, and follows a change of it (the preview's form)", async () => {
    const c = new PlaygroundController({ url: URL_, authorization: () => null, config: { ...config, language: "fr" }, fetch: globalThis.fetch });
    await until(() => c.state.locale === "fr");
    expect(c.state.locale).toBe("fr");
    expect(c.t.closeChat).toBe("Fermer le chat");
    c.applyConfig({ ...config, language: "ar" });
    await until(() => c.state.locale === "ar");
    expect(c.state.locale).toBe("ar");
    c.applyConfig({ ...config, language: "en" });
    await until(() => c.state.locale === "en");
    expect(c.state.locale).toBe("en");
  });

  it("says the reply failed when the network is down", async () => {
    const c = new PlaygroundController({ url: URL_, authorization: () => null, config, fetch: (() => Promise.reject(new TypeError("offline"))) as typeof fetch });
    await c.send("hello");
    await until(() => !c.state.busy);
    expect(c.state.notice?.text).toBe(widgetStrings.en.sendFailed);
  });
});
