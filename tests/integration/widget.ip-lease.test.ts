import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { errorBodySchema, widget, widgetMessages } from "../../contract";
import { getAssistantHub } from "../../worker/widget/get-assistant-hub";
import { call, json, randomIp } from "./helpers";
import { sseFrames, sendOverSse, startSession, widgetAssistant } from "./widget-helpers";

/**
 * The widget's per-IP message throttle (`widget.throttles.message`, across every assistant) while
 * its counter moves to the assistant's object that a network talks to (a lease:
 * assistant/ip-message-leases.ts, durable-objects/rate-limiter.ts) and back when the network
 * writes to another assistant: the count is never in two places, so the limit stays exact.
 */

const { limit, windowMs } = widget.throttles.message;

/** The throttle counts per fixed window: start a test early enough in one that it ends inside it. */
async function freshWindow(needMs = 20_000) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** The lease an assistant's object holds for `ip` (its count in the window), or null (none, or given back: lease_end 0). */
const leaseAt = (assistantId: string, ip: string) =>
  runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
    const row = state.storage.sql.exec<{ count: number }>("SELECT count FROM ip_message_leases WHERE ip = ? AND lease_end > 0", ip).toArray()[0];
    return row ? row.count : null;
  });

async function send(key: string, sessionId: string, ip: string, content: string) {
  const res = await sendOverSse(key, sessionId, { content: `${content} [[tokens:1]]` }, { ip });
  if (res.status === 200) {
    await sseFrames(res);
    return "answered" as const;
  }
  expect(res.status).toBe(429);
  expect((await json(res, errorBodySchema)).error).toBe(widgetMessages.tooManyMessages);
  return "refused" as const;
}

const config = { config: { maxMessagesPerSession: 50, dailyLimit: 1000 } };

// freshWindow may wait up to its 20 s for the next window: longer than the default 5 s timeout.
describe("per-IP message throttle held by the assistant's object", { timeout: 60_000 }, () => {
  it("counts a network's messages in the assistant's object, hands the count back to the counter for another assistant, and answers exactly the limit", async () => {
    const [a, b, c] = await Promise.all([widgetAssistant(config, { upload: false }), widgetAssistant(config, { upload: false }), widgetAssistant(config, { upload: false })]);
    const [sa, sb, sc] = await Promise.all([a, b, c].map((x) => startSession(x.key)));
    const ip = randomIp();
    await freshWindow();

    // The first message leases the counter to A's object; the next ones are counted there.
    const first = 10;
    for (let i = 0; i < first; i++) expect(await send(a.key, sa!.sessionId, ip, `a ${i}`)).toBe("answered");
    expect(await leaseAt(a.assistant._id, ip)).toBe(first);

    // B's first message recalls it: A keeps no count, and the counter goes on from A's.
    const second = 10;
    for (let i = 0; i < second; i++) expect(await send(b.key, sb!.sessionId, ip, `b ${i}`)).toBe("answered");
    expect(await leaseAt(a.assistant._id, ip)).toBeNull();
    expect(await leaseAt(b.assistant._id, ip)).toBeNull();

    // What is left of the window, plus k more, at once across all three: exactly the rest pass.
    const k = 4;
    const rest = limit - first - second;
    const keys = [a, b, c];
    const sessions = [sa!, sb!, sc!];
    const outcomes = await Promise.all(Array.from({ length: rest + k }, (_, i) => send(keys[i % 3]!.key, sessions[i % 3]!.sessionId, ip, `burst ${i}`)));
    expect(outcomes.filter((o) => o === "answered")).toHaveLength(rest);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(k);
  });

  it("answers exactly the limit when the first messages of a network reach two assistants at once", async () => {
    const [a, b] = await Promise.all([widgetAssistant(config, { upload: false }), widgetAssistant(config, { upload: false })]);
    const [sa, sb] = await Promise.all([a, b].map((x) => startSession(x.key)));
    const ip = randomIp();
    await freshWindow();
    const k = 5;
    const outcomes = await Promise.all(
      Array.from({ length: limit + k }, (_, i) => (i % 2 ? send(a.key, sa!.sessionId, ip, `a ${i}`) : send(b.key, sb!.sessionId, ip, `b ${i}`))),
    );
    expect(outcomes.filter((o) => o === "answered")).toHaveLength(limit);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(k);
  });

  it("keeps counting one network in one assistant's object up to the limit, and refuses past it with Retry-After", async () => {
    const a = await widgetAssistant(config, { upload: false });
    const { sessionId } = await startSession(a.key);
    const ip = randomIp();
    await freshWindow();
    for (let i = 0; i < limit; i++) expect(await send(a.key, sessionId, ip, `m ${i}`)).toBe("answered");
    expect(await leaseAt(a.assistant._id, ip)).toBe(limit);
    const res = await sendOverSse(a.key, sessionId, { content: "one too many" }, { ip });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another network is not affected.
    expect(await send(a.key, sessionId, randomIp(), "another network")).toBe("answered");
  });

  it("lets a network go on elsewhere when the assistant holding its count is deleted", async () => {
    const [a, b] = await Promise.all([widgetAssistant(config, { upload: false }), widgetAssistant(config, { upload: false })]);
    const [sa, sb] = await Promise.all([a, b].map((x) => startSession(x.key)));
    const ip = randomIp();
    await freshWindow();
    for (let i = 0; i < 3; i++) expect(await send(a.key, sa!.sessionId, ip, `a ${i}`)).toBe("answered");
    expect(await leaseAt(a.assistant._id, ip)).toBe(3);
    expect((await call(`/api/public-assistants/${a.assistant._id}`, { token: a.token, method: "DELETE" })).status).toBe(204);
    expect(await send(b.key, sb!.sessionId, ip, "b")).toBe("answered");
  });
});
