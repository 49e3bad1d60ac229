import { describe, expect, it } from "vitest";
import {
  chatHistoryResponse,
  publicAssistantDefaults,
  widgetConfigResponse,
  widgetMessages,
  widgetSessionResponse,
} from "../../contract";
import { call, callWithEnv, json } from "./helpers";
import {
  REFUND_DOC,
  SHOP_ORIGIN,
  openWidgetSocket,
  sendOverSse,
  sessionRows,
  sseFrames,
  startSession,
  widgetAssistant,
  widgetCall,
} from "./widget-helpers";

const QUESTION = "How many days do I have to return a zephyrboard?";

describe("widget config", () => {
  it("returns the assistant's looks and limits, with CORS for the calling site", async () => {
    const { key, assistant } = await widgetAssistant(
      { config: { maxMessagesPerSession: 7, dailyLimit: 50, allowAttachments: true, customization: { headerText: "Shop help", primaryColor: "#112233" } }, showSources: true, integration: { widgetPosition: "top-left", widgetSize: "large" } },
      { upload: false },
    );
    const res = await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(res.headers.get("vary")?.toLowerCase()).toContain("origin");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await json(res, widgetConfigResponse)).toEqual({
      assistant: {
        id: assistant._id,
        name: "Shop helper",
        headerText: "Shop help",
        welcomeMessage: publicAssistantDefaults.config.customization.welcomeMessage,
        primaryColor: "#112233",
        position: "top-left",
        size: "large",
        allowAttachments: true,
        showSources: true,
        starterQuestions: [],
        theme: "auto",
        language: "auto",
        availabilityLine: "",
        avatarUrl: "",
        contactLine: "",
        handoff: { visitorAction: false, businessHours: "", replyTime: "", emailAfterMinutes: publicAssistantDefaults.config.handoff.emailAfterMinutes },
      },
      limits: { maxMessagesPerSession: 7, dailyLimit: 50 },
    });
  });

  it("carries the owner's privacy line and policy link only when set", async () => {
    const { key } = await widgetAssistant(
      { config: { customization: { privacyNotice: "  We keep chats 30 days.  ", privacyUrl: "https://shop.example/privacy" } } },
      { upload: false },
    );
    const body = await json(await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN }), widgetConfigResponse);
    expect(body.assistant.privacyNotice).toBe("We keep chats 30 days.");
    expect(body.assistant.privacyUrl).toBe("https://shop.example/privacy");
    const { key: other } = await widgetAssistant({ config: { customization: { privacyNotice: "Only a line." } } }, { upload: false });
    const only = await json(await widgetCall("/api/widget/config", { key: other, origin: SHOP_ORIGIN }), widgetConfigResponse);
    expect(only.assistant.privacyNotice).toBe("Only a line.");
    expect("privacyUrl" in only.assistant).toBe(false);
  });

  it("answers CORS preflights on /api/widget/*", async () => {
    const res = await call("/api/widget/sessions", {
      method: "OPTIONS",
      headers: { origin: SHOP_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-assistant-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(res.headers.get("access-control-allow-headers")).toContain("x-assistant-key");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("vary")?.toLowerCase()).toContain("origin");
  });
});

