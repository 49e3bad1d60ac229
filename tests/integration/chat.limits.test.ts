/**
 * A signed-in user's chat limits (worker/chat/user-limits.ts), counted in their own room: replies
 * being written at once, messages a minute, and a daily quota while the e-mail is not verified,
 * lifted by verifying. Every refusal is a message-error that changed and counted nothing.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatMessages, clientFrames, publicRoutes, userChatLimits } from "../../contract";
import { RoomStore } from "../../worker/chat/room-store";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { chatUser, userRoomFootprint, type TestSocket } from "./chat-helpers";
import { call, latestCode, tableCounts } from "./helpers";

const { maxRunningReplies, perMinute, minuteMs, unverifiedPerDay, dayMs } = userChatLimits;
const quotaRefusal = chatMessages.unverifiedQuotaExhausted(publicRoutes.verifyEmail);

/** Messages admitted in the user's room, as its SQLite holds them. */
const admissions = (userId: string) =>
  runInDurableObject(getUserRoom(env, userId), (_room, state) => tableCounts(state.storage, { n: "message_admissions" }).n);

/** Writes `count` admitted messages at `at` into the user's room, as if sent then. */
async function seedAdmissions(userId: string, count: number, at: number) {
  await runInDurableObject(getUserRoom(env, userId), (_room, state) => {
    const store = new RoomStore(state.storage);
    for (let i = 0; i < count; i++) store.sql.exec("INSERT INTO message_admissions (at) VALUES (?)", at);
  });
}

/** Earlier today (UTC) and more than a minute ago, so seeded messages count for the day but not the rate. */
async function earlierToday() {
  const sinceMidnight = Date.now() % dayMs;
  if (sinceMidnight < minuteMs + 1000) await new Promise((r) => setTimeout(r, minuteMs + 1000 - sinceMidnight));
  return Date.now() - (Date.now() % dayMs);
}

/** Sends one frame per message at once; each one's outcome: started (its thinking) or refused (its error). */
function sendAll(tab: TestSocket, contents: string[], timeoutMs = 20_000) {
  const ids = contents.map((content) => tab.sendMessage({ content }));
  return Promise.all(
    ids.map((id) =>
      Promise.race([
        tab.next("thinking", (d) => d.clientMessageId === id, timeoutMs).then(() => ({ id, started: true, error: "" })),
        tab.next("message-error", (d) => d.clientMessageId === id, timeoutMs).then((d) => ({ id, started: false, error: d.error })),
      ]),
    ),
  );
}

