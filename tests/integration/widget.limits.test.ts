import { describe, expect, it } from "vitest";
import { botDefence, errorBodySchema, widget, widgetMessages } from "../../contract";
import { networkDailyShare } from "../../worker/services/widget/widget-limits";
import { json, randomIp } from "./helpers";
import { openWidgetSocket, sendOverSse, sessionRows, sseFrames, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/** Sends `n` messages at once; returns their responses. */
const burst = (n: number, send: (i: number) => Promise<Response>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));

async function tally(responses: Response[]) {
  const refused: string[] = [];
  let answered = 0;
  for (const res of responses) {
    if (res.status === 200) {
      await sseFrames(res);
      answered++;
    } else {
      expect(res.status).toBe(429);
      refused.push((await json(res, errorBodySchema)).error);
    }
  }
  return { answered, refused };
}

describe("messages per visitor session", () => {
  it("answers exactly maxMessagesPerSession of L+k concurrent messages and refuses k", async () => {
    const L = 3;
    const k = 4;
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: L, dailyLimit: 100 } }, { upload: false });
    const { sessionId } = await startSession(key);
    const { answered, refused } = await tally(await burst(L + k, (i) => sendOverSse(key, sessionId, { content: `question ${i} [[tokens:2]]` })));
    expect(answered).toBe(L);
    expect(refused).toEqual(Array.from({ length: k }, () => widgetMessages.sessionLimitReached));
    const { session, messages } = await sessionRows(sessionId);
    expect(messages.filter((m) => m.role === "user")).toHaveLength(L);
    expect(session).toMatchObject({ message_count: 2 * L });

    // The session reports nothing left; a new session may chat again.
    const res = await widgetCall(`/api/widget/sessions/${sessionId}`, { key });
    expect((await res.json<{ remaining: unknown }>()).remaining).toMatchObject({ session: 0 });
    const fresh = await startSession(key);
    expect(fresh.remaining.session).toBe(L);
  });

  it("refuses on the socket with message-error and remaining 0", async () => {
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 1 } }, { upload: false });
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    socket.sendMessage({ content: "first [[tokens:2]]" });
    expect(await socket.next("remaining-messages", (d) => d.remaining === 0)).toEqual({ remaining: 0, limit: 1 });
    const refusedId = socket.sendMessage({ content: "second" });
    const error = await socket.next("message-error", (d) => d.clientMessageId === refusedId);
    expect(error).toMatchObject({ error: widgetMessages.sessionLimitReached, reason: "session-limit", chatId: sessionId });
    expect(socket.all("new-message").filter((d) => d.message.role === "user")).toHaveLength(1);
    socket.close();
  });
});

describe("daily limit per assistant", () => {
  it("answers exactly dailyLimit of L+k concurrent messages across sessions, and the session keeps its unused allowance", async () => {
    const L = 10;
    const k = 3;
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 50, dailyLimit: L } }, { upload: false });
    const sessions = await Promise.all([0, 1, 2].map(() => startSession(key)));
    const { answered, refused } = await tally(
      await burst(L + k, (i) => sendOverSse(key, sessions[i % 3]!.sessionId, { content: `daily ${i} [[tokens:1]]` })),
    );
    expect(answered).toBe(L);
    expect(refused).toEqual(Array.from({ length: k }, () => widgetMessages.dailyLimitReached));

    // A refused message gave its session count back: session allowances add up to what was answered.
    const remaining = await Promise.all(sessions.map(async (s) => (await widgetCall(`/api/widget/sessions/${s.sessionId}`, { key }).then((r) => r.json<{ remaining: { session: number; daily: number } }>())).remaining));
    expect(remaining.reduce((n, r) => n + (50 - r.session), 0)).toBe(L);
    expect(remaining.every((r) => r.daily === 0)).toBe(true);
  });

  it("tells a socket visitor the day is over", async () => {
    const { key } = await widgetAssistant({ config: { dailyLimit: 10, maxMessagesPerSession: 50 } }, { upload: false });
    const { sessionId } = await startSession(key);
    await tally(await burst(10, (i) => sendOverSse(key, sessionId, { content: `fill ${i} [[tokens:1]]` })));
    const socket = await openWidgetSocket(sessionId, key);
    expect(await socket.next("remaining-messages")).toEqual({ remaining: 0, limit: 10 });
    const id = socket.sendMessage({ content: "one more" });
    expect(await socket.next("message-error", (d) => d.clientMessageId === id)).toMatchObject({ error: widgetMessages.dailyLimitReached, reason: "daily-limit" });
    socket.close();
  });
});

