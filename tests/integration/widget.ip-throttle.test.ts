import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { errorBodySchema, widget, widgetMessages } from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { json, randomIp, withinOneMinute } from "./helpers";
import { ask, rate } from "./insights-helpers";
import { openWidgetSocket, sendOverSse, sessionRows, sseFrames, startSession, widgetAssistant } from "./widget-helpers";

/**
 * The per-IP minute throttles on the Workers Rate Limiting binding (services/ip-throttle.ts), as
 * miniflare emulates `[[ratelimits]]` from wrangler.toml: windows aligned on the minute, counted
 * in memory. A test never waits for a window to end: each uses fresh addresses, and a run the
 * minute turned under is run once more (`withinOneMinute`).
 */
/** A Retry-After of the throttle: whole seconds, within its one-minute window. */
function expectRetryWithinWindow(res: Response) {
  const seconds = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(widget.throttles.message.windowMs / 1000);
}

describe("per-IP message throttle on the Rate Limiting binding", () => {
  it("refuses the message past the limit from one IP within a minute, saving nothing, while another IP still passes", async () => {
    const { limit } = widget.throttles.message;
    // Room in the session and the network's share of the day for more than the throttle allows.
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 50, dailyLimit: 1000 } }, { upload: false });
    await withinOneMinute(async () => {
      const ip = randomIp();
      const { sessionId } = await startSession(key, { ip });
      const passed = await Promise.all(Array.from({ length: limit }, (_, i) => sendOverSse(key, sessionId, { content: `question ${i} [[tokens:1]]` }, { ip })));
      for (const res of passed) await sseFrames(res);

      const refused = await sendOverSse(key, sessionId, { content: "one too many" }, { ip });
      expect(refused.status).toBe(429);
      expect(await json(refused, errorBodySchema)).toMatchObject({ error: widgetMessages.tooManyMessages, code: "RATE_LIMITED" });
      expectRetryWithinWindow(refused);

      // The socket path is refused the same way, from the same address.
      const socket = await openWidgetSocket(sessionId, key, { ip });
      const id = socket.sendMessage({ content: "one too many, by socket" });
      expect(await socket.next("message-error", (d) => d.clientMessageId === id)).toMatchObject({ error: widgetMessages.tooManyMessages, reason: "rate-limited" });
      socket.close();

      // Nothing of the refused messages was saved or counted against the session.
      const { session, messages } = await sessionRows(sessionId);
      const questions = messages.filter((m) => m.role === "user").map((m) => m.content);
      expect(questions).toHaveLength(limit);
      expect(questions.some((c) => c.startsWith("one too many"))).toBe(false);
      expect(session).toMatchObject({ message_count: 2 * limit });

      // Another network, same assistant and session, in the same minute: it passes.
      const other = await sendOverSse(key, sessionId, { content: "from elsewhere [[tokens:1]]" }, { ip: randomIp() });
      expect((await sseFrames(other)).at(-1)?.event).toBe("remaining-messages");
    });
  });
});

describe("per-IP feedback throttle on the Rate Limiting binding", () => {
  it("refuses the rating past the limit from one IP within a minute, keeping the last rating, while another IP still rates", async () => {
    const { limit } = widget.throttles.feedback;
    const { key, assistant } = await widgetAssistant({ config: { maxMessagesPerSession: 50 } }, { upload: false });
    const { sessionId } = await startSession(key);
    const { answerId } = await ask(key, sessionId, "Hello?");
    await withinOneMinute(async () => {
      const ip = randomIp();
      const statuses = await Promise.all(Array.from({ length: limit }, () => rate(sessionId, answerId, "up", { key, ip }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(limit);

      const refused = await rate(sessionId, answerId, "down", { key, ip });
      expect(refused.status).toBe(429);
      expect((await json(refused, errorBodySchema)).code).toBe("RATE_LIMITED");
      expectRetryWithinWindow(refused);

      // The refused "down" changed nothing: the answer is still rated "up".
      expect(await ratingOf(assistant._id, answerId)).toBe("up");

      const other = await rate(sessionId, answerId, "down", { key, ip: randomIp() });
      expect(other.status).toBe(200);
      expect(await ratingOf(assistant._id, answerId)).toBe("down");
    });
  });
});

/** The rating stored on an answer, in its assistant's own object. */
const ratingOf = (assistantId: string, messageId: string) =>
  runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) =>
    state.storage.sql.exec<{ rating: string | null }>("SELECT rating FROM visitor_messages WHERE id = ?", messageId).one().rating,
  );