/** Waits until `tab` has received `n` finished replies. */
async function repliesDone(tab: TestSocket, n: number, timeoutMs = 15_000) {
  const done = () => tab.all("new-message").filter((d) => d.message.role === "assistant" && d.message.status === "complete").length >= n;
  for (const end = Date.now() + timeoutMs; !done(); ) {
    if (Date.now() > end) throw new Error(`fewer than ${n} replies finished within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function verify(email: string) {
  const res = await call("/api/auth/verify-email/confirm", { json: { email, code: await latestCode(email) } });
  expect(res.status).toBe(200);
}

describe("replies running at once", () => {
  it("100 send-message frames at once from one socket start at most the cap; the rest are refused and saved nothing", { timeout: 40_000 }, async () => {
    const user = await chatUser();
    const tab = await user.open();
    const outcomes = await sendAll(
      tab,
      Array.from({ length: 100 }, (_, i) => `burst ${i} [[ttft:1500]] [[tokens:3]]`),
    );
    const started = outcomes.filter((o) => o.started);
    expect(started).toHaveLength(maxRunningReplies);
    for (const o of outcomes.filter((o) => !o.started)) expect(o.error).toBe(chatMessages.tooManyRunningReplies(maxRunningReplies));
    expect(await admissions(user.user.id)).toBe(maxRunningReplies);

    // The started replies finish; then the room takes new ones again.
    await repliesDone(tab, maxRunningReplies);
    expect((await userRoomFootprint(user.user.id)).chats).toBe(maxRunningReplies);
    const [after] = await sendAll(tab, ["after the burst [[delay:0]]"]);
    expect(after!.started).toBe(true);
    await repliesDone(tab, maxRunningReplies + 1);
    tab.close();
  });

  it("counts regenerates too, across the user's tabs", { timeout: 30_000 }, async () => {
    const user = await chatUser();
    const [tab, other] = await Promise.all([user.open(), user.open()]);
    tab.sendMessage({ content: "to regenerate [[delay:0]]" });
    const reply = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    const running = await sendAll(
      other,
      Array.from({ length: maxRunningReplies }, (_, i) => `busy ${i} [[ttft:1500]]`),
    );
    expect(running.every((o) => o.started)).toBe(true);
    const clientMessageId = crypto.randomUUID();
    tab.send(clientFrames.regenerate({ chatId: reply.message.chatId, messageId: reply.message.id, clientMessageId }));
    const refused = await tab.next("message-error", (d) => d.clientMessageId === clientMessageId);
    expect(refused.error).toBe(chatMessages.tooManyRunningReplies(maxRunningReplies));
    expect(refused.messageId).toBeUndefined();
    await repliesDone(other, 1 + maxRunningReplies);
    tab.close();
    other.close();
  });
});

describe("messages a minute", () => {
  it("admits exactly what is left of the minute when frames arrive at once, and refuses the rest with the rate's message", { timeout: 30_000 }, async () => {
    const user = await chatUser();
    await verify(user.email);
    await seedAdmissions(user.user.id, perMinute - 2, Date.now());
    const tab = await user.open();
    const outcomes = await sendAll(tab, ["rate 1 [[delay:0]]", "rate 2 [[delay:0]]", "rate 3 [[delay:0]]"]);
    expect(outcomes.filter((o) => o.started)).toHaveLength(2);
    expect(outcomes.filter((o) => !o.started).map((o) => o.error)).toEqual([chatMessages.messageRateExceeded(perMinute)]);
    expect(await admissions(user.user.id)).toBe(perMinute);
    tab.close();
  });

  it("takes messages again once the minute has passed", async () => {
    const user = await chatUser();
    await seedAdmissions(user.user.id, perMinute, Date.now() - minuteMs - 1);
    const tab = await user.open();
    const [outcome] = await sendAll(tab, ["a minute later [[delay:0]]"]);
    expect(outcome!.started).toBe(true);
    tab.close();
  });
});

describe("the daily quota of an account whose e-mail is not verified", () => {
  it("is announced on connect and exact under concurrency, with the count left", { timeout: 30_000 }, async () => {
    const user = await chatUser();
    const [tab, other] = await Promise.all([user.open(), user.open()]);
    expect(await tab.next("remaining-messages")).toEqual({ remaining: unverifiedPerDay, limit: unverifiedPerDay, scope: "unverified" });

    await seedAdmissions(user.user.id, unverifiedPerDay - 2, await earlierToday());
    const outcomes = await sendAll(tab, ["day 1 [[delay:0]]", "day 2 [[delay:0]]", "day 3 [[delay:0]]"]);
    expect(outcomes.filter((o) => o.started)).toHaveLength(2);
    const refused = outcomes.filter((o) => !o.started);
    expect(refused.map((o) => o.error)).toEqual([quotaRefusal]);
    expect(refused[0]!.error).toContain(publicRoutes.verifyEmail);
    // Every tab hears the count: 1 then 0 as the two were admitted, 0 again with the refusal.
    expect((await other.next("remaining-messages", (d) => d.remaining === 0)).limit).toBe(unverifiedPerDay);
    expect(other.all("remaining-messages").map((d) => d.remaining)).toEqual([unverifiedPerDay, 1, 0, 0]);
    expect(await admissions(user.user.id)).toBe(unverifiedPerDay);

    const late = await user.open();
    expect(await late.next("remaining-messages")).toEqual({ remaining: 0, limit: unverifiedPerDay, scope: "unverified" });
    for (const t of [tab, other, late]) t.close();
  });

  it("does not apply to a verified account", async () => {
    const user = await chatUser();
    await verify(user.email);
    await seedAdmissions(user.user.id, unverifiedPerDay, await earlierToday());
    const tab = await user.open();
    const [outcome] = await sendAll(tab, ["verified [[delay:0]]"]);
    expect(outcome!.started).toBe(true);
    await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    expect(tab.all("remaining-messages")).toEqual([]);
    tab.close();
  });

  it("is lifted by verifying, for the socket already open too; a refused regenerate changed nothing", { timeout: 30_000 }, async () => {
    const user = await chatUser();
    const tab = await user.open();
    tab.sendMessage({ content: "before the quota [[delay:0]]" });
    const reply = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    await seedAdmissions(user.user.id, unverifiedPerDay - 1, await earlierToday());

    const [refused] = await sendAll(tab, ["over the quota"]);
    expect(refused!.error).toBe(quotaRefusal);
    const clientMessageId = crypto.randomUUID();
    tab.send(clientFrames.regenerate({ chatId: reply.message.chatId, messageId: reply.message.id, clientMessageId }));
    expect((await tab.next("message-error", (d) => d.clientMessageId === clientMessageId)).error).toBe(quotaRefusal);
    expect(await userRoomFootprint(user.user.id)).toMatchObject({ chats: 1, messages: 2 });

    await verify(user.email);
    expect(await admissions(user.user.id)).toBe(1); // the day's count went; the last minute's stays for the rate
    const [lifted] = await sendAll(tab, ["after verifying [[delay:0]]"]);
    expect(lifted!.started).toBe(true);
    await repliesDone(tab, 2);
    // A socket opened now is verified, and hears no daily count.
    const fresh = await user.open();
    const [again] = await sendAll(fresh, ["from a new socket [[delay:0]]"]);
    expect(again!.started).toBe(true);
    await repliesDone(fresh, 1);
    expect(fresh.all("remaining-messages")).toEqual([]);
    tab.close();
    fresh.close();
  });
});