describe("per-IP throttles", () => {
  it("refuses new sessions from one IP past the hourly throttle, across assistants", async () => {
    // Spread over assistants so none sees a spike from this address (bot defence, past
    // botDefence.spikeThresholds.address new sessions an assistant asks for a proof first).
    const perAssistant = botDefence.spikeThresholds.address - 2;
    const limit = widget.throttles.sessionCreate.limit;
    const keys = await Promise.all(Array.from({ length: Math.ceil((limit + 2) / perAssistant) }, () => widgetAssistant({}, { upload: false }).then((a) => a.key)));
    const ip = randomIp();
    const results = await Promise.all(Array.from({ length: limit + 2 }, (_, i) => widgetCall("/api/widget/sessions", { key: keys[i % keys.length], ip, json: {} })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(limit);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    const body = await json(refused[0]!, errorBodySchema);
    expect(body).toMatchObject({ error: widgetMessages.tooManySessions, code: "RATE_LIMITED" });
    expect(refused[0]!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("gives one network at most its share of the assistant's day: exactly S of S+k pass, another IP still passes", async () => {
    const dailyLimit = 10;
    const share = networkDailyShare(dailyLimit);
    expect(share).toBeLessThan(dailyLimit);
    const k = 3;
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 50, dailyLimit } }, { upload: false });
    const ip = randomIp();
    const sessions = await Promise.all([0, 1].map(() => startSession(key, { ip })));
    const { answered, refused } = await tally(
      await burst(share + k, (i) => sendOverSse(key, sessions[i % 2]!.sessionId, { content: `share ${i} [[tokens:1]]` }, { ip })),
    );
    expect(answered).toBe(share);
    expect(refused).toEqual(Array.from({ length: k }, () => widgetMessages.networkDailyShareReached));
    // The refused messages were given back to their sessions, and the day is not used up.
    const after = await widgetCall(`/api/widget/sessions/${sessions[0]!.sessionId}`, { key, ip }).then((r) => r.json<{ remaining: { session: number; daily: number } }>());
    expect(after.remaining.daily).toBe(dailyLimit - share);
    const other = await startSession(key);
    expect((await sseFrames(await sendOverSse(key, other.sessionId, { content: "another visitor [[tokens:1]]" }))).at(-1)?.event).toBe("remaining-messages");
    // The network's socket is refused the same way, with the reason the widget shows.
    const socket = await openWidgetSocket(sessions[1]!.sessionId, key, { ip });
    const id = socket.sendMessage({ content: "from the socket" });
    expect(await socket.next("message-error", (d) => d.clientMessageId === id)).toMatchObject({ error: widgetMessages.networkDailyShareReached, reason: "rate-limited" });
    socket.close();
  });

  it("keeps 40 parallel messages from one IP from using up the day for everyone else", async () => {
    const dailyLimit = 100;
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 50, dailyLimit } }, { upload: false });
    const ip = randomIp();
    const sessions = await Promise.all([0, 1].map(() => startSession(key, { ip })));
    const responses = await burst(40, (i) => sendOverSse(key, sessions[i % 2]!.sessionId, { content: `flood ${i} [[tokens:1]]` }, { ip }));
    const { answered, refused } = await tally(responses);
    expect(answered).toBeLessThanOrEqual(networkDailyShare(dailyLimit));
    expect(answered + refused.length).toBe(40);
    expect(refused.every((e) => e === widgetMessages.tooManyMessages || e === widgetMessages.networkDailyShareReached)).toBe(true);
    for (const res of responses.filter((r) => r.status === 429)) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const visitor = await startSession(key);
    expect(visitor.remaining.daily).toBe(dailyLimit - answered);
    expect((await sendOverSse(key, visitor.sessionId, { content: "a real visitor [[tokens:1]]" })).status).toBe(200);
  });

  it("refuses attachments when the owner does not allow them, without counting the message", async () => {
    const { key } = await widgetAssistant({ config: { allowAttachments: false, maxMessagesPerSession: 2 } }, { upload: false });
    const { sessionId } = await startSession(key);
    const res = await sendOverSse(key, sessionId, { content: "see file", files: [{ name: "a.txt", text: "hello" }] });
    expect(res.status).toBe(400);
    expect((await json(res, errorBodySchema)).error).toBe(widgetMessages.attachmentsNotAllowed);
    const after = await widgetCall(`/api/widget/sessions/${sessionId}`, { key }).then((r) => r.json<{ remaining: { session: number } }>());
    expect(after.remaining.session).toBe(2);
  });
});