describe("widget sessions and messages over HTTP", () => {
  it("starts a session with its visitor details and full allowances", async () => {
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 4, dailyLimit: 20 } }, { upload: false });
    const res = await widgetCall("/api/widget/sessions", {
      key,
      origin: SHOP_ORIGIN,
      headers: { "user-agent": "Mozilla/5.0 (widget test)" },
      json: { referrer: "https://shop.example/help", locale: "fr-FR" },
    });
    expect(res.status).toBe(201);
    const session = await json(res, widgetSessionResponse);
    expect(session).toEqual({ sessionId: session.sessionId, messages: [], remaining: { session: 4, daily: 20 } });
    const { session: row } = await sessionRows(session.sessionId);
    expect(row).toMatchObject({ referrer: "https://shop.example/help", origin: SHOP_ORIGIN, user_agent: "Mozilla/5.0 (widget test)", locale: "fr-FR", message_count: 0 });
    expect(Math.abs(Number(row!.started_at) - Date.now())).toBeLessThan(60_000);
  });

  it("streams an answer grounded in the uploaded document, with its sources, as SSE", async () => {
    const { key, assistant } = await widgetAssistant({ showSources: true, config: { maxMessagesPerSession: 5 } });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const clientMessageId = "pending-1";
    const res = await sendOverSse(key, sessionId, { content: `[[echo]] ${QUESTION}`, clientMessageId }, { origin: SHOP_ORIGIN });
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    const frames = await sseFrames(res);
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", ...frames.slice(2, -2).map(() => "message-delta"), "new-message", "remaining-messages"]);

    const [asked, thinking] = frames;
    expect(asked).toMatchObject({ event: "new-message", data: { clientMessageId, message: { role: "user", chatId: sessionId, content: { data: `[[echo]] ${QUESTION}` } } } });
    expect(thinking).toMatchObject({ event: "thinking", data: { chatId: sessionId, clientMessageId } });
    const deltas = frames.filter((f) => f.event === "message-delta").map((f) => f.data as { delta: string; offset: number; messageId: string });
    let text = "";
    for (const d of deltas) {
      expect(d.offset).toBe(text.length);
      text += d.delta;
    }
    const final = frames.at(-2)!;
    if (final.event !== "new-message") throw new Error("expected the final new-message");
    expect(final.data.message).toMatchObject({ role: "assistant", status: "complete", chatId: sessionId, content: { data: text } });
    expect(final.data.message.id).toBe((thinking!.data as { messageId: string }).messageId);

    // The mock echoes what reached it: the system prompt carries the passage and the rules.
    const prompt = JSON.parse(text) as { role: string; content: string }[];
    expect(prompt[0]!.role).toBe("system");
    expect(prompt[0]!.content).toContain("within 45 days of delivery");
    expect(prompt[0]!.content).toContain(REFUND_DOC.name);
    expect(prompt[0]!.content).toMatch(/do not cover/i);
    expect(prompt[0]!.content).toContain("en-US");
    expect(prompt.at(-1)).toEqual({ role: "user", content: `[[echo]] ${QUESTION}` });

    const sources = final.data.sources!;
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ name: REFUND_DOC.name, fileId: assistant.files[0]?._id ?? sources[0]!.fileId });
    expect(sources[0]!.excerpt).toContain("45 days");
    expect(final.data.message.sources).toEqual(sources);
    expect(frames.at(-1)).toEqual({ event: "remaining-messages", data: { remaining: 4, limit: 5 } });

    // Persisted: both messages, the answer's sources, and the session's counters.
    const { session, messages } = await sessionRows(sessionId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.content).toBe(text);
    expect(JSON.parse(messages[1]!.sources)).toEqual(sources);
    expect(session).toMatchObject({ message_count: 2, last_message_at: messages[1]!.created_at });
  });

  it("reports a failed model answer with message-error, keeping the visitor's message", async () => {
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 5 } }, { upload: false });
    const { sessionId } = await startSession(key);
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "please fail [[fail:500]]", clientMessageId: "f1" }));
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", "message-error", "remaining-messages"]);
    expect(frames[2]).toMatchObject({ event: "message-error", data: { reason: "reply-failed", clientMessageId: "f1", chatId: sessionId, message: { status: "error" } } });
    expect(frames[3]).toEqual({ event: "remaining-messages", data: { remaining: 4, limit: 5 } });
    const { messages, session } = await sessionRows(sessionId);
    expect(messages.map((m) => m.role)).toEqual(["user"]);
    expect(session).toMatchObject({ message_count: 1 });
  });

  it("keeps sources in the history but does not send them when the owner hides them", async () => {
    const { key } = await widgetAssistant({ showSources: false });
    const { sessionId } = await startSession(key);
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "[[tokens:3]] Can I return a zephyrboard for a full refund?" }));
    const final = frames.filter((f) => f.event === "new-message").at(-1)!;
    if (final.event !== "new-message") throw new Error("unreachable");
    expect(final.data.sources).toBeUndefined();
    expect(final.data.message.sources).toBeUndefined();
    const { messages } = await sessionRows(sessionId);
    expect(JSON.parse(messages[1]!.sources)).toMatchObject([{ name: REFUND_DOC.name }]);
  });

  it("resumes a session on reload, and GET returns the same conversation", async () => {
    const { key } = await widgetAssistant({ showSources: true, config: { maxMessagesPerSession: 6 } });
    const { sessionId } = await startSession(key);
    await sseFrames(await sendOverSse(key, sessionId, { content: "How long do refunds take for a zephyrboard?" }));

    const resumed = await startSession(key, { visitorSessionId: sessionId, status: 200 });
    expect(resumed.sessionId).toBe(sessionId);
    expect(resumed.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(resumed.messages[1]!.sources?.[0]?.name).toBe(REFUND_DOC.name);
    expect(resumed.remaining).toEqual({ session: 5, daily: expect.any(Number) });

    const res = await widgetCall(`/api/widget/sessions/${sessionId}`, { key });
    expect(res.status).toBe(200);
    expect(await json(res, widgetSessionResponse)).toEqual(resumed);

    // An unknown id starts a new session instead.
    const fresh = await startSession(key, { visitorSessionId: crypto.randomUUID() });
    expect(fresh.sessionId).not.toBe(sessionId);
  });

  it("shows the conversation in the owner's View History", async () => {
    const { key, token, assistant } = await widgetAssistant({ showSources: true });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    await sseFrames(await sendOverSse(key, sessionId, { content: "Where do you ship to?" }, { origin: SHOP_ORIGIN }));
    const res = await call(`/api/public-assistants/${assistant._id}/chats`, { token });
    const history = await json(res, chatHistoryResponse);
    const session = history.sessions.find((s) => s.sessionId === sessionId)!;
    expect(session.messageCount).toBe(2);
    expect(session.sessionInfo).toMatchObject({ origin: SHOP_ORIGIN, referrer: "https://shop.example/help", locale: "en-US" });
    expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(session.messages[1]!.sources?.[0]?.name).toBe(REFUND_DOC.name);
  });
});

