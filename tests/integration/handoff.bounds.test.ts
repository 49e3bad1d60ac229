import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { handoffLimits, handoffMessages, type WidgetMessage } from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json, outbox, randomIp } from "./helpers";
import { agentSaid, askedForPerson, handoffConversation, hubRows, tookOver, visitorSays } from "./handoff-helpers";
import { sendOverSse, startSession } from "./widget-helpers";

/** A person taking over, held to its bounds: what a visitor, a bot or a forgetful owner cannot make grow or last forever. */

const messagesOf = (frames: { event: string; data: unknown }[]) =>
  frames.filter((f) => f.event === "new-message").map((f) => (f.data as { message: WidgetMessage }).message);

async function ownerEmail(token: string) {
  const me = (await json(await call("/api/auth/me", { token }))) as { user?: { email: string }; email?: string };
  return me.user?.email ?? me.email ?? "";
}

describe("a visitor waiting for a person", () => {
  const cap = handoffLimits.maxUnansweredMessages;

  it(`sends at most ${cap} messages in a row before a person writes (429 naming the limit); a person's reply lets them write again`, async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    await askedForPerson(key, sessionId);
    for (let i = 0; i < cap; i++) expect(messagesOf(await visitorSays(key, sessionId, `Still there? ${i}`)).map((m) => m.role)).toEqual(["user"]);

    const refused = await sendOverSse(key, sessionId, { content: "One more" }, { ip: randomIp() });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(handoffMessages.waitForPerson(cap));
    expect((await hubRows(assistantId, sessionId)).roles.filter((r) => r === "user")).toHaveLength(cap);

    // Taken over and answered: the visitor writes again (the count starts over from the person's message).
    await tookOver(token, assistantId, sessionId);
    await agentSaid(token, assistantId, sessionId, "Hello, I'm here.");
    expect(messagesOf(await visitorSays(key, sessionId, "Great, thanks")).map((m) => m.role)).toEqual(["user"]);
  });
});

describe("the owner's e-mails", () => {
  it(`at most ${handoffLimits.maxOwnerEmailsPerHour} request e-mails an hour per assistant, however many conversations ask`, async () => {
    const { token, key } = await handoffConversation({ visitorAction: true });
    const to = await ownerEmail(token);
    for (let i = 0; i < handoffLimits.maxOwnerEmailsPerHour + 3; i++) {
      const { sessionId } = await startSession(key, { ip: randomIp() });
      await askedForPerson(key, sessionId);
    }
    // E-mails go after the response: wait for the capped number, then a while longer for any extra.
    const requested = async () => (await outbox(to)).filter((e) => e.subject.startsWith("A visitor asked for a person"));
    for (let i = 0; i < 60 && (await requested()).length < handoffLimits.maxOwnerEmailsPerHour; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const requests = await requested();
    expect(requests).toHaveLength(handoffLimits.maxOwnerEmailsPerHour);
  }, 20_000);

  it("an assistant name with line breaks never reaches an e-mail's subject as more than one line", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    const renamed = await call(`/api/public-assistants/${assistantId}`, { token, method: "PUT", json: { name: "Shop\r\nBcc: someone@example.net" } });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    await askedForPerson(key, sessionId);
    const to = await ownerEmail(token);
    let sent: { subject: string }[] = [];
    for (let i = 0; i < 60 && sent.length === 0; i++) {
      sent = (await outbox(to)).filter((e) => e.subject.startsWith("A visitor asked"));
      if (!sent.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).not.toMatch(/[\r\n]/);
    expect(sent[0]!.subject).toBe(handoffMessages.ownerEmailSubject("Shop Bcc: someone@example.net"));
  });
});

describe("a takeover's idle end", () => {
  it("is armed when the owner turns it on after the takeover began (no takeover lasts forever)", async () => {
    const { token, assistantId, sessionId } = await handoffConversation({ idleEndMinutes: 0 });
    await tookOver(token, assistantId, sessionId);
    const put = await call(`/api/public-assistants/${assistantId}`, { token, method: "PUT", json: { config: { handoff: { idleEndMinutes: 10 } } } });
    expect(put.status, await put.clone().text()).toBe(200);
    const hub = getAssistantHub(env, assistantId);
    expect(await runInDurableObject(hub, (_i, state) => state.storage.getAlarm())).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    try {
      expect(await runDurableObjectAlarm(hub)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect((await hubRows(assistantId, sessionId)).session.handoff_state).toBe("none");
  });
});