describe("widget socket", () => {
  it("streams the answer in several frames to every tab, then the remaining messages", async () => {
    const { key } = await widgetAssistant({ showSources: true, config: { maxMessagesPerSession: 3 } });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const tab1 = await openWidgetSocket(sessionId, key, { origin: SHOP_ORIGIN });
    const tab2 = await openWidgetSocket(sessionId, key, { origin: SHOP_ORIGIN });
    expect(await tab1.next("remaining-messages")).toEqual({ remaining: 3, limit: 3 });

    const clientMessageId = tab1.sendMessage({ content: "[[tokens:6]] Can I return a zephyrboard for a full refund?" });
    const echoed = await tab1.next("new-message", (d) => d.clientMessageId === clientMessageId);
    expect(echoed.message).toMatchObject({ role: "user", chatId: sessionId });
    const thinking = await tab1.next("thinking");
    const final = await tab1.next("new-message", (d) => d.message.role === "assistant");
    const deltas = tab1.all("message-delta").filter((d) => d.messageId === thinking.messageId);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.map((d) => d.delta).join("")).toBe(final.message.content.data);
    expect(final.sources?.[0]?.name).toBe(REFUND_DOC.name);
    expect(await tab1.next("remaining-messages", (d) => d.remaining === 2)).toEqual({ remaining: 2, limit: 3 });
    // The other tab saw the same answer.
    expect((await tab2.next("new-message", (d) => d.message.role === "assistant")).message.id).toBe(final.message.id);
    expect(tab1.invalid).toEqual([]);
    tab1.close();
    tab2.close();

    const { messages, session } = await sessionRows(sessionId);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(session).toMatchObject({ message_count: 2 });
  });

  it("stops an answer on `stop`, keeping and saving its text so far", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    socket.sendMessage({ content: "long one [[tokens:200]] [[delay:20]]" });
    await socket.next("message-delta");
    socket.ws.send(JSON.stringify({ event: "stop", data: {} }));
    const final = await socket.next("new-message", (d) => d.message.role === "assistant");
    expect(final.message.status).toBe("stopped");
    const words = final.message.content.data.split(" ").filter(Boolean).length;
    expect(words).toBeGreaterThan(0);
    expect(words).toBeLessThan(200);
    const { messages } = await sessionRows(sessionId);
    expect(messages[1]!.content).toBe(final.message.content.data);
    socket.close();
  });

  it("answers a bad frame with message-error and keeps the socket open", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    socket.ws.send("not json");
    expect((await socket.next("message-error")).error).toBe(widgetMessages.invalidFrame);
    socket.ws.send(JSON.stringify({ event: "send-message", data: { content: "   ", clientMessageId: "x" } }));
    expect((await socket.next("message-error", (d) => d.error === widgetMessages.emptyMessage)).reason).toBe("invalid");
    expect(socket.closed).toBeNull();
    socket.close();
  });
});

describe("offline mode (no model configured)", () => {
  const offline = { LLM_BASE_URL: undefined, LLM_MODEL: undefined };

  it("answers with labelled excerpts of the best passages and their sources, never as a model", async () => {
    const { key } = await widgetAssistant({ showSources: true });
    const { sessionId } = await startSession(key);
    const res = await callWithEnv(offline, `/api/widget/sessions/${sessionId}/messages`, {
      headers: { "x-assistant-key": key },
      json: { content: "How many days to return a zephyrboard?", clientMessageId: "c1" },
    });
    const frames = await sseFrames(res);
    const final = frames.filter((f) => f.event === "new-message").at(-1)!;
    if (final.event !== "new-message") throw new Error("unreachable");
    const text = final.data.message.content.data;
    expect(text.startsWith(widgetMessages.offlineIntro)).toBe(true);
    expect(text).toContain("within 45 days of delivery");
    expect(text).toContain(`From "${REFUND_DOC.name}"`);
    expect(text).toContain(widgetMessages.offlineSources([REFUND_DOC.name]));
    expect(final.data.sources?.[0]?.name).toBe(REFUND_DOC.name);
  });

  it("says plainly when nothing in the documents matches", async () => {
    const { key } = await widgetAssistant({});
    const { sessionId } = await startSession(key);
    const res = await callWithEnv(offline, `/api/widget/sessions/${sessionId}/messages`, {
      headers: { "x-assistant-key": key },
      json: { content: "quantum chromodynamics lattice", clientMessageId: "c2" },
    });
    const final = (await sseFrames(res)).filter((f) => f.event === "new-message").at(-1)!;
    if (final.event !== "new-message") throw new Error("unreachable");
    expect(final.data.message.content.data).toBe(widgetMessages.offlineNothing);
    expect(final.data.sources).toBeUndefined();
  });
});
